// The desrnd extension unit (DesRoundUnit), DES/3DES routines on it (DesOnDesrnd, TripleDesOnDesrnd) and
// their verification: known answers, intermediate round values, operand checking, instruction mixes, and
// random pairs against OpenSSL.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/crypto/des.h"
#include "models/crypto/des_on_desrnd.h"
#include "models/crypto/des_round_unit.h"
#include "models/crypto/desrnd_verify.h"
#include "tests/crypto/crypto_test_support.h"
#include "tools/openssl_des_reference.h"

namespace rsoc::crypto {
namespace {

using test::kExampleCipher;
using test::kExampleKey;
using test::kExamplePlain;

std::uint32_t hi(std::uint64_t x) {
  return static_cast<std::uint32_t>(x >> 32);
}
std::uint32_t lo(std::uint64_t x) {
  return static_cast<std::uint32_t>(x);
}

std::vector<DesVector> sp800_17() {
  return load_des_vectors(test::data_file("des_sp800_17_tables.txt"));
}

// Loads key (C0, D0 from PC-1) and block into `unit`.
void load(DesRoundUnit& unit, std::uint64_t key, std::uint64_t block) {
  const std::uint64_t cd = Des::pc1(key);
  unit.set_c(static_cast<std::uint32_t>(cd >> 28));
  unit.set_d(static_cast<std::uint32_t>(cd));
  unit.set_l(hi(block));
  unit.set_r(lo(block));
}

std::uint32_t op(bool decrypt, unsigned round, bool ip = false, bool fp = false) {
  return DesrndOperand::encode(decrypt, round, ip, fp);
}

// --- known answers -----------------------------------------------------------------------------------------

TEST(CryptoDesrnd, FipsWorkedExampleBothConfigurationsBothDirections) {
  for (unsigned n : {1U, 2U}) {
    DesRoundUnit unit(n);
    DesOnDesrnd des(unit, kExampleKey);
    EXPECT_EQ(des.encrypt(kExamplePlain), kExampleCipher) << n << " round(s)/instruction";
    EXPECT_EQ(des.decrypt(kExampleCipher), kExamplePlain) << n << " round(s)/instruction";
  }
}

TEST(CryptoDesrnd, Sp800_17TablesThroughTheUnit) {
  const auto rows = sp800_17();
  ASSERT_EQ(rows.size(), 120U);
  int t1 = 0, t2 = 0;
  for (const auto& r : rows) (r.table == "T1" ? t1 : t2)++;
  EXPECT_EQ(t1, 64);
  EXPECT_EQ(t2, 56);
  for (unsigned n : {1U, 2U}) {
    DesRoundUnit unit(n);
    for (const auto& r : rows) {
      DesOnDesrnd des(unit, r.key);
      EXPECT_EQ(des.encrypt(r.plaintext), r.ciphertext) << r.table << " #" << r.index << ", " << n << " rpi";
      EXPECT_EQ(des.decrypt(r.ciphertext), r.plaintext) << r.table << " #" << r.index << ", " << n << " rpi";
      TripleDesOnDesrnd tdes(unit, r.key, r.key, r.key);
      EXPECT_EQ(tdes.encrypt(r.plaintext), r.ciphertext) << r.table << " #" << r.index << ", " << n << " rpi";
      EXPECT_EQ(tdes.decrypt(r.ciphertext), r.plaintext) << r.table << " #" << r.index << ", " << n << " rpi";
    }
  }
  // The library's vector check (what `rsoc verify des --vectors` runs) agrees and counts every block.
  const auto result = verify_des_vectors_on_desrnd(rows, {1, 2});
  EXPECT_TRUE(result.ok()) << describe(*result.mismatch);
  EXPECT_EQ(result.cases, 120U);
  EXPECT_EQ(result.comparisons, 120U * 8);
  EXPECT_EQ(result.variants.size(), 8U);
}

TEST(CryptoDesrnd, TripleDesSp800_67ExampleAndEqualsTripleDes) {
  const std::uint64_t k1 = 0x0123456789ABCDEF, k2 = 0x23456789ABCDEF01, k3 = 0x456789ABCDEF0123;
  const std::uint64_t pt[3] = {0x5468652071756663, 0x6B2062726F776E20, 0x666F78206A756D70};
  const std::uint64_t ct[3] = {0xA826FD8CE53B855F, 0xCCE21C8112256FE6, 0x68D5C05DD9B6B900};
  std::mt19937_64 rng(0x3de5d);
  for (unsigned n : {1U, 2U}) {
    DesRoundUnit unit(n);
    TripleDesOnDesrnd tdes(unit, k1, k2, k3);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(tdes.encrypt(pt[i]), ct[i]) << "block " << i << ", " << n << " rpi";
      EXPECT_EQ(tdes.decrypt(ct[i]), pt[i]) << "block " << i << ", " << n << " rpi";
    }
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t a = rng(), b = rng(), c = rng(), x = rng();
      TripleDesOnDesrnd on_unit(unit, a, b, c);
      const TripleDes table(a, b, c);
      ASSERT_EQ(on_unit.encrypt(x), table.encrypt(x)) << "iteration " << i << ", " << n << " rpi";
      ASSERT_EQ(on_unit.decrypt(x), table.decrypt(x)) << "iteration " << i << ", " << n << " rpi";
    }
  }
}

