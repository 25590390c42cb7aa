// Differential tests against OpenSSL libcrypto: random keys and blocks through the EVP API (ECB, no padding)
// and random big-number operands through BN_mod_exp.
#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <array>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <vector>

#include "models/crypto/aes128.h"
#include "models/crypto/des.h"
#include "models/crypto/modexp.h"

namespace rsoc::crypto {
namespace {

constexpr int kPairs = 100000;

struct CipherDeleter {
  void operator()(EVP_CIPHER* c) const { EVP_CIPHER_free(c); }
};
struct CtxDeleter {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
using CipherPtr = std::unique_ptr<EVP_CIPHER, CipherDeleter>;
using CtxPtr = std::unique_ptr<EVP_CIPHER_CTX, CtxDeleter>;

// Single DES lives in OpenSSL 3's legacy provider; loading it explicitly also requires loading "default".
void load_providers() {
  static const bool loaded = [] {
    return OSSL_PROVIDER_load(nullptr, "legacy") != nullptr &&
           OSSL_PROVIDER_load(nullptr, "default") != nullptr;
  }();
  ASSERT_TRUE(loaded) << "OpenSSL legacy/default providers not available";
}

// One EVP context per direction, created once and re-keyed for every key.
class EvpEcb {
 public:
  explicit EvpEcb(const char* name) : cipher_(EVP_CIPHER_fetch(nullptr, name, nullptr)) {
    if (!cipher_) return;
    enc_.reset(EVP_CIPHER_CTX_new());
    dec_.reset(EVP_CIPHER_CTX_new());
    ok_ = enc_ && dec_ && EVP_EncryptInit_ex2(enc_.get(), cipher_.get(), nullptr, nullptr, nullptr) == 1 &&
          EVP_DecryptInit_ex2(dec_.get(), cipher_.get(), nullptr, nullptr, nullptr) == 1 &&
          EVP_CIPHER_CTX_set_padding(enc_.get(), 0) == 1 && EVP_CIPHER_CTX_set_padding(dec_.get(), 0) == 1;
  }
  bool ok() const { return ok_; }
  int key_length() const { return EVP_CIPHER_get_key_length(cipher_.get()); }
  int block_size() const { return EVP_CIPHER_get_block_size(cipher_.get()); }

  // Processes one block under `key`; returns false on any OpenSSL failure.
  bool run(bool encrypt, const std::uint8_t* key, const std::uint8_t* in, std::uint8_t* out) const {
    EVP_CIPHER_CTX* ctx = encrypt ? enc_.get() : dec_.get();
    if (EVP_CipherInit_ex2(ctx, nullptr, key, nullptr, encrypt ? 1 : 0, nullptr) != 1) return false;
    int outl = 0;
    return EVP_CipherUpdate(ctx, out, &outl, in, block_size()) == 1 && outl == block_size();
  }

