/*
 * des_desrnd.c -- DES and Triple-DES (EDE) in ECB mode on the "desrnd" CPU extension unit, program for the
 * rsoc RISC-V ISS (RV32IMC + the unit on custom-0, freestanding).
 *
 * The unit (models/crypto/des_round_unit.h) holds the key halves C, D and the data halves L, R in four
 * extension registers and performs one or two DES rounds per `desrnd` instruction, rotating the key itself,
 * so software computes only PC-1 of each key (C0, D0) and issues, per block, the sequence of the published
 * design (models/crypto/des_on_desrnd.h): C, D, L, R written, 16 / n desrnd with IP on the first and IP^-1
 * on the last, L and R read back. 3DES keeps the data in the unit for its three passes (IP on pass 1 only,
 * IP^-1 on pass 3 only) and reloads only C and D between them. Key halves and data are reloaded for every
 * block (per-block routine of an IPSec stack: another process may have used the unit in between).
 * Sources: FIPS 46-3 (PC-1, the key schedule), NIST SP 800-67 (TDEA keying option 1).
 *
 * Custom-0 encoding (opcode 0x0b, I-type):
 *   funct3 = 0  xexec  desrnd with operand x[rs1] + sext(imm12); used as `.insn i 0x0b, 0, x0, x0, OP`
 *   funct3 = 1  xwr    extension register[imm12] = x[rs1]
 *   funct3 = 2  xrd    x[rd] = extension register[imm12]
 *
 * Entry points (see README.md for the ABI): des_ecb_desrnd (8-byte key, parity bits ignored) and
 * tdes_ecb_desrnd (24-byte key K1 K2 K3; encryption E_K3(D_K2(E_K1(x))), decryption D_K1(E_K2(D_K3(x)))).
 */
#include <stdint.h>

int32_t des_ecb_desrnd(const uint8_t *key, uint32_t key_bytes, const uint8_t *in, uint8_t *out, uint32_t bytes,
                       uint32_t encrypt);
int32_t tdes_ecb_desrnd(const uint8_t *key, uint32_t key_bytes, const uint8_t *in, uint8_t *out, uint32_t bytes,
                        uint32_t encrypt);

/* Rounds per desrnd instruction: a build option of the unit's hardware, 1 or 2. The published configuration
 * (scenarios/desrnd_3des.md) is 2. */
#define DESRND_ROUNDS_PER_INSN 2

/* Extension register numbers. */
#define XREG_C 0
#define XREG_D 1
#define XREG_L 2
#define XREG_R 3

/* desrnd operand fields (des_round_unit.h): DEC, the pass position of the first round, IP, IP^-1 (FP). */
#define DESRND_ENC 0x00
#define DESRND_DEC 0x01
#define DESRND_ROUND(i) ((i) << 1)
#define DESRND_IP 0x20
#define DESRND_FP 0x40

#ifdef RSOC_HOST_DESRND
/* Host test build only: the three operations call a host model of the unit (functions of the test harness,
 * backed by rsoc::crypto::DesRoundUnit) instead of issuing the custom instructions. */
void rsoc_host_xexec(uint32_t operand);
void rsoc_host_xwr(uint32_t reg, uint32_t value);
uint32_t rsoc_host_xrd(uint32_t reg);
#define XEXEC(op) rsoc_host_xexec(op)
#define XWR(reg, value) rsoc_host_xwr(reg, value)
#define XRD(reg, var) ((var) = rsoc_host_xrd(reg))
#else
/* The instructions are volatile asm statements, so the compiler keeps them in program order. */
#define XEXEC(op) __asm__ volatile(".insn i 0x0b, 0, x0, x0, %0" : : "i"(op))
#define XWR(reg, value) __asm__ volatile(".insn i 0x0b, 1, x0, %0, %1" : : "r"(value), "i"(reg))
#define XRD(reg, var) __asm__ volatile(".insn i 0x0b, 2, %0, x0, %1" : "=r"(var) : "i"(reg))
#endif

/* One 16-round pass, unrolled: `dir` is DESRND_ENC or DESRND_DEC, `ip` is DESRND_IP or 0 (added to the first
 * instruction), `fp` is DESRND_FP or 0 (added to the last). */
#if DESRND_ROUNDS_PER_INSN == 2
#define DESRND_PASS(dir, ip, fp)                      \
    do {                                              \
        XEXEC((dir) | DESRND_ROUND(0) | (ip));        \
        XEXEC((dir) | DESRND_ROUND(2));               \
        XEXEC((dir) | DESRND_ROUND(4));               \
        XEXEC((dir) | DESRND_ROUND(6));               \
        XEXEC((dir) | DESRND_ROUND(8));               \
        XEXEC((dir) | DESRND_ROUND(10));              \
        XEXEC((dir) | DESRND_ROUND(12));              \
        XEXEC((dir) | DESRND_ROUND(14) | (fp));       \
    } while (0)
#elif DESRND_ROUNDS_PER_INSN == 1
#define DESRND_PASS(dir, ip, fp)                      \
    do {                                              \
        XEXEC((dir) | DESRND_ROUND(0) | (ip));        \
        XEXEC((dir) | DESRND_ROUND(1));               \
        XEXEC((dir) | DESRND_ROUND(2));               \
        XEXEC((dir) | DESRND_ROUND(3));               \
        XEXEC((dir) | DESRND_ROUND(4));               \
        XEXEC((dir) | DESRND_ROUND(5));               \
        XEXEC((dir) | DESRND_ROUND(6));               \
        XEXEC((dir) | DESRND_ROUND(7));               \
        XEXEC((dir) | DESRND_ROUND(8));               \
        XEXEC((dir) | DESRND_ROUND(9));               \
        XEXEC((dir) | DESRND_ROUND(10));              \
        XEXEC((dir) | DESRND_ROUND(11));              \
        XEXEC((dir) | DESRND_ROUND(12));              \
        XEXEC((dir) | DESRND_ROUND(13));              \
        XEXEC((dir) | DESRND_ROUND(14));              \
        XEXEC((dir) | DESRND_ROUND(15) | (fp));       \
    } while (0)
