// BigInt conversions, modular exponentiation and the RSA-2048 known-answer vector.
#include <gtest/gtest.h>

#include <stdexcept>

#include "models/crypto/modexp.h"
#include "tests/crypto/crypto_test_support.h"

namespace rsoc::crypto {
namespace {

BigInt H(const char* hex) {
  return BigInt::from_hex(hex);
}

TEST(CryptoBigInt, HexRoundTrip) {
  EXPECT_EQ(H("0").to_hex(), "0");
  EXPECT_EQ(H("0x00ff").to_hex(), "ff");
  EXPECT_EQ(H("DeadBeef").to_hex(), "deadbeef");
  EXPECT_EQ(H("-10").to_hex(), "-10");
  EXPECT_EQ(H("10"), BigInt(16));
  EXPECT_EQ(H("ffffffffffffffff"), BigInt(0xffffffffffffffffULL));
  const char* big = "1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0123456789abcdef";
  EXPECT_EQ(H(big).to_hex(), big);
  EXPECT_THROW(H(""), std::invalid_argument);
  EXPECT_THROW(H("0x"), std::invalid_argument);
  EXPECT_THROW(H("12 34"), std::invalid_argument);
  EXPECT_THROW(H("12g4"), std::invalid_argument);
}

TEST(CryptoBigInt, BytesBigEndian) {
  const std::uint8_t bytes[] = {0x00, 0x01, 0x02, 0x03, 0xfe};
  const BigInt v = BigInt::from_bytes_be(bytes, sizeof bytes);
  EXPECT_EQ(v.to_hex(), "10203fe");
  EXPECT_EQ(v.to_bytes_be(4), (std::vector<std::uint8_t>{0x01, 0x02, 0x03, 0xfe}));
  EXPECT_EQ(v.to_bytes_be(6), (std::vector<std::uint8_t>{0x00, 0x00, 0x01, 0x02, 0x03, 0xfe}));
  EXPECT_THROW(v.to_bytes_be(3), std::out_of_range);
  EXPECT_EQ(BigInt().to_bytes_be(2), (std::vector<std::uint8_t>{0, 0}));
  EXPECT_TRUE(BigInt::from_bytes_be(nullptr, 0).is_zero());
  EXPECT_THROW(H("-1").to_bytes_be(8), std::domain_error);
}

TEST(CryptoBigInt, WordsLeastSignificantFirst) {
  const BigInt v = H("112233445566778899aabbcc");
  EXPECT_EQ(v.to_words(3), (std::vector<std::uint32_t>{0x99aabbcc, 0x55667788, 0x11223344}));
  EXPECT_EQ(v.to_words(5), (std::vector<std::uint32_t>{0x99aabbcc, 0x55667788, 0x11223344, 0, 0}));
  EXPECT_THROW(v.to_words(2), std::out_of_range);
  EXPECT_EQ(BigInt::from_words({0x99aabbcc, 0x55667788, 0x11223344, 0}), v);
  EXPECT_EQ(BigInt().to_words(2), (std::vector<std::uint32_t>{0, 0}));
  EXPECT_EQ(H("100000000").to_words(2), (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(H("100000000").bit_length(), 33U);
  EXPECT_EQ(BigInt().bit_length(), 0U);
}

TEST(CryptoBigInt, ValueSemantics) {
  BigInt a = H("123456789abcdef0123456789");
  BigInt b = a;
  b = b + BigInt(1);
  EXPECT_NE(a, b);
  EXPECT_LT(a, b);
  BigInt c = std::move(b);
  EXPECT_EQ(c - a, BigInt(1));
  b = c;  // assigning to a moved-from object works
  EXPECT_EQ(b, c);
  EXPECT_EQ(a * BigInt(16), H("123456789abcdef01234567890"));
  EXPECT_EQ(H("-7") % BigInt(3), H("-1"));
  EXPECT_EQ(mod(H("-7"), BigInt(3)), BigInt(2));
  EXPECT_EQ(BigInt(100) / BigInt(7), BigInt(14));
  EXPECT_THROW(BigInt(1) / BigInt(), std::domain_error);
}

TEST(CryptoModexp, SmallKnownValues) {
  EXPECT_EQ(modexp(BigInt(4), BigInt(13), BigInt(497)), BigInt(445));
  EXPECT_EQ(modexp(H("-5"), BigInt(12345), BigInt(1000003)), BigInt(663457));
  EXPECT_EQ(modexp(BigInt(2), H("ffffffffffffffff"), H("7fffffffffffffffffffffffffffffff")), BigInt(2));
  // Even moduli take the mpz_powm path.
  EXPECT_EQ(modexp(BigInt(12345), BigInt(6789), BigInt(100000)), BigInt(65625));
  EXPECT_EQ(modexp(H("123456789abcdef"), H("fedcba987"), H("100000000000000000002")),
            H("a4a3083b1c9fcc3b25a9"));
}

TEST(CryptoModexp, EdgeCases) {
  EXPECT_EQ(modexp(BigInt(5), BigInt(0), BigInt(7)), BigInt(1));
  EXPECT_EQ(modexp(BigInt(5), BigInt(0), BigInt(1)), BigInt(0));
  EXPECT_EQ(modexp(BigInt(0), BigInt(0), BigInt(8)), BigInt(1));
  EXPECT_EQ(modexp(BigInt(0), BigInt(5), BigInt(7)), BigInt(0));
  EXPECT_EQ(modexp(BigInt(123), BigInt(9), BigInt(1)), BigInt(0));
  EXPECT_EQ(modexp(BigInt(15), BigInt(1), BigInt(7)), BigInt(1));  // base reduced first
  EXPECT_THROW(modexp(BigInt(2), BigInt(3), BigInt(0)), std::domain_error);
  EXPECT_THROW(modexp(BigInt(2), BigInt(3), H("-7")), std::domain_error);
  EXPECT_THROW(modexp(BigInt(2), H("-3"), BigInt(7)), std::domain_error);
}

TEST(CryptoModexp, ModInverse) {
  EXPECT_EQ(mod_inverse(BigInt(3), BigInt(11)), BigInt(4));
  EXPECT_THROW(mod_inverse(BigInt(4), BigInt(8)), std::domain_error);
}

class CryptoRsa2048 : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto kv = test::read_assignments(test::data_file("rsa2048_kat_cryptech.txt"));
    for (const char* name : {"n", "e", "d", "p", "q", "dP", "dQ", "u", "m", "s"}) {
      ASSERT_EQ(kv.count(name), 1U) << "missing " << name;
    }
    n = BigInt::from_hex(kv.at("n"));
    e = BigInt::from_hex(kv.at("e"));
    d = BigInt::from_hex(kv.at("d"));
    p = BigInt::from_hex(kv.at("p"));
    q = BigInt::from_hex(kv.at("q"));
    dP = BigInt::from_hex(kv.at("dP"));
    dQ = BigInt::from_hex(kv.at("dQ"));
    u = BigInt::from_hex(kv.at("u"));
    m = BigInt::from_hex(kv.at("m"));
    s = BigInt::from_hex(kv.at("s"));
  }
  BigInt n, e, d, p, q, dP, dQ, u, m, s;
};

TEST_F(CryptoRsa2048, KeyIsConsistent) {
  EXPECT_EQ(n.bit_length(), 2048U);
  EXPECT_EQ(p * q, n);
  EXPECT_EQ(u, mod_inverse(q, p));
  EXPECT_EQ(dP, mod(d, p - BigInt(1)));
  EXPECT_EQ(dQ, mod(d, q - BigInt(1)));
}

TEST_F(CryptoRsa2048, PrivateOperationGivesSignature) {
  EXPECT_EQ(modexp(m, d, n), s);
}

TEST_F(CryptoRsa2048, PublicOperationRecoversMessage) {
  EXPECT_EQ(modexp(s, e, n), m);
  EXPECT_EQ(modexp_public(s, e, n), m);  // mpz_powm: same number
  EXPECT_EQ(modexp_public(BigInt(5), BigInt(0), BigInt(1)), BigInt(0));
  EXPECT_THROW(modexp_public(s, H("-3"), n), std::domain_error);
}

TEST_F(CryptoRsa2048, CrtRecombinationGivesSignature) {
  EXPECT_EQ(rsa_crt(m, p, q, dP, dQ, u), s);
}

TEST_F(CryptoRsa2048, OperandBankRoundTrip) {
  // 2048-bit operands as 64 words of 32 bits, least-significant word first.
  const auto words = s.to_words(64);
  ASSERT_EQ(words.size(), 64U);
  EXPECT_EQ(BigInt::from_words(words), s);
  EXPECT_EQ(words[0], static_cast<std::uint32_t>(s.to_bytes_be(256)[255]) |
                          (static_cast<std::uint32_t>(s.to_bytes_be(256)[254]) << 8) |
                          (static_cast<std::uint32_t>(s.to_bytes_be(256)[253]) << 16) |
                          (static_cast<std::uint32_t>(s.to_bytes_be(256)[252]) << 24));
  EXPECT_EQ(BigInt::from_bytes_be(n.to_bytes_be(256)), n);
}

TEST(CryptoMontgomery, CoefficientAndFactorOfASmallModulus) {
  // n = 97, R = 2^32: n' = -97^-1 mod 2^32 and R^2 mod 97, checked by their defining properties and by hand.
  const BigInt n(97), r = BigInt(1ull << 32);
  const BigInt c = montgomery_coefficient(n, 1), f = montgomery_factor(n, 1);
  EXPECT_EQ(mod(n * c, r), r - BigInt(1));
  EXPECT_EQ(f, mod(r * r, n));
  EXPECT_EQ(f, BigInt(((1ull << 32) % 97) * ((1ull << 32) % 97) % 97));
  // REDC(t) = t * R^-1 mod n.
  for (std::uint64_t t : {0ull, 1ull, 96ull, 5000ull, 97ull * 1000ull + 3}) {
    EXPECT_EQ(mod(montgomery_reduce(BigInt(t), n, c, 1) * r, n), mod(BigInt(t), n)) << t;
  }
  EXPECT_THROW(montgomery_coefficient(BigInt(96), 1), std::domain_error);                 // even
  EXPECT_THROW(montgomery_factor(BigInt(1ull << 33) + BigInt(1), 1), std::domain_error);  // above R
}

TEST_F(CryptoRsa2048, MontgomeryExponentiationWithPrecomputedValuesEqualsModexp) {
  // The CRT halves as a 32-word Montgomery exponentiator computes them from the keystore's precomputed
  // values.
  for (const auto& [prime, exponent] : {std::pair{p, dP}, std::pair{q, dQ}}) {
    const BigInt c = montgomery_coefficient(prime, 32), f = montgomery_factor(prime, 32);
    EXPECT_EQ(montgomery_modexp(m, exponent, prime, c, f, 32), modexp(m, exponent, prime));
    // A wrong coefficient or factor gives a wrong result, as in a multiplier.
    EXPECT_NE(montgomery_modexp(m, exponent, prime, c + BigInt(2), f, 32), modexp(m, exponent, prime));
    EXPECT_NE(montgomery_modexp(m, exponent, prime, c, f + BigInt(1), 32), modexp(m, exponent, prime));
  }
  // The whole signature, recombined from the two halves.
  const BigInt m1 = montgomery_modexp(m, dP, p, montgomery_coefficient(p, 32), montgomery_factor(p, 32), 32);
  const BigInt m2 = montgomery_modexp(m, dQ, q, montgomery_coefficient(q, 32), montgomery_factor(q, 32), 32);
  EXPECT_EQ(m2 + q * mod(u * (m1 - m2), p), s);
}

}  // namespace
}  // namespace rsoc::crypto