 private:
  CipherPtr cipher_;
  CtxPtr enc_;
  CtxPtr dec_;
  bool ok_ = false;
};

std::string hex(const std::uint8_t* p, std::size_t n) {
  std::ostringstream os;
  os << std::hex;
  for (std::size_t i = 0; i < n; ++i) os << (p[i] >> 4) << (p[i] & 0xf);
  return os.str();
}

void fill(std::mt19937_64& rng, std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t v = rng();
    for (std::size_t j = i; j < n && j < i + 8; ++j, v >>= 8) p[j] = static_cast<std::uint8_t>(v);
  }
}

std::uint64_t be64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

// Runs kPairs random (key, block) pairs through `ours` (a callable (encrypt, key, in, out)) and OpenSSL, in
// both directions; returns the number of mismatching blocks and reports the first few.
template <std::size_t KeyBytes, std::size_t BlockBytes, typename Ours>
void differential(const char* name, std::uint64_t seed, Ours ours) {
  load_providers();
  const EvpEcb evp(name);
  ASSERT_TRUE(evp.ok()) << "EVP cipher " << name << " unavailable";
  ASSERT_EQ(evp.key_length(), static_cast<int>(KeyBytes));
  ASSERT_EQ(evp.block_size(), static_cast<int>(BlockBytes));
  std::mt19937_64 rng(seed);
  std::array<std::uint8_t, KeyBytes> key{};
  std::array<std::uint8_t, BlockBytes> in{}, mine{}, theirs{};
  int mismatches = 0;
  for (int i = 0; i < kPairs; ++i) {
    fill(rng, key.data(), key.size());
    for (bool encrypt : {true, false}) {
      fill(rng, in.data(), in.size());
      ours(encrypt, key.data(), in.data(), mine.data());
      ASSERT_TRUE(evp.run(encrypt, key.data(), in.data(), theirs.data())) << "OpenSSL failure at pair " << i;
      if (mine != theirs && ++mismatches <= 5) {
        ADD_FAILURE() << name << (encrypt ? " encrypt" : " decrypt") << " mismatch at pair " << i << ": key "
                      << hex(key.data(), key.size()) << " in " << hex(in.data(), in.size()) << " ours "
                      << hex(mine.data(), mine.size()) << " openssl " << hex(theirs.data(), theirs.size());
      }
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << 2 * kPairs << " blocks";
}

TEST(CryptoOpenSslDifferential, Aes128Ecb) {
  differential<16, 16>("AES-128-ECB", 0xae5,
                       [](bool enc, const std::uint8_t* k, const std::uint8_t* in, std::uint8_t* out) {
                         Aes128::Key key;
                         std::memcpy(key.data(), k, key.size());
                         const Aes128 aes(key);
                         enc ? aes.encrypt(in, out) : aes.decrypt(in, out);
                       });
}

// Both implementations (the AES instructions where the host has them, and the tables).
TEST(CryptoOpenSslDifferential, Aes256Ecb) {
  for (const auto impl : {Aes256::Implementation::kFastest, Aes256::Implementation::kTables})
    differential<32, 16>("AES-256-ECB", 0x256,
                         [impl](bool enc, const std::uint8_t* k, const std::uint8_t* in, std::uint8_t* out) {
                           Aes256::Key key;
                           std::memcpy(key.data(), k, key.size());
                           const Aes256 aes(key, impl);
                           enc ? aes.encrypt(in, out) : aes.decrypt(in, out);
                         });
}

TEST(CryptoOpenSslDifferential, DesEcb) {
  differential<8, 8>("DES-ECB", 0xde5,
                     [](bool enc, const std::uint8_t* k, const std::uint8_t* in, std::uint8_t* out) {
                       const Des des(be64(k));
                       enc ? des.encrypt(in, out) : des.decrypt(in, out);
                     });
}

TEST(CryptoOpenSslDifferential, TripleDesEdeEcbThreeKeys) {
  differential<24, 8>("DES-EDE3-ECB", 0x3de5,
                      [](bool enc, const std::uint8_t* k, const std::uint8_t* in, std::uint8_t* out) {
                        const TripleDes tdes(be64(k), be64(k + 8), be64(k + 16));
                        enc ? tdes.encrypt(in, out) : tdes.decrypt(in, out);
                      });
}

// --- modexp vs BN_mod_exp ----------------------------------------------------------------------------------

struct BnDeleter {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
using BnPtr = std::unique_ptr<BIGNUM, BnDeleter>;

BnPtr to_bn(const BigInt& v) {
  const std::size_t len = std::max<std::size_t>(1, (v.bit_length() + 7) / 8);
  const auto bytes = v.to_bytes_be(len);
  return BnPtr(BN_bin2bn(bytes.data(), static_cast<int>(bytes.size()), nullptr));
}

BigInt from_bn(const BIGNUM* b) {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(BN_num_bytes(b)));
  BN_bn2bin(b, bytes.data());
  return BigInt::from_bytes_be(bytes.data(), bytes.size());
}

// A random value below 2^bits; with `exact` the top bit is set, so the value has exactly `bits` bits.
BigInt random_bits(std::mt19937_64& rng, std::size_t bits, bool exact = false) {
  std::vector<std::uint32_t> words((bits + 31) / 32);
  for (auto& w : words) w = static_cast<std::uint32_t>(rng());
  if (bits % 32 != 0) words.back() &= (std::uint32_t{1} << (bits % 32)) - 1;
  if (exact) words.back() |= std::uint32_t{1} << ((bits - 1) % 32);
  return BigInt::from_words(words);
}

TEST(CryptoOpenSslDifferential, ModexpAgainstBnModExp) {
  std::mt19937_64 rng(0x3e7);
  std::unique_ptr<BN_CTX, decltype(&BN_CTX_free)> ctx(BN_CTX_new(), &BN_CTX_free);
  ASSERT_TRUE(ctx);
  constexpr int kCases = 300;
  int mismatches = 0;
  int even_moduli = 0;
  for (int i = 0; i < kCases; ++i) {
    // Random sizes up to 4096 bits, plus a regular share of full 2048-, 3072- and 4096-bit moduli.
    std::size_t mod_bits = 0;
    switch (i % 12) {
      case 0:
        mod_bits = 4096;
        break;
      case 6:
        mod_bits = 3072;
        break;
      case 1:
      case 7:
        mod_bits = 2048;
        break;
      case 2:
      case 8:
        mod_bits = 1 + rng() % 64;
        break;
      default:
        mod_bits = 1 + rng() % 4096;
        break;
    }
    BigInt modulus = random_bits(rng, mod_bits, true);
    if (i % 4 != 3 && !modulus.is_odd()) modulus = modulus + BigInt(1);  // every 4th case may be even
    if (!modulus.is_odd()) ++even_moduli;
    const BigInt base = random_bits(rng, 1 + rng() % (mod_bits + 64));  // may exceed the modulus
    const BigInt exponent = random_bits(rng, i % 10 == 0 ? 17 : 1 + rng() % 4096);

    const BigInt ours = modexp(base, exponent, modulus);
    BnPtr r(BN_new()), b = to_bn(base), e = to_bn(exponent), m = to_bn(modulus);
    ASSERT_TRUE(r && b && e && m);
    ASSERT_EQ(BN_mod_exp(r.get(), b.get(), e.get(), m.get(), ctx.get()), 1) << "case " << i;
    const BigInt theirs = from_bn(r.get());
    EXPECT_EQ(modulus.bit_length(), mod_bits);
    EXPECT_LT(ours, modulus);
    if (ours != theirs && ++mismatches <= 5) {
      ADD_FAILURE() << "case " << i << ": " << base.to_hex() << " ^ " << exponent.to_hex() << " mod "
                    << modulus.to_hex() << ": ours " << ours.to_hex() << " openssl " << theirs.to_hex();
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << kCases << " cases";
  EXPECT_GT(even_moduli, 0);  // the mpz_powm fallback was exercised
}

}  // namespace
}  // namespace rsoc::crypto
