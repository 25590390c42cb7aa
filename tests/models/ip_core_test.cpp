// IP cores hosted by a preloaded FpgaSlot: AES-128, DES/3DES and modexp driven through their registers, with
// exact busy times, STATUS/RESULT behaviour while busy, and register access errors.
#include "models/ip_core.h"

#include <gmp.h>
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "models/crypto/modexp.h"
#include "models/fpga_slot.h"
#include "models/modexp_core.h"
#include "models/onchip_bus.h"
#include "models/soft_cpu.h"
#include "models/stream.h"
#include "tests/models/core_access.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

constexpr std::uint64_t kSlot = 0x50000000;
constexpr std::uint64_t kEmptySlot = 0x50010000;
constexpr std::uint32_t kCoreId = 1;

// CPU at 100 MHz (1 issue cycle) -> bus (10 ns, 1 latency cycle, 1 cycle per word) -> a slot preloaded with
// the core, and an empty slot whose fabric clock is 5 ns. With a 10 ns core clock and 1 access cycle, a
// single-word register access costs 10 + (1 + 1) * 10 + 10 = 40 ns and takes effect at its end.
struct CoreBench {
  explicit CoreBench(const CoreParams& core)
      : cpu("cpu", CpuParams{ns(10), 1, 1, 1024}),
        bus("bus", OnChipBusParams{ns(10), 1, 1}),
        slot("slot", SlotParams{1 << 20, true, ns(10)}),
        empty("empty", SlotParams{1 << 20, true, ns(5)}) {
    slot.add_candidate(kCoreId, make_core("core", core));
    slot.preload(kCoreId);
    bus.add_initiator(cpu.initiator);
    bus.add_target(slot.target, kSlot, 0x2000, "slot");
    bus.add_target(empty.target, kEmptySlot, 0x2000, "empty");
  }
  IpCore& core() { return *slot.core(); }

  SoftCpu cpu;
  OnChipBus bus;
  FpgaSlot slot;
  FpgaSlot empty;
};

void write_bank(CpuThread& c, std::uint32_t offset, const std::vector<std::uint32_t>& words) {
  for (std::size_t i = 0; i < words.size(); ++i) c.write32(kSlot + offset + 4 * i, words[i]);
}

std::vector<std::uint32_t> read_bank(CpuThread& c, std::uint32_t offset, std::size_t n) {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(c.read32(kSlot + offset + 4 * i));
  return out;
}

// Polls STATUS until READY; returns the number of reads.
int poll_ready(CpuThread& c, std::uint64_t cycles_between = 0) {
  int polls = 0;
  for (;;) {
    ++polls;
    if (c.read32(kSlot + reg::kStatus) & reg::kStatusReady) return polls;
    c.compute(cycles_between);
  }
}

// FIPS-197 appendix C.1.
const std::vector<std::uint32_t> kAesKey{0x00010203, 0x04050607, 0x08090a0b, 0x0c0d0e0f};
const std::vector<std::uint32_t> kAesPlain{0x00112233, 0x44556677, 0x8899aabb, 0xccddeeff};
const std::vector<std::uint32_t> kAesCipher{0x69c4e0d8, 0x6a7b0430, 0xd8cdb780, 0x70b4c55a};

