// AES-128 and AES-256 known-answer tests from FIPS-197 and structural checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "models/crypto/aes128.h"
#include "tests/crypto/crypto_test_support.h"

namespace rsoc::crypto {
namespace {

template <std::size_t N>
std::array<std::uint8_t, N> arr(std::string_view hex) {
  const auto v = test::hex_bytes(hex);
  if (v.size() != N) throw std::invalid_argument("wrong hex length");
  std::array<std::uint8_t, N> a{};
  std::copy(v.begin(), v.end(), a.begin());
  return a;
}

struct AesVector {
  const char* key;
  const char* plaintext;
  const char* ciphertext;
};

// FIPS-197 Appendix C.1 (AES-128 example vector) and Appendix B (cipher example).
constexpr AesVector kFips197Vectors[] = {
    {"000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
     "69c4e0d86a7b0430d8cdb78070b4c55a"},
    {"2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
     "3925841d02dc09fbdc118597196a0b32"},
};

TEST(CryptoAes, Fips197KnownAnswersEncrypt) {
  for (const auto& v : kFips197Vectors) {
    const Aes128 aes(arr<16>(v.key));
    EXPECT_EQ(aes.encrypt(arr<16>(v.plaintext)), arr<16>(v.ciphertext)) << "key " << v.key;
  }
}

TEST(CryptoAes, Fips197KnownAnswersDecrypt) {
  for (const auto& v : kFips197Vectors) {
    const Aes128 aes(arr<16>(v.key));
    EXPECT_EQ(aes.decrypt(arr<16>(v.ciphertext)), arr<16>(v.plaintext)) << "key " << v.key;
  }
}

TEST(CryptoAes, Fips197KnownAnswersOnTheTables) {
  for (const auto& v : kFips197Vectors) {
    const Aes128 aes(arr<16>(v.key), Aes128::Implementation::kTables);
    EXPECT_FALSE(aes.uses_aes_instructions());
    EXPECT_EQ(aes.encrypt(arr<16>(v.plaintext)), arr<16>(v.ciphertext)) << "key " << v.key;
    EXPECT_EQ(aes.decrypt(arr<16>(v.ciphertext)), arr<16>(v.plaintext)) << "key " << v.key;
  }
}

// The AES instructions, where the host has them, give the tables' bytes for any key and block, both ways and
// in place (on a host without them both objects run the tables and the test still checks the round trip).
TEST(CryptoAes, TheAesInstructionsAgreeWithTheTables) {
  std::mt19937_64 rng(197);
  auto draw = [&] {
    std::array<std::uint8_t, 16> a{};
    for (auto& b : a) b = static_cast<std::uint8_t>(rng());
    return a;
  };
  for (int k = 0; k < 200; ++k) {
    const auto key = draw();
    const Aes128 fast(key), tables(key, Aes128::Implementation::kTables);
    EXPECT_EQ(fast.uses_aes_instructions(), Aes128::host_has_aes_instructions());
    for (int b = 0; b < 20; ++b) {
      const auto block = draw();
      const auto c = tables.encrypt(block);
      ASSERT_EQ(fast.encrypt(block), c);
      ASSERT_EQ(fast.decrypt(c), block);
      ASSERT_EQ(fast.decrypt(block), tables.decrypt(block));
      auto buf = block;
      fast.encrypt(buf.data(), buf.data());
      ASSERT_EQ(buf, c);
    }
  }
}

TEST(CryptoAes, RawPointerFormsMatchAndAllowInPlace) {
  const Aes128 aes(arr<16>(kFips197Vectors[0].key));
  auto buf = arr<16>(kFips197Vectors[0].plaintext);
  aes.encrypt(buf.data(), buf.data());
  EXPECT_EQ(buf, arr<16>(kFips197Vectors[0].ciphertext));
  aes.decrypt(buf.data(), buf.data());
  EXPECT_EQ(buf, arr<16>(kFips197Vectors[0].plaintext));
}

TEST(CryptoAes, ManyBlocksAtOnceAreEachBlockAlone) {
  // Every count from none to 11 (groups of four and the blocks left over), both directions, in place and
  // into another array, on the fastest implementation of this host and on the tables.
  std::mt19937_64 rng(197);
  Aes128::Key key{};
  for (auto& b : key) b = static_cast<std::uint8_t>(rng());
  for (const auto impl : {Aes128::Implementation::kFastest, Aes128::Implementation::kTables}) {
    const Aes128 aes(key, impl);
    for (std::size_t n = 0; n <= 11; ++n) {
      std::vector<std::uint8_t> in(16 * n);
      for (auto& b : in) b = static_cast<std::uint8_t>(rng());
      std::vector<std::uint8_t> out(in.size()), one(16), in_place = in;
      aes.encrypt(in.data(), out.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        aes.encrypt(&in[16 * i], one.data());
        EXPECT_TRUE(std::equal(one.begin(), one.end(), out.begin() + 16 * i)) << n << " blocks, #" << i;
      }
      aes.decrypt(out.data(), out.data(), n);
      EXPECT_EQ(out, in) << n;
      aes.decrypt(in_place.data(), in_place.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        aes.decrypt(&in[16 * i], one.data());
        EXPECT_TRUE(std::equal(one.begin(), one.end(), in_place.begin() + 16 * i)) << n << " blocks, #" << i;
      }
    }
  }
}

// FIPS-197 Appendix C.3 (AES-256 example vector), on both implementations, one block and many.
TEST(CryptoAes, Aes256Fips197KnownAnswer) {
  const auto key = arr<32>("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  const auto plain = arr<16>("00112233445566778899aabbccddeeff");
  const auto cipher = arr<16>("8ea2b7ca516745bfeafc49904b496089");
  for (const auto impl : {Aes256::Implementation::kFastest, Aes256::Implementation::kTables}) {
    const Aes256 aes(key, impl);
    EXPECT_EQ(aes.encrypt(plain), cipher);
    EXPECT_EQ(aes.decrypt(cipher), plain);
    std::array<std::uint8_t, 80> many{};
    for (std::size_t b = 0; b < 5; ++b) std::copy(plain.begin(), plain.end(), many.begin() + 16 * b);
    aes.encrypt(many.data(), many.data(), 5);
    for (std::size_t b = 0; b < 5; ++b)
      EXPECT_TRUE(std::equal(cipher.begin(), cipher.end(), many.begin() + 16 * static_cast<long>(b)));
  }
}

// FIPS-197 Appendix A.3: expansion of a 256-bit key (the SubWord of every fourth word of eight).
TEST(CryptoAes, KeyExpansionFips197AppendixA3) {
  const Aes256 aes(arr<32>("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"));
  const auto& w = aes.round_keys();
  ASSERT_EQ(w.size(), 60u);
  EXPECT_EQ(w[0], 0x603deb10U);
  EXPECT_EQ(w[8], 0x9ba35411U);
  EXPECT_EQ(w[12], 0xa8b09c1aU);
  EXPECT_EQ(w[59], 0x706c631eU);
}

// FIPS-197 Appendix A.1: expansion of the key 2b7e1516 28aed2a6 abf71588 09cf4f3c.
TEST(CryptoAes, KeyExpansionFips197AppendixA1) {
  const Aes128 aes(arr<16>("2b7e151628aed2a6abf7158809cf4f3c"));
  const auto& w = aes.round_keys();
  EXPECT_EQ(w[0], 0x2b7e1516U);
  EXPECT_EQ(w[4], 0xa0fafe17U);
  EXPECT_EQ(w[5], 0x88542cb1U);
  EXPECT_EQ(w[23], 0x11f915bcU);
  EXPECT_EQ(w[40], 0xd014f9a8U);
  EXPECT_EQ(w[43], 0xb6630ca6U);
}

TEST(CryptoAes, SboxIsFips197TableAndInverse) {
  EXPECT_EQ(Aes128::sbox(0x00), 0x63);
  EXPECT_EQ(Aes128::sbox(0x01), 0x7c);
  EXPECT_EQ(Aes128::sbox(0x53), 0xed);
  EXPECT_EQ(Aes128::sbox(0xc9), 0xdd);
  EXPECT_EQ(Aes128::sbox(0xff), 0x16);
  for (int x = 0; x < 256; ++x) {
    const auto b = static_cast<std::uint8_t>(x);
    EXPECT_EQ(Aes128::inv_sbox(Aes128::sbox(b)), b);
  }
}

TEST(CryptoAes, RandomRoundTripAndKeySensitivity) {
  std::mt19937_64 rng(0xae5128);
  auto fill = [&rng](auto& a) {
    for (auto& b : a) b = static_cast<std::uint8_t>(rng());
  };
  for (int i = 0; i < 1000; ++i) {
    Aes128::Key key;
    Aes128::Block pt;
    fill(key);
    fill(pt);
    const Aes128 aes(key);
    const auto ct = aes.encrypt(pt);
    EXPECT_NE(ct, pt);
    EXPECT_EQ(aes.decrypt(ct), pt);
    key[static_cast<std::size_t>(i % 16)] ^= static_cast<std::uint8_t>(1U << (i % 8));
    EXPECT_NE(Aes128(key).encrypt(pt), ct);
  }
}

}  // namespace
}  // namespace rsoc::crypto