// --- round-level semantics ---------------------------------------------------------------------------------

// The first two rounds of the FIPS example, against the well-known walkthrough values and against a direct
// composition of the FIPS 46-3 steps.
TEST(CryptoDesrnd, IntermediateValuesOfTheFirstRounds) {
  DesRoundUnit unit(1);
  load(unit, kExampleKey, kExamplePlain);
  unit.desrnd(op(false, 0, true));
  EXPECT_EQ(unit.c(), 0xE19955FU);   // C1
  EXPECT_EQ(unit.d(), 0xAACCF1EU);   // D1
  EXPECT_EQ(unit.l(), 0xF0AAF0AAU);  // L1 = R0
  EXPECT_EQ(unit.r(), 0xEF4A6544U);  // R1
  unit.desrnd(op(false, 1));
  EXPECT_EQ(unit.c(), 0xC332ABFU);   // C2
  EXPECT_EQ(unit.d(), 0x5599E3DU);   // D2
  EXPECT_EQ(unit.l(), 0xEF4A6544U);  // L2 = R1
  EXPECT_EQ(unit.r(), 0xCC017709U);  // R2

  // Direct composition: IP, then R_i = L_{i-1} xor f(R_{i-1}, K_i) with K_i from the key schedule.
  const auto k = Des::key_schedule(kExampleKey);
  const std::uint64_t x = Des::initial_permutation(kExamplePlain);
  const std::uint32_t r1 = hi(x) ^ Des::feistel(lo(x), k[0]);
  const std::uint32_t r2 = lo(x) ^ Des::feistel(r1, k[1]);
  EXPECT_EQ(unit.l(), r1);
  EXPECT_EQ(unit.r(), r2);
  EXPECT_EQ(Des::pc2(unit.c(), unit.d()), k[1]);

  // A two-round unit does the same in one instruction.
  DesRoundUnit two(2);
  load(two, kExampleKey, kExamplePlain);
  two.desrnd(op(false, 0, true));
  EXPECT_EQ(two.c(), unit.c());
  EXPECT_EQ(two.d(), unit.d());
  EXPECT_EQ(two.l(), unit.l());
  EXPECT_EQ(two.r(), unit.r());
  EXPECT_EQ(two.instructions(), 1U);
  EXPECT_EQ(unit.instructions(), 2U);
}