// CONFIG.AES256: the 8 key words of FIPS-197 C.3 give its ciphertext, and an iterative core takes 14 rounds
// where AES-128 takes 10: ceil(40 * 14 / 10) = 56 cycles per block, ceil(5 * 15 / 11) = 7 per expansion.
TEST(ModelIpCore, AesTakesA256BitKeyWithItsFourteenRounds) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CoreBench b(CoreParams{CoreKind::kAes128, ns(10), 1, /*key_setup_cycles=*/5, /*block_cycles=*/40});
  const std::vector<std::uint32_t> key{0x00010203, 0x04050607, 0x08090a0b, 0x0c0d0e0f,
                                       0x10111213, 0x14151617, 0x18191a1b, 0x1c1d1e1f};
  const std::vector<std::uint32_t> plain{0x00112233, 0x44556677, 0x8899aabb, 0xccddeeff};
  std::vector<std::uint32_t> cipher, back;
  sc_core::sc_time init_busy, block_busy;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    write_bank(c, reg::kKey, key);
    c.write32(kSlot + reg::kConfig, reg::kConfigEncrypt | reg::kConfigAes256);
    c.write32(kSlot + reg::kCtrl, reg::kCtrlInit);
    poll_ready(c);
    init_busy = b.core().busy_time();
    write_bank(c, reg::kBlock, plain);
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);
    poll_ready(c);
    block_busy = b.core().busy_time() - init_busy;
    cipher = read_bank(c, reg::kResult, 4);
    c.write32(kSlot + reg::kConfig, reg::kConfigAes256);  // decrypting, the same key
    write_bank(c, reg::kBlock, cipher);
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);
    poll_ready(c);
    back = read_bank(c, reg::kResult, 4);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(cipher, (std::vector<std::uint32_t>{0x8ea2b7ca, 0x516745bf, 0xeafc4990, 0x4b496089}));
  EXPECT_EQ(back, plain);
  EXPECT_EQ(init_busy, ns(70));
  EXPECT_EQ(block_busy, ns(560));
}

TEST(ModelIpCore, AesEncryptsAndDecryptsFips197ThroughRegisters) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CoreBench b(CoreParams{CoreKind::kAes128, ns(10), 1, /*key_setup_cycles=*/5, /*block_cycles=*/40});
  struct {
    sc_core::sc_time next_at, status_at, ready_at, dec_next_at, dec_busy_at;
    std::uint32_t status_after_next = 0xFF, result_while_busy = 0xFF, status_at_done = 0,
                  status_one_before = 0xFF;
    std::vector<std::uint32_t> cipher, previous_while_decrypting, plain;
    int dec_polls = 0;
  } r;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    write_bank(c, reg::kKey, kAesKey);                     // ends at 160 ns
    c.write32(kSlot + reg::kConfig, reg::kConfigEncrypt);  // 200 ns
    c.write32(kSlot + reg::kCtrl, reg::kCtrlInit);         // 240 ns, key setup until 290 ns
    write_bank(c, reg::kBlock, kAesPlain);                 // 400 ns
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);         // starts at 440 ns
    r.next_at = c.now();
    r.status_after_next = c.read32(kSlot + reg::kStatus);  // sampled at 480 ns
    r.status_at = c.now();
    r.result_while_busy = c.read32(kSlot + reg::kResult);  // 520 ns
    c.compute(28);                                         // 800 ns
    r.status_at_done = c.read32(kSlot + reg::kStatus);     // sampled at 840 ns
    r.ready_at = c.now();
    r.cipher = read_bank(c, reg::kResult, 4);  // 1000 ns

    c.write32(kSlot + reg::kConfig, 0);             // decrypt, 1040 ns
    write_bank(c, reg::kBlock, r.cipher);           // 1200 ns
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);  // starts at 1240 ns, done at 1640 ns
    r.dec_next_at = c.now();
    r.previous_while_decrypting = read_bank(c, reg::kResult, 4);  // 1400 ns
    c.compute(19);                                                // 1590 ns
    r.status_one_before = c.read32(kSlot + reg::kStatus);         // sampled at 1630 ns
    r.dec_busy_at = c.now();
    r.dec_polls = poll_ready(c);
    r.plain = read_bank(c, reg::kResult, 4);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  // Every register access: 10 ns issue + (1 + 1) * 10 ns bus + 1 * 10 ns core = 40 ns.
  EXPECT_EQ(r.next_at, ns(440));
  EXPECT_EQ(r.status_at, ns(480));
  EXPECT_EQ(r.status_after_next, 0u);  // neither READY nor VALID
  EXPECT_EQ(r.result_while_busy, 0u);  // no previous result yet
  // Ready exactly 40 block cycles * 10 ns = 400 ns after the start at 440 ns.
  EXPECT_EQ(r.ready_at, ns(840));
  EXPECT_EQ(r.status_at_done, reg::kStatusReady | reg::kStatusValid);
  EXPECT_EQ(r.cipher, kAesCipher);

  EXPECT_EQ(r.dec_next_at, ns(1240));
  EXPECT_EQ(r.previous_while_decrypting, kAesCipher);  // the encryption's result until 1640 ns
  EXPECT_EQ(r.dec_busy_at, ns(1630));                  // one core cycle before the end
  EXPECT_EQ(r.status_one_before, 0u);
  EXPECT_EQ(r.dec_polls, 1);  // the next read, sampled at 1670 ns, sees READY
  EXPECT_EQ(r.plain, kAesPlain);

  EXPECT_EQ(b.core().done_at(), ns(1640));
  EXPECT_EQ(b.core().busy_time(), ns(50 + 400 + 400));  // key setup 5 cycles + 2 blocks of 40 cycles
  EXPECT_EQ(b.core().operations(), 3u);
  EXPECT_EQ(b.core().ignored_starts(), 0u);
}

