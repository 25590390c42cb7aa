// The RSA work counted as OpenSSL 0.9.8 does it: the steps of both exponentiations, replayed on real numbers,
// reach the power; the counts of the public exponent 65537 and of 2048-bit private exponents by hand; the
// sign and the verify of RSA-4096 in units.
#include "runtime/rsa_work.h"

#include <gtest/gtest.h>

#include <random>

using namespace rsoc;
using crypto::BigInt;
using runtime::ExpReplay;
using runtime::ExpWork;

namespace {

BigInt random_bits(std::mt19937_64& rng, unsigned bits) {
  BigInt v;
  for (unsigned i = 0; i < bits; ++i)
    if (rng() & 1) mpz_setbit(v.get(), i);
  if (bits) mpz_setbit(v.get(), bits - 1);
  return v;
}

}  // namespace

TEST(RsaWork, BothExponentiationsReachThePowerAtEveryWindowSize) {
  // Lengths on both sides of every window threshold, so that every window size (1, 3, 4, 5, 6) is walked.
  std::mt19937_64 rng(7);
  const BigInt modulus = random_bits(rng, 1024) + BigInt(1);  // odd or not: the replay is plain arithmetic
  for (unsigned bits : {1u, 2u, 17u, 22u, 23u, 24u, 79u, 80u, 89u, 90u, 239u, 240u, 306u, 307u, 671u, 672u,
                        937u, 938u, 1500u}) {
    const BigInt e = random_bits(rng, bits);
    ExpReplay sliding{random_bits(rng, 1000), modulus, {}};
    ExpReplay fixed = sliding;
    runtime::mod_exp_mont_work(e, &sliding);
    runtime::mod_exp_mont_consttime_work(e, &fixed);
    const BigInt expect = crypto::modexp(sliding.base, e, modulus);
    EXPECT_EQ(sliding.result, expect) << bits << " bits";
    EXPECT_EQ(fixed.result, expect) << bits << " bits";
  }
}

TEST(RsaWork, ThePublicExponent65537Takes16SquaringsAnd2Multiplications) {
  // 65537 = 2^16 + 1, 17 bits: window 1. The top bit multiplies the converted 1 by the base, 15 zero bits and
  // the last bit square, the last bit multiplies; the base and 1 go into the domain, the result out of it.
  const ExpWork w = runtime::mod_exp_mont_work(BigInt(65537));
  EXPECT_EQ(w, (ExpWork{16, 2, 1, 2}));
  EXPECT_DOUBLE_EQ(w.montgomery_multiplications(), 20);
  // 2^24 + 1, 25 bits: window 3, so a table of the odd powers below 8 (a squaring and 3 products) first.
  EXPECT_EQ(runtime::mod_exp_mont_work(BigInt((1u << 24) + 1)), (ExpWork{25, 5, 1, 2}));
}

TEST(RsaWork, APrivateExponentOf2048BitsTakesFixedWindowsOfSix) {
  // 2048 bits: window 6, a table of 64 powers (62 products), the top 2 bits pick the first power, then 341
  // windows of 6 squarings and a product. Any 2048-bit exponent: the count does not depend on its value.
  std::mt19937_64 rng(3);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(runtime::mod_exp_mont_consttime_work(random_bits(rng, 2048)), (ExpWork{2046, 62 + 341, 1, 2}));
}

TEST(RsaWork, ARsa4096VerifyIsAFixedFractionOfASign) {
  // Verify: 20 Montgomery multiplications at 4096 bits = 80 units. Sign: two exponentiations of 2451 at 2048
  // bits (4902), the result check (80), blinding (4 products at 4096 bits and a fresh factor every 32 signs:
  // 16 + 80 / 32) and the recombination (2.5).
  EXPECT_DOUBLE_EQ(*runtime::software_work(runtime::Functionality::kRsaVerify4096), 80);
  const runtime::RsaPrivateWork sign = runtime::rsa_private_work(4096, BigInt(65537));
  EXPECT_DOUBLE_EQ(sign.exponentiations, 4902);
  EXPECT_DOUBLE_EQ(sign.result_check, 80);
  EXPECT_DOUBLE_EQ(sign.blinding, 18.5);
  EXPECT_DOUBLE_EQ(sign.recombination, 2.5);
  EXPECT_DOUBLE_EQ(*runtime::software_work(runtime::Functionality::kRsaCrt4096), 5003);
  EXPECT_FALSE(runtime::software_work(runtime::Functionality::kModexp4096).has_value());
}