// Without FP the pass ends on the preoutput R16‖L16 (round 16 leaves the halves unswapped); FP turns it into
// the ciphertext. Decryption starts from C0, D0 with K16 and rotates right after each round.
TEST(CryptoDesrnd, PassEndsOnThePreoutputAndDecryptionRotatesRight) {
  for (unsigned n : {1U, 2U}) {
    DesRoundUnit unit(n);
    load(unit, kExampleKey, kExamplePlain);
    for (unsigned round = 0; round < 16; round += n) unit.desrnd(op(false, round, round == 0));
    EXPECT_EQ(unit.l(), 0x0A4CD995U) << n;  // R16 of the walkthrough
    EXPECT_EQ(unit.r(), 0x43423234U) << n;  // L16
    EXPECT_EQ(Des::final_permutation((std::uint64_t{unit.l()} << 32) | unit.r()), kExampleCipher);
    const std::uint64_t cd = Des::pc1(kExampleKey);
    EXPECT_EQ(unit.c(), cd >> 28) << "C16 = C0";
    EXPECT_EQ(unit.d(), cd & DesRoundUnit::kHalfKeyMask) << "D16 = D0";
  }
  DesRoundUnit unit(1);
  load(unit, kExampleKey, kExampleCipher);
  const std::uint64_t cd = Des::pc1(kExampleKey);
  unit.desrnd(op(true, 0, true));
  const auto k = Des::key_schedule(kExampleKey);
  const std::uint64_t x = Des::initial_permutation(kExampleCipher);
  EXPECT_EQ(unit.l(), lo(x));
  EXPECT_EQ(unit.r(), hi(x) ^ Des::feistel(lo(x), k[15]));  // the first decryption round uses K16
  EXPECT_EQ(unit.c(), Des::rotate28(static_cast<std::uint32_t>(cd >> 28), -1));  // C15
  EXPECT_EQ(Des::pc2(unit.c(), unit.d()), k[14]);                                // ready for K15
}

// A pass leaves C, D at C0, D0 in both directions, so a second block needs only L and R.
TEST(CryptoDesrnd, KeyIsBackAfterEveryPass) {
  std::mt19937_64 rng(0xc0d0);
  for (unsigned n : {1U, 2U}) {
    for (bool decrypt : {false, true}) {
      DesRoundUnit unit(n);
      const std::uint64_t key = rng();
      const Des des(key);
      load(unit, key, rng());
      for (int block = 0; block < 20; ++block) {
        const std::uint64_t x = rng();
        unit.set_l(hi(x));
        unit.set_r(lo(x));
        for (unsigned round = 0; round < 16; round += n)
          unit.desrnd(op(decrypt, round, round == 0, round + n == 16));
        const std::uint64_t got = (std::uint64_t{unit.l()} << 32) | unit.r();
        ASSERT_EQ(got, decrypt ? des.decrypt(x) : des.encrypt(x)) << "block " << block;
      }
    }
  }
}

TEST(CryptoDesrnd, CoreWritesMaskTheKeyHalvesTo28Bits) {
  DesRoundUnit unit;
  unit.set_c(0xFFFFFFFF);
  unit.set_d(0xA1234567);
  unit.set_l(0xFFFFFFFF);
  unit.set_r(0x80000001);
  EXPECT_EQ(unit.c(), 0x0FFFFFFFU);
  EXPECT_EQ(unit.d(), 0x01234567U);
  EXPECT_EQ(unit.l(), 0xFFFFFFFFU);
  EXPECT_EQ(unit.r(), 0x80000001U);
  unit.write(DesrndRegister::c, 0xF0000001);
  unit.write(DesrndRegister::d, 0xE0000002);
  unit.write(DesrndRegister::l, 0xF0000003);
  unit.write(DesrndRegister::r, 0xF0000004);
  EXPECT_EQ(unit.read(DesrndRegister::c), 0x1U);
  EXPECT_EQ(unit.read(DesrndRegister::d), 0x2U);
  EXPECT_EQ(unit.read(DesrndRegister::l), 0xF0000003U);
  EXPECT_EQ(unit.read(DesrndRegister::r), 0xF0000004U);
  EXPECT_EQ(unit.instructions(), 0U);
}

TEST(CryptoDesrnd, OperandEncoding) {
  EXPECT_EQ(op(false, 0), 0U);
  EXPECT_EQ(op(true, 0), 1U);
  EXPECT_EQ(op(false, 15), 15U << 1);
  EXPECT_EQ(op(false, 0, true), 1U << 5);
  EXPECT_EQ(op(true, 15, false, true), (1U << 6) | (15U << 1) | 1U);
  EXPECT_THROW(op(false, 16), DesrndOperandError);
}