TEST(ModelIpCore, StartWhileBusyIsIgnored) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CoreBench b(CoreParams{CoreKind::kAes128, ns(10), 1, 0, 40});
  SlotState busy_state = SlotState::kEmpty;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);  // 40 ns, busy until 440 ns
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);  // 80 ns: ignored
    busy_state = b.slot.state_at(c.now());
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(busy_state, SlotState::kBusy);
  EXPECT_EQ(b.core().ignored_starts(), 1u);
  EXPECT_EQ(b.core().operations(), 1u);
  EXPECT_EQ(b.core().done_at(), ns(440));
  EXPECT_EQ(b.slot.state_at(ns(440) - test::ps(1)), SlotState::kBusy);
  EXPECT_EQ(b.slot.state_at(ns(440)), SlotState::kReady);
}

TEST(ModelIpCore, DesAndTripleDesKnownAnswers) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CoreBench b(CoreParams{CoreKind::kDes, ns(10), 1, 0, /*block_cycles=*/16});
  struct {
    std::vector<std::uint32_t> des, des_back, tdes;
    sc_core::sc_time des_start, des_done, tdes_start, tdes_done;
  } r;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    // Single DES: key 133457799BBCDFF1, plaintext 0123456789ABCDEF.
    write_bank(c, reg::kKey, {0x13345779, 0x9BBCDFF1});
    c.write32(kSlot + reg::kConfig, reg::kConfigEncrypt);
    write_bank(c, reg::kBlock, {0x01234567, 0x89ABCDEF});
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);
    r.des_start = c.now();
    r.des_done = b.core().done_at();
    poll_ready(c);
    r.des = read_bank(c, reg::kResult, 2);
    c.write32(kSlot + reg::kConfig, 0);
    write_bank(c, reg::kBlock, r.des);
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);
    poll_ready(c);
    r.des_back = read_bank(c, reg::kResult, 2);
    // 3DES EDE, three keys (NIST SP 800-67 example): "The qufc" -> A826FD8CE53B855F.
    write_bank(c, reg::kKey, {0x01234567, 0x89ABCDEF, 0x23456789, 0xABCDEF01, 0x456789AB, 0xCDEF0123});
    c.write32(kSlot + reg::kCtrl, reg::kCtrlInit);  // a new key takes effect at INIT
    poll_ready(c);
    c.write32(kSlot + reg::kConfig, reg::kConfigEncrypt | reg::kConfigTriple);
    write_bank(c, reg::kBlock, {0x54686520, 0x71756663});
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);
    r.tdes_start = c.now();
    r.tdes_done = b.core().done_at();
    poll_ready(c);
    r.tdes = read_bank(c, reg::kResult, 2);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(r.des, (std::vector<std::uint32_t>{0x85E81354, 0x0F0AB405}));
  EXPECT_EQ(r.des_back, (std::vector<std::uint32_t>{0x01234567, 0x89ABCDEF}));
  EXPECT_EQ(r.tdes, (std::vector<std::uint32_t>{0xA826FD8C, 0xE53B855F}));
  EXPECT_EQ(r.des_done - r.des_start, ns(160));    // 16 cycles * 10 ns
  EXPECT_EQ(r.tdes_done - r.tdes_start, ns(480));  // 3 passes * 16 cycles * 10 ns
  EXPECT_EQ(b.core().busy_time(), ns(160 + 160 + 480));
}