#else
#error "DESRND_ROUNDS_PER_INSN must be 1 or 2"
#endif

/* The first subkey's halves C0, D0 of one key: all the unit needs (it rotates them itself). */
typedef struct {
    uint32_t c0, d0;
} desrnd_key;

static inline uint32_t load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline uint32_t load_le32(const uint8_t *p)
{
    return ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) | ((uint32_t)p[1] << 8) | p[0];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/*
 * PC-1 (FIPS 46-3) of an 8-byte key: C0 and D0, 28 bits each with PC-1 output bit 1 (resp. 29) at bit 27, the
 * register layout of the unit. The same bit-swap network as des.c: read as an 8x8 bit matrix (row = key
 * byte), PC-1 takes the columns bottom-up (C0 = columns 1, 2, 3 and the lower four rows of column 4, D0 =
 * columns 7, 6, 5 and the upper four rows of column 4; column 8, the parity, is dropped). Loading the rows in
 * reverse order (little-endian words, second word first) and transposing with three delta-swap stages
 * leaves column c in byte c - 1 (from the top) of hi:lo, bottom row first.
 */
static desrnd_key desrnd_pc1(const uint8_t *key)
{
    uint32_t hi = load_le32(key + 4), lo = load_le32(key), t;
    desrnd_key k;

    t = ((hi >> 7) ^ hi) & 0x00aa00aaU;
    hi ^= t ^ (t << 7);
    t = ((lo >> 7) ^ lo) & 0x00aa00aaU;
    lo ^= t ^ (t << 7);
    t = ((hi >> 14) ^ hi) & 0x0000ccccU;
    hi ^= t ^ (t << 14);
    t = ((lo >> 14) ^ lo) & 0x0000ccccU;
    lo ^= t ^ (t << 14);
    t = ((lo >> 4) ^ hi) & 0x0f0f0f0fU;
    hi ^= t;
    lo ^= t << 4;
    k.c0 = hi >> 4;
    k.d0 = ((lo & 0x0000ff00U) << 12) | ((lo & 0x00ff0000U) >> 4) | ((lo >> 24) << 4) | (hi & 0x0fU);
    return k;
}

/* The block's two big-endian words into L and R, after the key halves: desrnd reads all four registers. */
static inline void desrnd_load(desrnd_key k, const uint8_t *in)
{
    XWR(XREG_C, k.c0);
    XWR(XREG_D, k.d0);
    XWR(XREG_L, load_be32(in));
    XWR(XREG_R, load_be32(in + 4));
}

static inline void desrnd_store(uint8_t *out)
{
    uint32_t l, r;

    XRD(XREG_L, l);
    XRD(XREG_R, r);
    store_be32(out, l);
    store_be32(out + 4, r);
}

static inline void desrnd_rekey(desrnd_key k)
{
    XWR(XREG_C, k.c0);
    XWR(XREG_D, k.d0);
}

int32_t des_ecb_desrnd(const uint8_t *key, uint32_t key_bytes, const uint8_t *in, uint8_t *out, uint32_t bytes,
                       uint32_t encrypt)
{
    desrnd_key k;

    if (key_bytes != 8)
        return 1;
    if (bytes % 8 != 0)
        return 2;
    k = desrnd_pc1(key);
    for (; bytes != 0; bytes -= 8, in += 8, out += 8) {
        desrnd_load(k, in);
        if (encrypt)
            DESRND_PASS(DESRND_ENC, DESRND_IP, DESRND_FP);
        else
            DESRND_PASS(DESRND_DEC, DESRND_IP, DESRND_FP);
        desrnd_store(out);
    }
    return 0;
}

/* Encryption E_K3(D_K2(E_K1(x))) and decryption D_K1(E_K2(D_K3(x))), as TripleDes in models/crypto/des.h: a
 * pass without IP^-1 leaves IP of its output in L, R, which is what the next pass (without IP) starts from. */
int32_t tdes_ecb_desrnd(const uint8_t *key, uint32_t key_bytes, const uint8_t *in, uint8_t *out, uint32_t bytes,
                        uint32_t encrypt)
{
    desrnd_key k1, k2, k3;

    if (key_bytes != 24)
        return 1;
    if (bytes % 8 != 0)
        return 2;
    k1 = desrnd_pc1(key);
    k2 = desrnd_pc1(key + 8);
    k3 = desrnd_pc1(key + 16);
    for (; bytes != 0; bytes -= 8, in += 8, out += 8) {
        if (encrypt) {
            desrnd_load(k1, in);
            DESRND_PASS(DESRND_ENC, DESRND_IP, 0);
            desrnd_rekey(k2);
            DESRND_PASS(DESRND_DEC, 0, 0);
            desrnd_rekey(k3);
            DESRND_PASS(DESRND_ENC, 0, DESRND_FP);
        } else {
            desrnd_load(k3, in);
            DESRND_PASS(DESRND_DEC, DESRND_IP, 0);
            desrnd_rekey(k2);
            DESRND_PASS(DESRND_ENC, 0, 0);
            desrnd_rekey(k1);
            DESRND_PASS(DESRND_DEC, 0, DESRND_FP);
        }
        desrnd_store(out);
    }
    return 0;
}
