/* Drivers of the cipher cores (AES-128, DES, 3DES) in C: the PIO path of rsoc's CoreDriver
 * (runtime/drivers.h) as code for the instruction-set CPU. The runtime calls an entry for every hardware
 * request of its functionality (runtime.driver.programs) with the core's base address; the core's register
 * map is models/ip_core.h's (reg::), its cipher banks big-endian words.
 *
 *   int32_t NAME(uint32_t base, const uint8_t *key, uint32_t key_bytes, const uint8_t *in, uint8_t *out,
 *                uint32_t bytes, uint32_t flags)
 *
 * flags: bit 0 encrypt, bit 1 load (the core holds another key or direction: write KEY and CONFIG, CTRL.INIT,
 * wait for STATUS.READY). Then for every cipher block: write BLOCK, CTRL.NEXT, poll STATUS until READY and
 * VALID, read RESULT. Returns 0; 1 a key of the wrong size; 2 `bytes` not whole cipher blocks; 3 the core did
 * not become ready within CORE_DRIVER_MAX_POLLS status reads (nothing more is written to it). */
#include <stdint.h>

#define REG_CTRL 0x20u
#define REG_STATUS 0x24u
#define REG_CONFIG 0x28u
#define REG_KEY 0x40u
#define REG_BLOCK 0x80u
#define REG_RESULT 0xC0u
#define CTRL_INIT 0x1u
#define CTRL_NEXT 0x2u
#define STATUS_READY 0x1u
#define STATUS_VALID 0x2u
#define CONFIG_ENCRYPT 0x1u
#define CONFIG_TRIPLE 0x2u
#define FLAG_ENCRYPT 0x1u
#define FLAG_LOAD 0x2u

#ifndef CORE_DRIVER_MAX_POLLS
#define CORE_DRIVER_MAX_POLLS 1000000u
#endif

#define REG(base, offset) (*(volatile uint32_t*)(uintptr_t)((base) + (offset)))

static inline uint32_t load_be32(const uint8_t* p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void store_be32(uint8_t* p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* Polls STATUS until every bit of `mask` is set: 0, or 3 after CORE_DRIVER_MAX_POLLS reads. */
static int32_t wait_status(uint32_t base, uint32_t mask) {
  for (uint32_t polls = 0; polls < CORE_DRIVER_MAX_POLLS; ++polls)
    if ((REG(base, REG_STATUS) & mask) == mask) return 0;
  return 3;
}

/* The cipher core at `base` with `key_words` key words, `block_words` words a cipher block, `config` its
 * CONFIG bits besides ENCRYPT. */
static int32_t run(uint32_t base, const uint8_t* key, uint32_t key_bytes, const uint8_t* in, uint8_t* out,
                   uint32_t bytes, uint32_t flags, uint32_t key_words, uint32_t block_words,
                   uint32_t config) {
  if (key_bytes != 4 * key_words) return 1;
  if (bytes % (4 * block_words) != 0) return 2;
  if (flags & FLAG_LOAD) {
    for (uint32_t i = 0; i < key_words; ++i) REG(base, REG_KEY + 4 * i) = load_be32(key + 4 * i);
    REG(base, REG_CONFIG) = config | (flags & FLAG_ENCRYPT ? CONFIG_ENCRYPT : 0u);
    REG(base, REG_CTRL) = CTRL_INIT;
    if (wait_status(base, STATUS_READY) != 0) return 3;
  }
  for (uint32_t off = 0; off < bytes; off += 4 * block_words) {
    for (uint32_t i = 0; i < block_words; ++i) REG(base, REG_BLOCK + 4 * i) = load_be32(in + off + 4 * i);
    REG(base, REG_CTRL) = CTRL_NEXT;
    if (wait_status(base, STATUS_READY | STATUS_VALID) != 0) return 3;
    for (uint32_t i = 0; i < block_words; ++i) store_be32(out + off + 4 * i, REG(base, REG_RESULT + 4 * i));
  }
  return 0;
}

int32_t aes128_core_pio(uint32_t base, const uint8_t* key, uint32_t key_bytes, const uint8_t* in,
                        uint8_t* out, uint32_t bytes, uint32_t flags) {
  return run(base, key, key_bytes, in, out, bytes, flags, 4, 4, 0);
}

int32_t des_core_pio(uint32_t base, const uint8_t* key, uint32_t key_bytes, const uint8_t* in, uint8_t* out,
                     uint32_t bytes, uint32_t flags) {
  return run(base, key, key_bytes, in, out, bytes, flags, 2, 2, 0);
}

int32_t tdes_core_pio(uint32_t base, const uint8_t* key, uint32_t key_bytes, const uint8_t* in, uint8_t* out,
                      uint32_t bytes, uint32_t flags) {
  return run(base, key, key_bytes, in, out, bytes, flags, 6, 2, CONFIG_TRIPLE);
}