// Operand banks hold the least significant word first.
struct ModexpRun {
  std::vector<std::uint32_t> result;
  sc_core::sc_time start, done;
};

ModexpRun run_modexp(CoreBench& b, const std::vector<std::uint32_t>& modulus,
                     const std::vector<std::uint32_t>& message, const std::vector<std::uint32_t>& exponent,
                     std::uint32_t exponent_bits) {
  ModexpRun r;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    const auto n = static_cast<unsigned>(4 * modulus.size());
    c.write32(kSlot + reg::kModulusWords, static_cast<std::uint32_t>(modulus.size()));
    c.write32(kSlot + reg::kExponentBits, exponent_bits);
    EXPECT_EQ(c.write(kSlot + reg::kModulus, modulus.data(), n), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(c.write(kSlot + reg::kMessage, message.data(), n), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(c.write(kSlot + reg::kExponent, exponent.data(), static_cast<unsigned>(4 * exponent.size())),
              tlm::TLM_OK_RESPONSE);
    c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);
    r.start = c.now();
    poll_ready(c, 10000);
    r.done = b.core().done_at();
    r.result.resize(modulus.size());
    EXPECT_EQ(c.read(kSlot + reg::kModResult, r.result.data(), n), tlm::TLM_OK_RESPONSE);
  });
  sc_core::sc_start();
  EXPECT_TRUE(th.finished());
  return r;
}

// 64-bit multiplier, 3 overhead cycles per Montgomery multiplication, 20 setup cycles, 10 ns core clock.
CoreParams modexp_params() {
  CoreParams p{CoreKind::kModexp, ns(10), 1, 0, 0};
  p.multiplier_width_bits = 64;
  p.montmul_overhead_cycles = 3;
  p.setup_cycles = 20;
  p.max_operand_bits = 4096;
  return p;
}

TEST(ModelIpCore, ModexpSmallKnownAnswer) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CoreBench b(modexp_params());
  const ModexpRun r = run_modexp(b, {497}, {4}, {13}, 4);
  ASSERT_EQ(r.result.size(), 1u);
  EXPECT_EQ(r.result[0], 445u);  // 4^13 mod 497
  // 1 word = 32 bits -> ceil(32 / 64) = 1 digit; montmul = 2 * 1^2 + 3 = 5 cycles;
  // 20 + (4 + 2) * 5 = 50 cycles * 10 ns = 500 ns.
  EXPECT_EQ(r.done - r.start, ns(500));
  EXPECT_EQ(b.core().busy_time(), ns(500));
}

TEST(ModelIpCore, ModexpUsesOnlyTheLowExponentBits) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CoreBench b(modexp_params());
  const ModexpRun r = run_modexp(b, {497}, {4}, {13}, 3);  // 13 & 0b111 = 5
  ASSERT_EQ(r.result.size(), 1u);
  EXPECT_EQ(r.result[0], 30u);  // 4^5 = 1024 = 2 * 497 + 30
  // 20 + (3 + 2) * 5 = 45 cycles
  EXPECT_EQ(r.done - r.start, ns(450));
}

TEST(ModelIpCore, Modexp1024BitMatchesGmp) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CoreBench b(modexp_params());
  std::mt19937 rng(20240601);
  std::vector<std::uint32_t> modulus(32), message(32), exponent(32);
  for (std::size_t i = 0; i < 32; ++i) {
    modulus[i] = static_cast<std::uint32_t>(rng());
    message[i] = static_cast<std::uint32_t>(rng());
    exponent[i] = static_cast<std::uint32_t>(rng());
  }
  modulus[31] |= 0x80000000u;  // a full 1024-bit odd modulus
  modulus[0] |= 1u;
  message[31] = modulus[31] - 1;  // message < modulus
  exponent[31] |= 0x80000000u;

  const ModexpRun r = run_modexp(b, modulus, message, exponent, 1024);

  // Independent reference: GMP's mpz_powm on the same words.
  mpz_t m, x, e, y;
  mpz_inits(m, x, e, y, nullptr);
  mpz_import(m, 32, -1, 4, 0, 0, modulus.data());
  mpz_import(x, 32, -1, 4, 0, 0, message.data());
  mpz_import(e, 32, -1, 4, 0, 0, exponent.data());
  mpz_powm(y, x, e, m);
  std::vector<std::uint32_t> expected(32, 0);
  std::size_t count = 0;
  mpz_export(expected.data(), &count, -1, 4, 0, 0, y);
  mpz_clears(m, x, e, y, nullptr);
  EXPECT_LE(count, 32u);
  EXPECT_EQ(r.result, expected);

  // 1024 bits / 64 = 16 digits; montmul = 2 * 16^2 + 3 = 515 cycles;
  // 20 + (1024 + 2) * 515 = 528410 cycles * 10 ns = 5284100 ns.
  EXPECT_EQ(r.done - r.start, ns(5284100));
  EXPECT_EQ(b.core().busy_time(), ns(5284100));
}