TEST(CryptoDesrnd, BadOperandsRaiseAndChangeNothing) {
  struct Case {
    unsigned rounds_per_instruction;
    std::uint32_t operand;
    const char* message;
  };
  const Case cases[] = {
      {1, 1U << 7, "reserved operand bits"},
      {1, 0x80000000U, "reserved operand bits"},
      {2, op(false, 1), "not a multiple of 2"},
      {2, op(true, 15, false, true), "not a multiple of 2"},
      {1, op(false, 1, true), "IP on round 1"},
      {2, op(false, 2, true), "IP on round 2"},
      {1, op(false, 14, false, true), "FP on an instruction that does not end the pass"},
      {2, op(false, 12, false, true), "FP on an instruction that does not end the pass"},
      {1, op(false, 0, false, true), "FP on an instruction that does not end the pass"},
  };
  for (const Case& c : cases) {
    DesRoundUnit unit(c.rounds_per_instruction);
    load(unit, kExampleKey, kExamplePlain);
    const std::uint32_t before[4] = {unit.c(), unit.d(), unit.l(), unit.r()};
    try {
      unit.desrnd(c.operand);
      ADD_FAILURE() << "accepted operand " << c.operand;
    } catch (const DesrndOperandError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
    EXPECT_EQ(unit.c(), before[0]);
    EXPECT_EQ(unit.d(), before[1]);
    EXPECT_EQ(unit.l(), before[2]);
    EXPECT_EQ(unit.r(), before[3]);
    EXPECT_EQ(unit.instructions(), 0U) << "an illegal instruction is not counted";
  }
  // The edges that are legal.
  DesRoundUnit one(1), two(2);
  EXPECT_NO_THROW(one.desrnd(op(false, 15, false, true)));
  EXPECT_NO_THROW(two.desrnd(op(true, 14, false, true)));
  EXPECT_NO_THROW(two.desrnd(op(true, 0, true)));
}

TEST(CryptoDesrnd, RoundsPerInstructionIsOneOrTwo) {
  EXPECT_THROW(DesRoundUnit(0), std::invalid_argument);
  EXPECT_THROW(DesRoundUnit(3), std::invalid_argument);
  EXPECT_THROW(DesRoundUnit(16), std::invalid_argument);
  EXPECT_EQ(DesRoundUnit(1).instructions_per_pass(), 16U);
  EXPECT_EQ(DesRoundUnit(2).instructions_per_pass(), 8U);
  EXPECT_EQ(DesRoundUnit().rounds_per_instruction(), 1U);
}

TEST(CryptoDesrnd, InstructionCounterCountsAndResets) {
  DesRoundUnit unit(2);
  DesOnDesrnd des(unit, kExampleKey);
  des.encrypt(kExamplePlain);
  EXPECT_EQ(unit.instructions(), 8U);
  des.decrypt(kExampleCipher);
  EXPECT_EQ(unit.instructions(), 16U);
  unit.reset_instructions();
  EXPECT_EQ(unit.instructions(), 0U);
  unit.desrnd(op(false, 0));
  EXPECT_EQ(unit.instructions(), 1U);
}

// --- instruction mixes -------------------------------------------------------------------------------------

// Per block: DES loads C, D, L (3 extension loads) and R through a core register (load + move), issues 16/n
// desrnd and stores L, R (2 extension reads). 3DES adds, before passes 2 and 3, C by an extension load and D
// through a core register.
TEST(CryptoDesrnd, InstructionMixPerBlock) {
  struct Expected {
    bool triple;
    unsigned n;
    DesrndMix mix;
    std::uint64_t total;
  };
  const Expected table[] = {
      {false, 1, {3, 1, 1, 16, 2}, 23},
      {false, 2, {3, 1, 1, 8, 2}, 15},
      {true, 1, {5, 3, 3, 48, 2}, 61},
      {true, 2, {5, 3, 3, 24, 2}, 37},
  };
  std::mt19937_64 rng(0x31c);
  for (const Expected& e : table) {
    SCOPED_TRACE(std::string(e.triple ? "3DES" : "DES") + ", " + std::to_string(e.n) + " rpi");
    DesRoundUnit unit(e.n);
    DesOnDesrnd des(unit, rng());
    TripleDesOnDesrnd tdes(unit, rng(), rng(), rng());
    for (bool decrypt : {false, true}) {
      unit.reset_instructions();
      DesrndMix mix;
      if (e.triple) {
        tdes.reset_mix();
        decrypt ? tdes.decrypt(rng()) : tdes.encrypt(rng());
        mix = tdes.mix();
      } else {
        des.reset_mix();
        decrypt ? des.decrypt(rng()) : des.encrypt(rng());
        mix = des.mix();
      }
      EXPECT_EQ(mix, e.mix) << (decrypt ? "decrypt" : "encrypt");
      EXPECT_EQ(mix.instructions(), e.total);
      EXPECT_EQ(mix.desrnd, unit.instructions()) << "the routine's count is what the unit executed";
    }
    EXPECT_EQ(e.triple ? triple_des_block_mix(e.n) : des_block_mix(e.n), e.mix);
  }
  // The mix accumulates over blocks.
  DesRoundUnit unit(1);
  DesOnDesrnd des(unit, kExampleKey);
  for (int i = 0; i < 10; ++i) des.encrypt(kExamplePlain);
  DesrndMix ten;
  for (int i = 0; i < 10; ++i) ten += des_block_mix(1);
  EXPECT_EQ(des.mix(), ten);
  EXPECT_EQ(des.mix().instructions(), 230U);
}

// --- verification ------------------------------------------------------------------------------------------

// One million random key/data pairs against OpenSSL in four test cases (CTest runs them in parallel); every
// pair goes through DES and 3DES, encryption and decryption, on both unit configurations.
constexpr std::uint64_t kPairsPerCase = 250000;

void verify_against_openssl(std::uint64_t seed) {
  tools::OpenSslDesReference openssl;
  std::uint64_t last_done = 0, calls = 0;
  const auto result = verify_des_on_desrnd({kPairsPerCase, seed, {1, 2}}, openssl,
                                           [&](std::uint64_t done, std::uint64_t total) {
                                             EXPECT_EQ(total, kPairsPerCase);
                                             EXPECT_GT(done, last_done);
                                             last_done = done;
                                             ++calls;
                                           });
  ASSERT_TRUE(result.ok()) << describe(*result.mismatch);
  EXPECT_EQ(result.cases, kPairsPerCase);
  EXPECT_EQ(result.comparisons, kPairsPerCase * 8);
  EXPECT_EQ(last_done, kPairsPerCase);
  EXPECT_EQ(calls, (kPairsPerCase + 1023) / 1024);
}

TEST(CryptoDesrndVsOpenSsl, RandomPairs1of4) {
  verify_against_openssl(0xde5'0001);
}
TEST(CryptoDesrndVsOpenSsl, RandomPairs2of4) {
  verify_against_openssl(0xde5'0002);
}
TEST(CryptoDesrndVsOpenSsl, RandomPairs3of4) {
  verify_against_openssl(0xde5'0003);
}
TEST(CryptoDesrndVsOpenSsl, RandomPairs4of4) {
  verify_against_openssl(0xde5'0004);
}

TEST(CryptoDesrndVsOpenSsl, ReferenceAdapterMatchesKnownAnswers) {
  tools::OpenSslDesReference openssl;
  EXPECT_EQ(openssl.des(true, kExampleKey, kExamplePlain), kExampleCipher);
  EXPECT_EQ(openssl.des(false, kExampleKey, kExampleCipher), kExamplePlain);
  EXPECT_EQ(openssl.des(true, kExampleKey ^ 0x0101010101010101, kExamplePlain), kExampleCipher)
      << "parity bits are ignored";
  EXPECT_EQ(openssl.triple_des(true, 0x0123456789ABCDEF, 0x23456789ABCDEF01, 0x456789ABCDEF0123,
                               0x5468652071756663),
            0xA826FD8CE53B855FU);
  EXPECT_EQ(openssl.triple_des(false, 0x0123456789ABCDEF, 0x23456789ABCDEF01, 0x456789ABCDEF0123,
                               0xA826FD8CE53B855F),
            0x5468652071756663U);
}

TEST(CryptoDesrndVerify, AgreesWithTheTableDrivenDes) {
  TableDesReference table;
  const auto result = verify_des_on_desrnd({20000, 46, {1, 2}}, table);
  ASSERT_TRUE(result.ok()) << describe(*result.mismatch);
  EXPECT_EQ(result.cases, 20000U);
  const std::vector<std::string> variants = {
      "DES encrypt, 1 round/instruction",   "DES decrypt, 1 round/instruction",
      "3DES encrypt, 1 round/instruction",  "3DES decrypt, 1 round/instruction",
      "DES encrypt, 2 rounds/instruction",  "DES decrypt, 2 rounds/instruction",
      "3DES encrypt, 2 rounds/instruction", "3DES decrypt, 2 rounds/instruction"};
  EXPECT_EQ(result.variants, variants);
  const auto one = verify_des_on_desrnd({10, 46, {2}}, table);
  EXPECT_EQ(one.variants.size(), 4U);
  EXPECT_EQ(one.comparisons, 40U);
}

// A reference that is wrong on one chosen block: the verification stops there and reports it.
class BrokenReference : public DesReference {
 public:
  BrokenReference(bool triple, bool encrypt, std::uint64_t broken_pair)
      : triple_(triple), encrypt_(encrypt), broken_pair_(broken_pair) {}
  std::string name() const override { return "broken"; }
  std::uint64_t des(bool encrypt, std::uint64_t key, std::uint64_t block) override {
    const std::uint64_t v = table_.des(encrypt, key, block);
    return spoil(false, encrypt, v);
  }
  std::uint64_t triple_des(bool encrypt, std::uint64_t k1, std::uint64_t k2, std::uint64_t k3,
                           std::uint64_t block) override {
    const std::uint64_t v = table_.triple_des(encrypt, k1, k2, k3, block);
    const std::uint64_t out = spoil(true, encrypt, v);
    if (!encrypt) ++pair_;  // the last reference call of a pair
    return out;
  }
  std::uint64_t expected() const { return expected_; }

 private:
  std::uint64_t spoil(bool triple, bool encrypt, std::uint64_t v) {
    if (pair_ != broken_pair_ || triple != triple_ || encrypt != encrypt_) return v;
    expected_ = v ^ 0x0000000100000000;
    return expected_;
  }
  TableDesReference table_;
  bool triple_, encrypt_;
  std::uint64_t broken_pair_, pair_ = 0, expected_ = 0;
};

TEST(CryptoDesrndVerify, ReportsTheFirstMismatchWithKeyDataExpectedAndGot) {
  BrokenReference broken(true, false, 7);
  std::vector<std::uint64_t> progress;
  const auto result = verify_des_on_desrnd(
      {5000, 99, {1, 2}}, broken, [&](std::uint64_t done, std::uint64_t) { progress.push_back(done); });
  ASSERT_FALSE(result.ok());
  const DesrndMismatch& m = *result.mismatch;
  EXPECT_EQ(m.variant, "3DES decrypt, 1 round/instruction");
  EXPECT_EQ(m.where, "pair 7");
  EXPECT_EQ(result.cases, 7U);
  EXPECT_EQ(result.comparisons, 7U * 8 + 4);
  // The pair as the generator draws it: k1, k2, k3, then the block.
  std::mt19937_64 rng(99);
  for (int skip = 0; skip < 7 * 4; ++skip) rng();
  const std::uint64_t k1 = rng(), k2 = rng(), k3 = rng(), x = rng();
  EXPECT_EQ(m.keys, (std::vector<std::uint64_t>{k1, k2, k3}));
  EXPECT_EQ(m.data, x);
  EXPECT_EQ(m.expected, broken.expected());
  EXPECT_EQ(m.got, TripleDes(k1, k2, k3).decrypt(x));
  char line[256];
  std::snprintf(line, sizeof line,
                "3DES decrypt, 1 round/instruction mismatch at pair 7: key %016llX %016llX %016llX, data "
                "%016llX, expected %016llX, got %016llX",
                static_cast<unsigned long long>(k1), static_cast<unsigned long long>(k2),
                static_cast<unsigned long long>(k3), static_cast<unsigned long long>(x),
                static_cast<unsigned long long>(m.expected), static_cast<unsigned long long>(m.got));
  EXPECT_EQ(describe(m), line);
  EXPECT_EQ(progress, (std::vector<std::uint64_t>{7})) << "progress stops at the mismatch";

  // A single-DES mismatch names one key.
  BrokenReference des_broken(false, true, 0);
  const auto first = verify_des_on_desrnd({3, 1, {2}}, des_broken);
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.mismatch->variant, "DES encrypt, 2 rounds/instruction");
  EXPECT_EQ(first.mismatch->keys.size(), 1U);
  EXPECT_EQ(first.cases, 0U);
}

TEST(CryptoDesrndVerify, SameSeedSamePairs) {
  // Which pair a data-dependent fault hits depends only on the seed.
  class Picky : public TableDesReference {
   public:
    std::uint64_t des(bool encrypt, std::uint64_t key, std::uint64_t block) override {
      const std::uint64_t v = TableDesReference::des(encrypt, key, block);
      return (block & 0x3f) == 0 ? ~v : v;
    }
  };
  Picky a, b;
  const auto ra = verify_des_on_desrnd({100000, 5, {1}}, a);
  const auto rb = verify_des_on_desrnd({100000, 5, {1}}, b);
  ASSERT_FALSE(ra.ok());
  ASSERT_FALSE(rb.ok());
  EXPECT_EQ(ra.mismatch->where, rb.mismatch->where);
  EXPECT_EQ(ra.mismatch->data, rb.mismatch->data);
  EXPECT_EQ(ra.mismatch->data & 0x3f, 0U);
  const auto rc = verify_des_on_desrnd({100000, 6, {1}}, a);
  ASSERT_FALSE(rc.ok());
  EXPECT_NE(rc.mismatch->data, ra.mismatch->data);
}

TEST(CryptoDesrndVerify, RejectsBadOptions) {
  TableDesReference table;
  EXPECT_THROW(verify_des_on_desrnd({0, 1, {1, 2}}, table), std::invalid_argument);
  EXPECT_THROW(verify_des_on_desrnd({10, 1, {3}}, table), std::invalid_argument);
  EXPECT_THROW(verify_des_on_desrnd({10, 1, {}}, table), std::invalid_argument);
  EXPECT_THROW(verify_des_vectors_on_desrnd({}, {0}), std::invalid_argument);
}

TEST(CryptoDesrndVerify, VectorFileErrorsNameTheFileAndLine) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string missing = (dir / "rsoc_no_such_vectors.txt").string();
  try {
    load_des_vectors(missing);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  const std::string bad = (dir / ("rsoc_bad_vectors_" + std::to_string(::getpid()) + ".txt")).string();
  {
    std::ofstream out(bad);
    out << "# comment\nT1 1 0101010101010101 8000000000000000 95F8A5E5DD31D900\nT1 2 01010101 zz 00\n";
  }
  try {
    load_des_vectors(bad);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad + ":3:"), std::string::npos) << e.what();
  }
  {
    std::ofstream out(bad);
    out << "T1 1 0101010101010101 8000000000000000 95F8A5E5DD31D900 00\n";
  }
  EXPECT_THROW(load_des_vectors(bad), std::runtime_error) << "a sixth field";
  {
    std::ofstream out(bad);
    out << "# only comments\n\r\n";
  }
  EXPECT_THROW(load_des_vectors(bad), std::runtime_error);
  {
    std::ofstream out(bad);
    out << "T1 1 0101010101010101 8000000000000000 95F8A5E5DD31D900\r\n";
  }
  EXPECT_EQ(load_des_vectors(bad).at(0).ciphertext, 0x95F8A5E5DD31D900U) << "CRLF line ends";
  std::filesystem::remove(bad);
  // A wrong expected value in a vector is reported as a mismatch with the vector's name.
  std::vector<DesVector> rows = {{"T1", 1, 0x0101010101010101, 0x8000000000000000, 0x95F8A5E5DD31D901}};
  const auto result = verify_des_vectors_on_desrnd(rows, {1});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.mismatch->where, "SP 800-17 T1 #1");
  EXPECT_EQ(result.mismatch->got, 0x95F8A5E5DD31D900U);
}

}  // namespace
}  // namespace rsoc::crypto