TEST(ModelIpCore, ModexpCyclesFormula) {
  CoreParams p = modexp_params();
  EXPECT_EQ(modexp_cycles(p, 1024, 1024), 528410u);  // 20 + 1026 * (2 * 16 * 16 + 3)
  EXPECT_EQ(modexp_cycles(p, 1000, 17), 9805u);      // ceil(1000 / 64) = 16 digits: 20 + 19 * 515
  p.multiplier_width_bits = 32;
  p.montmul_overhead_cycles = 0;
  p.setup_cycles = 0;
  EXPECT_EQ(modexp_cycles(p, 2048, 17), 19u * 2 * 64 * 64);  // 64 digits, no overhead
}

// ModExpA7's cycles as its RTL runs them (models/modexp_core.h): the Montgomery product and one CRT half of
// RSA-2048 as hal_modexp2 drives it (a 1024-bit prime, the exponent's 1024 bits, the message unreduced), for
// 2, 4 and 8 processing elements; the figures are those of the RTL's simulation.
TEST(ModelIpCore, ModExpA7CyclesAreThoseOfItsRtl) {
  CoreParams p{CoreKind::kModexp, ns(20), 1, 0, 0};
  p.modexp_architecture = ModexpArchitecture::kModExpA7;
  const std::array<std::pair<std::uint64_t, std::uint64_t>, 3> montmul_and_half{
      {{3789, 3965248}, {2485, 2626040}, {1833, 1956436}}};
  for (unsigned power = 1; power <= 3; ++power) {
    p.systolic_array_power = power;
    EXPECT_EQ(montmul_cycles(p, 1024), montmul_and_half[power - 1].first) << "P = " << power;
    EXPECT_EQ(modexp_cycles(p, 1024, 1024) + montmul_cycles(p, 1024), montmul_and_half[power - 1].second)
        << "P = " << power;
  }
  p.setup_cycles = 1000;  // the core's own Montgomery set-up, when the driver does not give the values
  EXPECT_EQ(modexp_cycles(p, 1024, 1024), 1000 + 1956436 - 1833);
}

TEST(ModelIpCore, ModexpTakesAWideMessageAndPrecomputedMontgomeryValuesAsModExpA7Does) {
  // Cryptech's hal_modexp2 flow for one CRT half: a 1024-bit prime, its Montgomery coefficient and factor
  // written by the driver, the 2048-bit message unreduced (CONFIG.WIDE_MESSAGE: the core reduces it).
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CoreBench b(modexp_params());
  std::mt19937 rng(7);
  std::vector<std::uint32_t> prime(32), message(64), exponent(32);
  for (auto* v : {&prime, &message, &exponent})
    for (auto& w : *v) w = static_cast<std::uint32_t>(rng());
  prime[31] |= 0x80000000u;
  prime[0] |= 1u;
  const crypto::BigInt n = crypto::BigInt::from_words(prime);
  const auto coeff = crypto::montgomery_coefficient(n, 32).to_words(64);  // modulus-sized buffers, as the
  const auto factor = crypto::montgomery_factor(n, 32).to_words(64);      // firmware declares them
  auto wrong_factor = factor;
  wrong_factor[3] ^= 1;
  struct Out {
    std::vector<std::uint32_t> result;
    sc_core::sc_time start, done;
  };
  std::vector<Out> outs;
  std::uint32_t buffer_bits = 0;
  std::uint64_t written = 0;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    buffer_bits = c.read32(kSlot + reg::kBufferBits);
    c.write32(kSlot + reg::kModulusWords, 32);
    write_bank(c, reg::kModulus, prime);
    for (const std::vector<std::uint32_t>* f :
         std::array<const std::vector<std::uint32_t>*, 2>{&factor, &wrong_factor}) {
      write_bank(c, reg::kModulusCoeff, coeff);
      write_bank(c, reg::kMontgomeryFactor, *f);
      c.write32(kSlot + reg::kConfig, reg::kConfigWideMessage | reg::kConfigPrecalc);
      write_bank(c, reg::kMessage, message);
      write_bank(c, reg::kExponent, exponent);
      c.write32(kSlot + reg::kExponentBits, 1024);
      c.write32(kSlot + reg::kCtrl, reg::kCtrlNext);
      Out o;
      o.start = c.now();
      poll_ready(c, 10000);
      o.done = b.core().done_at();
      o.result = read_bank(c, reg::kModResult, 32);
      outs.push_back(o);
      if (written == 0) written = b.core().words_written();
    }
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_EQ(buffer_bits, 4096u);
  const crypto::BigInt x = crypto::BigInt::from_words(message);
  EXPECT_EQ(outs[0].result, crypto::modexp(x, crypto::BigInt::from_words(exponent), n).to_words(32));
  EXPECT_NE(outs[1].result, outs[0].result);  // a wrong Montgomery factor gives a wrong result
  // The precomputed values replace the core's own set-up (20 cycles); the reduction of the wide message is
  // one more Montgomery multiplication: (1024 + 2) * 515 + 515 = 528,905 cycles of 10 ns.
  EXPECT_EQ(outs[0].done - outs[0].start, ns(5289050));
  // Words the driver wrote: 1 + 32 + 64 + 64 + 1 + 64 + 32 + 1 + 1, as counted by the core.
  EXPECT_EQ(written, 260u);
  EXPECT_EQ(b.core().words_read() - b.core().status_reads(), 1u + 2 * 32);
}

TEST(ModelIpCore, RegisterAccessErrors) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CoreBench b(CoreParams{CoreKind::kAes128, ns(10), 1, 0, 40});
  std::vector<tlm::tlm_response_status> s;
  std::vector<std::uint32_t> ids;
  sc_core::sc_time empty_start, empty_end;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    std::uint32_t v = 0;
    s.push_back(c.write(kSlot + reg::kStatus, &v, 4));   // read-only
    s.push_back(c.write(kSlot + reg::kResult, &v, 4));   // read-only bank
    s.push_back(c.read(kSlot + reg::kKey, &v, 4));       // write-only bank
    s.push_back(c.read(kSlot + 0x10, &v, 4));            // no register
    s.push_back(c.write(kSlot + 0x1000, &v, 4));         // no register
    s.push_back(c.read(kSlot + reg::kCtrl + 2, &v, 4));  // misaligned
    empty_start = c.now();
    s.push_back(c.read(kEmptySlot + reg::kStatus, &v, 4));
    empty_end = c.now();
    ids = read_bank(c, reg::kName0, 3);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s[0], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(s[1], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(s[2], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(s[3], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(s[4], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(s[5], tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(s[6], tlm::TLM_GENERIC_ERROR_RESPONSE);
  // The empty slot answers after one fabric cycle: 10 ns issue + (1 + 1) * 10 ns bus + 5 ns.
  EXPECT_EQ(empty_end - empty_start, ns(35));
  EXPECT_EQ(b.empty.rejected_accesses(), 1u);
  EXPECT_EQ(b.empty.state_at(sc_core::SC_ZERO_TIME), SlotState::kEmpty);
  // "aes128" padded with spaces, big-endian in NAME0/NAME1; version 1.0.
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0x61657331, 0x32382020, 0x00010000}));
  EXPECT_EQ(b.core().operations(), 0u);  // a failed access had no side effects
}

TEST(ModelIpCore, DirectAccessTimingWithoutAKernel) {
  // A core is a plain object: drive its registers with explicit arrival times.
  auto core = make_core("des", CoreParams{CoreKind::kDes, ns(10), 2, 0, 16});
  auto access = [&](tlm::tlm_command cmd, std::uint32_t offset, std::uint32_t& value, sc_core::sc_time at) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(offset);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    p.set_data_length(4);
    p.set_streaming_width(4);
    sc_core::sc_time latency = sc_core::SC_ZERO_TIME;
    core->access(p, at, latency);
    EXPECT_EQ(p.get_response_status(), tlm::TLM_OK_RESPONSE);
    return latency;
  };
  std::uint32_t v = reg::kCtrlNext;
  // 2 access cycles * 10 ns: the write takes effect at 100 + 20 = 120 ns; busy for 16 * 10 ns until 280 ns.
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, reg::kCtrl, v, ns(100)), ns(20));
  EXPECT_EQ(core->done_at(), ns(280));
  std::uint32_t status = 0xFF;
  access(tlm::TLM_READ_COMMAND, reg::kStatus, status, ns(260) - test::ps(1));  // sampled 1 ps before 280 ns
  EXPECT_EQ(status, 0u);
  access(tlm::TLM_READ_COMMAND, reg::kStatus, status, ns(260));  // sampled at 280 ns
  EXPECT_EQ(status, reg::kStatusReady | reg::kStatusValid);
  EXPECT_EQ(core->busy_time(), ns(160));
  core->reset();
  access(tlm::TLM_READ_COMMAND, reg::kStatus, status, ns(1000));
  EXPECT_EQ(status, reg::kStatusReady);  // no valid result after a reset
}

// The streaming interface without a kernel: FIPS-197 through STREAM_IN/STREAM_OUT, the core's occupancy, the
// wait for results, FIFO overflow and underflow, and a chunk of a pipelined stream.
TEST(ModelIpCore, StreamWindowsComputeBlocksAndTimeTheCore) {
  auto core =
      make_core("aes", CoreParams{CoreKind::kAes128, ns(10), 1, 0, 40, 32, 0, 0, 4096, /*fifo_words=*/8});
  auto access = [&](tlm::tlm_command cmd, std::uint32_t offset, std::vector<std::uint32_t>& words,
                    sc_core::sc_time at, StreamExtension* stream = nullptr) {
    return test::core_access(*core, cmd, offset, words, at, stream);
  };
  std::vector<std::uint32_t> key = kAesKey, config{reg::kConfigEncrypt}, init{reg::kCtrlInit};
  access(tlm::TLM_WRITE_COMMAND, reg::kKey, key, ns(0));
  access(tlm::TLM_WRITE_COMMAND, reg::kConfig, config, ns(0));
  access(tlm::TLM_WRITE_COMMAND, reg::kCtrl, init, ns(0));
  std::vector<std::uint32_t> fifo(1);
  access(tlm::TLM_READ_COMMAND, reg::kFifoWords, fifo, ns(0));
  EXPECT_EQ(fifo[0], 8u);

  // Two blocks in one write at 1000 ns: 8 words (80 ns of access) but 2 x 40 cycles of compute = 800 ns.
  std::vector<std::uint32_t> two = kAesPlain;
  two.insert(two.end(), kAesPlain.begin(), kAesPlain.end());
  auto [status, latency] = access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, two, ns(1000));
  EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(latency, ns(800));
  EXPECT_EQ(core->done_at(), ns(1800));
  // The FIFO holds 8 words: one more word overflows.
  std::vector<std::uint32_t> extra{1};
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn + 0x10, extra, ns(1000)).first,
            tlm::TLM_BURST_ERROR_RESPONSE);
  std::vector<std::uint32_t> waiting(1);
  access(tlm::TLM_READ_COMMAND, reg::kOutWords, waiting, ns(1700));
  EXPECT_EQ(waiting[0], 0u);  // computed, not ready before 1800 ns
  access(tlm::TLM_READ_COMMAND, reg::kOutWords, waiting, ns(1800));
  EXPECT_EQ(waiting[0], 8u);
  // Reading at 1500 ns waits until 1800 ns, then 4 words of access.
  std::vector<std::uint32_t> out(4);
  std::tie(status, latency) = access(tlm::TLM_READ_COMMAND, reg::kStreamOut, out, ns(1500));
  EXPECT_EQ(latency, ns(300 + 40));
  EXPECT_EQ(out, kAesCipher);
  // Inside a stream the wait is annotated and the access is the core's stage.
  StreamExtension ext;
  std::tie(status, latency) = access(tlm::TLM_READ_COMMAND, reg::kStreamOut, out, ns(1800), &ext);
  EXPECT_EQ(latency, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(ext.occupancy_of(core.get()), ns(40));
  EXPECT_EQ(out, kAesCipher);
  // Nothing left: underflow; writes to the output window and reads of the input window are refused.
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, reg::kStreamOut, out, ns(2000)).first,
            tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, reg::kStreamOut, out, ns(2000)).first,
            tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, reg::kStreamIn, out, ns(2000)).first,
            tlm::TLM_COMMAND_ERROR_RESPONSE);
  std::vector<std::uint32_t> none;  // and so is an access of no words, in either window
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, reg::kStreamOut, none, ns(2000)).first,
            tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, none, ns(2000)).first,
            tlm::TLM_COMMAND_ERROR_RESPONSE);
  // A write while the core computes waits for it: one block at 1000 ns on a core busy until 1800 + 400 ns.
  std::vector<std::uint32_t> one = kAesPlain;
  access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, one, ns(1800));  // busy until 2200 ns
  std::tie(status, latency) = access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, one, ns(2000));
  EXPECT_EQ(latency, ns(200 + 400));
  EXPECT_EQ(core->operations(), 5u);  // INIT and four blocks
}

// What streams spend on the core rather than on moving their data: its computation beyond the chunk's slowest
// other stage, and waits for it; plain register accesses (a CPU's) are not counted.
TEST(ModelIpCore, StreamWaitTimeIsWhatTheCoreAddsToAStream) {
  auto core =
      make_core("aes", CoreParams{CoreKind::kAes128, ns(10), 1, 0, 40, 32, 0, 0, 4096, /*fifo_words=*/16});
  auto access = [&](tlm::tlm_command cmd, std::uint32_t offset, std::vector<std::uint32_t>& words,
                    sc_core::sc_time at, StreamExtension* stream) {
    const auto [status, latency] = test::core_access(*core, cmd, offset, words, at, stream);
    EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
    return latency;
  };
  std::vector<std::uint32_t> key = kAesKey, config{reg::kConfigEncrypt}, init{reg::kCtrlInit};
  access(tlm::TLM_WRITE_COMMAND, reg::kKey, key, ns(0), nullptr);
  access(tlm::TLM_WRITE_COMMAND, reg::kConfig, config, ns(0), nullptr);
  access(tlm::TLM_WRITE_COMMAND, reg::kCtrl, init, ns(0), nullptr);
  std::vector<std::uint32_t> two = kAesPlain;
  two.insert(two.end(), kAesPlain.begin(), kAesPlain.end());

  // Two blocks (800 ns of compute, 80 ns of access) in a chunk whose slowest other stage takes 300 ns.
  const int bus = 0;
  StreamExtension in;
  in.add(&bus, "bus", ns(300));
  access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, two, ns(1000), &in);
  EXPECT_EQ(core->stream_wait_time(), ns(800 - 300));
  // The results (ready at 1800 ns) read at 1500 ns: 300 ns of waiting.
  std::vector<std::uint32_t> out(8);
  StreamExtension drain;
  access(tlm::TLM_READ_COMMAND, reg::kStreamOut, out, ns(1500), &drain);
  EXPECT_EQ(core->stream_wait_time(), ns(500 + 300));
  // A chunk slower than the computation elsewhere adds nothing.
  StreamExtension slow;
  slow.add(&bus, "bus", ns(2000));
  access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, two, ns(2000), &slow);
  EXPECT_EQ(core->stream_wait_time(), ns(800));
  // Outside a stream, waiting for the core is the accessor's latency, not the stream's.
  access(tlm::TLM_READ_COMMAND, reg::kStreamOut, out, ns(2000), nullptr);
  EXPECT_EQ(core->stream_wait_time(), ns(800));
}

}  // namespace
}  // namespace rsoc::models
