// AES key wrap (RFC 3394) and key wrap with padding (RFC 5649): published vectors, differential tests against
// OpenSSL's EVP wrap ciphers, integrity failures, and the exact number and direction of block operations.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/crypto/aes128.h"
#include "models/crypto/aes_keywrap.h"
#include "tests/crypto/crypto_test_support.h"

namespace rsoc::crypto {
namespace {

using Bytes = KeyWrapBytes;
using test::hex_bytes;

Aes128::Key key128(const Bytes& b) {
  if (b.size() != Aes128::kKeyBytes) throw std::invalid_argument("not a 128-bit key");
  Aes128::Key k{};
  std::copy(b.begin(), b.end(), k.begin());
  return k;
}

Bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  Bytes out(n);
  for (auto& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
}

Aes128::Key random_key(std::mt19937_64& rng) {
  return key128(random_bytes(rng, Aes128::kKeyBytes));
}

// Wraps a BlockCipher, counting encryptions and decryptions and keeping the first input block it sees.
class CountingCipher {
 public:
  explicit CountingCipher(BlockCipher inner) : inner_(std::move(inner)) {}
  BlockCipher fn() {
    return [this](bool encrypt, const std::uint8_t* in, std::uint8_t* out) {
      if (encryptions_ + decryptions_ == 0) std::memcpy(first_in_.data(), in, first_in_.size());
      ++(encrypt ? encryptions_ : decryptions_);
      inner_(encrypt, in, out);
    };
  }
  std::size_t encryptions() const { return encryptions_; }
  std::size_t decryptions() const { return decryptions_; }
  std::size_t total() const { return encryptions_ + decryptions_; }
  const std::array<std::uint8_t, 16>& first_in() const { return first_in_; }
  void reset() { encryptions_ = decryptions_ = 0; }

 private:
  BlockCipher inner_;
  std::size_t encryptions_ = 0;
  std::size_t decryptions_ = 0;
  std::array<std::uint8_t, 16> first_in_{};
};

// --- OpenSSL references ------------------------------------------------------------------------------------

struct WrapCtxDeleter {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
using WrapCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, WrapCtxDeleter>;

// One-shot EVP wrap/unwrap (EVP_aes_*_wrap / _wrap_pad); std::nullopt when OpenSSL reports failure, which for
// an unwrap means the integrity check failed.
std::optional<Bytes> evp_wrap(const EVP_CIPHER* cipher, bool encrypt, const std::uint8_t* key,
                              const Bytes& in, const std::uint8_t* iv = nullptr) {
  WrapCtxPtr ctx(EVP_CIPHER_CTX_new());
  if (!ctx) return std::nullopt;
  EVP_CIPHER_CTX_set_flags(ctx.get(), EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
  if (EVP_CipherInit_ex(ctx.get(), cipher, nullptr, key, iv, encrypt ? 1 : 0) != 1) return std::nullopt;
  Bytes out(in.size() + 16);
  int outl = 0;
  if (EVP_CipherUpdate(ctx.get(), out.data(), &outl, in.data(), static_cast<int>(in.size())) <= 0) {
    return std::nullopt;
  }
  int finl = 0;
  if (EVP_CipherFinal_ex(ctx.get(), out.data() + outl, &finl) != 1) return std::nullopt;
  out.resize(static_cast<std::size_t>(outl + finl));
  return out;
}

// A BlockCipher on OpenSSL's AES-ECB for any key size, so the RFC vectors with 192- and 256-bit KEKs can run
// through our wrap/unwrap code even though rsoc::crypto only has AES-128.
BlockCipher evp_ecb_block_cipher(const Bytes& key) {
  const EVP_CIPHER* ecb = key.size() == 16   ? EVP_aes_128_ecb()
                          : key.size() == 24 ? EVP_aes_192_ecb()
                          : key.size() == 32 ? EVP_aes_256_ecb()
                                             : nullptr;
  if (!ecb) throw std::invalid_argument("AES key must be 16, 24 or 32 bytes");
  auto make = [&](int enc) {
    std::shared_ptr<EVP_CIPHER_CTX> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    if (!ctx || EVP_CipherInit_ex(ctx.get(), ecb, nullptr, key.data(), nullptr, enc) != 1 ||
        EVP_CIPHER_CTX_set_padding(ctx.get(), 0) != 1) {
      throw std::runtime_error("OpenSSL AES-ECB setup failed");
    }
    return ctx;
  };
  auto enc = make(1);
  auto dec = make(0);
  return [enc, dec](bool encrypt, const std::uint8_t* in, std::uint8_t* out) {
    int outl = 0;
    if (EVP_CipherUpdate((encrypt ? enc : dec).get(), out, &outl, in, 16) != 1 || outl != 16) {
      throw std::runtime_error("OpenSSL AES-ECB block failed");
    }
  };
}

std::size_t ceil8(std::size_t len) {
  return (len + 7) / 8;
}

// --- published vectors -------------------------------------------------------------------------------------

struct Vector {
  const char* kek;
  const char* plaintext;
  const char* ciphertext;
};

// RFC 3394 section 4. Only 4.1 uses a 128-bit KEK; 4.2-4.6 (192/256-bit KEKs) run with OpenSSL's AES-ECB as
// the block operation.
constexpr Vector kRfc3394[] = {
    // 4.1 Wrap 128 bits of Key Data with a 128-bit KEK
    {"000102030405060708090A0B0C0D0E0F", "00112233445566778899AABBCCDDEEFF",
     "1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"},
    // 4.2 Wrap 128 bits of Key Data with a 192-bit KEK
    {"000102030405060708090A0B0C0D0E0F1011121314151617", "00112233445566778899AABBCCDDEEFF",
     "96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D"},
    // 4.3 Wrap 128 bits of Key Data with a 256-bit KEK
    {"000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", "00112233445566778899AABBCCDDEEFF",
     "64E8C3F9CE0F5BA263E9777905818A2A93C8191E7D6E8AE7"},
    // 4.4 Wrap 192 bits of Key Data with a 192-bit KEK
    {"000102030405060708090A0B0C0D0E0F1011121314151617", "00112233445566778899AABBCCDDEEFF0001020304050607",
     "031D33264E15D33268F24EC260743EDCE1C6C7DDEE725A936BA814915C6762D2"},
    // 4.5 Wrap 192 bits of Key Data with a 256-bit KEK
    {"000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
     "00112233445566778899AABBCCDDEEFF0001020304050607",
     "A8F9BC1612C68B3FF6E6F4FBE30E71E4769C8B80A32CB8958CD5D17D6B254DA1"},
    // 4.6 Wrap 256 bits of Key Data with a 256-bit KEK
    {"000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
     "00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F",
     "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"},
};

// RFC 5649 section 6 (192-bit KEK): 20 octets (n = 3) and 7 octets (n = 1, the single-block case).
constexpr Vector kRfc5649[] = {
    {"5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8", "c37b7e6492584340bed12207808941155068f738",
     "138bdeaa9b8fa7fc61f97742e72248ee5ae6ae5360d1ae6a5f54f373fa543b6a"},
    {"5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8", "466f7250617369",
     "afbeb0f07dfbf5419200f2ccb50bb24f"},
};

// NIST CAVP key wrap vectors with 128-bit KEKs (SP 800-38F validation files KW_AE_128 / KWP_AE_128, as quoted
// in public test suites). Cross-checked against OpenSSL below as well.
constexpr Vector kCavpKw128[] = {
    {"7575da3a93607cc2bfd8cec7aadfd9a6", "42136d3c384a3eeac95a066fd28fed3f",
     "031f6bd7e61e643df68594816f64caa3f56fabea2548f5fb"},
    {"67ae4270bcdd31e8326b7e7f94c80276", "57e748b62fbc37ba25e904ee973d01b136cf7c1d0c8c5c87",
     "96cec0e3272a21faa550a857957aa38ce3c1cf06f0dd9f5b5c5c422cef6c69a1"},
    {"e5d058e7f1c22c016c4e1cc9b26b9f8f", "7f604e9b8d39d3c91e193fe6f196c1e3da6211a7c9a33b8873b64b138d1803e4",
     "60b9f8ac797c56e01e9b5f84d65816a980777869f67991a0e6dc19b8cd75c9b54db4a38456bbd6f3"},
    {"d7aa53aefad65cd95b57c8eee7b0a906",
     "4a8daee6774751fc4489e837b8f7fba6896c70bb3d5e53053c92eb58046ee4a7002e542311253b97",
     "84ebd38cf06c674dcf186977de4a40c6dde3e7f49361a43420a887d2931b29c23e2db72e95e4107001da925181bb7097"},
};
constexpr Vector kCavpKwp128[] = {
    {"6decf10a1caf8e3b80c7a4be8c9c84e8", "49", "01a7d657fc4a5b216f261cca4d052c2b"},
    {"a8e06da625a65b25cf5030826830b661", "43acff293120dd5d", "b6f967616dd8d772e9fea295a456dba7"},
    {"7865e20f3c21659ab4690b629cdf3cc4", "bd6843d420378dc896",
     "41eca956d4aa047eb5cf4efe659661e74db6f8c564e23500"},
    {"be96dc195ec034d616486ed70e97fe83", "85b5437b6335ebba7635903a4493d12a77d9357a9e0dbc013456d85f1d3201",
     "974769b3a7b4d5d32985f87fddf9990631e5610fbfb278387b58b1f48e05c77d2fb7575c5169eb0e"},
};

TEST(AesKeyWrap, Rfc3394Section4_1WithAes128) {
  const auto& v = kRfc3394[0];
  const Aes128 kek(key128(hex_bytes(v.kek)));
  const Bytes p = hex_bytes(v.plaintext);
  const Bytes c = hex_bytes(v.ciphertext);
  EXPECT_EQ(key_wrap(kek, p), c);
  const auto back = key_unwrap(kek, c);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, p);

  // The same through a counting BlockCipher: n = 2 semiblocks, 12 operations each way.
  CountingCipher counter(aes_block_cipher(kek));
  EXPECT_EQ(key_wrap(counter.fn(), p), c);
  EXPECT_EQ(counter.encryptions(), 12u);
  EXPECT_EQ(counter.decryptions(), 0u);
  counter.reset();
  EXPECT_EQ(key_unwrap(counter.fn(), c), p);
  EXPECT_EQ(counter.decryptions(), 12u);
  EXPECT_EQ(counter.encryptions(), 0u);
}

TEST(AesKeyWrap, Rfc3394Section4AllVectorsWithOpenSslBlockOperation) {
  for (const auto& v : kRfc3394) {
    const Bytes k = hex_bytes(v.kek);
    const Bytes p = hex_bytes(v.plaintext);
    const Bytes c = hex_bytes(v.ciphertext);
    const BlockCipher cipher = evp_ecb_block_cipher(k);
    EXPECT_EQ(key_wrap(cipher, p), c) << "KEK " << v.kek;
    EXPECT_EQ(key_unwrap(cipher, c), p) << "KEK " << v.kek;
  }
}

TEST(AesKeyWrap, Rfc5649Section6VectorsWithOpenSslBlockOperation) {
  for (const auto& v : kRfc5649) {
    const Bytes p = hex_bytes(v.plaintext);
    const Bytes c = hex_bytes(v.ciphertext);
    CountingCipher counter(evp_ecb_block_cipher(hex_bytes(v.kek)));
    EXPECT_EQ(key_wrap_pad(counter.fn(), p), c) << "plaintext " << v.plaintext;
    const std::size_t ops = p.size() <= 8 ? 1 : 6 * ceil8(p.size());  // 1 for 7 octets, 18 for 20 octets
    EXPECT_EQ(counter.encryptions(), ops);
    EXPECT_EQ(counter.decryptions(), 0u);
    counter.reset();
    EXPECT_EQ(key_unwrap_pad(counter.fn(), c), p) << "plaintext " << v.plaintext;
    EXPECT_EQ(counter.decryptions(), ops);
    EXPECT_EQ(counter.encryptions(), 0u);
    EXPECT_EQ(key_wrap_pad_block_operations(c.size()), ops);
  }
}

TEST(AesKeyWrap, NistCavpAes128VectorsAgreeWithUsAndOpenSsl) {
  for (const auto& v : kCavpKw128) {
    const Bytes k = hex_bytes(v.kek);
    const Aes128 kek(key128(k));
    const Bytes p = hex_bytes(v.plaintext);
    const Bytes c = hex_bytes(v.ciphertext);
    EXPECT_EQ(key_wrap(kek, p), c) << "KW KEK " << v.kek;
    EXPECT_EQ(key_unwrap(kek, c), p) << "KW KEK " << v.kek;
    EXPECT_EQ(evp_wrap(EVP_aes_128_wrap(), true, k.data(), p), c) << "KW KEK " << v.kek;
  }
  for (const auto& v : kCavpKwp128) {
    const Bytes k = hex_bytes(v.kek);
    const Aes128 kek(key128(k));
    const Bytes p = hex_bytes(v.plaintext);
    const Bytes c = hex_bytes(v.ciphertext);
    EXPECT_EQ(key_wrap_pad(kek, p), c) << "KWP KEK " << v.kek;
    EXPECT_EQ(key_unwrap_pad(kek, c), p) << "KWP KEK " << v.kek;
    EXPECT_EQ(evp_wrap(EVP_aes_128_wrap_pad(), true, k.data(), p), c) << "KWP KEK " << v.kek;
  }
}

// --- differential against OpenSSL --------------------------------------------------------------------------

std::vector<std::size_t> kwp_lengths(std::mt19937_64& rng) {
  std::vector<std::size_t> lengths;
  for (std::size_t len = 1; len <= 64; ++len) lengths.push_back(len);  // includes 1-8, 9, 16
  for (std::size_t len : {255, 256, 257, 1000, 3289, 3290, 3291, 4095, 4096}) lengths.push_back(len);
  for (int i = 0; i < 150; ++i) lengths.push_back(1 + rng() % 4096);
  return lengths;
}

TEST(AesKeyWrap, Rfc5649MatchesOpenSslWrapPadBothDirections) {
  std::mt19937_64 rng(0x5649);
  int cases = 0;
  for (std::size_t len : kwp_lengths(rng)) {
    const Aes128::Key k = random_key(rng);
    const Aes128 kek(k);
    const Bytes p = random_bytes(rng, len);
    const Bytes ours = key_wrap_pad(kek, p);
    ASSERT_EQ(ours.size(), key_wrap_pad_wrapped_size(len)) << "length " << len;
    const auto theirs = evp_wrap(EVP_aes_128_wrap_pad(), true, k.data(), p);
    ASSERT_TRUE(theirs.has_value()) << "OpenSSL wrap failed, length " << len;
    EXPECT_EQ(ours, *theirs) << "wrap mismatch, length " << len;
    EXPECT_EQ(key_unwrap_pad(kek, *theirs), p) << "our unwrap of OpenSSL's blob, length " << len;
    EXPECT_EQ(evp_wrap(EVP_aes_128_wrap_pad(), false, k.data(), ours), p)
        << "OpenSSL unwrap of our blob, length " << len;
    ++cases;
  }
  EXPECT_GT(cases, 200);
}

TEST(AesKeyWrap, Rfc3394MatchesOpenSslWrapBothDirections) {
  std::mt19937_64 rng(0x3394);
  std::vector<std::size_t> lengths;
  for (std::size_t len = 16; len <= 256; len += 8) lengths.push_back(len);
  for (std::size_t len : {3288, 3296, 4096}) lengths.push_back(len);
  for (int i = 0; i < 100; ++i) lengths.push_back(8 * (2 + rng() % 511));
  for (std::size_t len : lengths) {
    const Aes128::Key k = random_key(rng);
    const Aes128 kek(k);
    const Bytes p = random_bytes(rng, len);
    const Bytes ours = key_wrap(kek, p);
    ASSERT_EQ(ours.size(), len + 8);
    const auto theirs = evp_wrap(EVP_aes_128_wrap(), true, k.data(), p);
    ASSERT_TRUE(theirs.has_value()) << "OpenSSL wrap failed, length " << len;
    EXPECT_EQ(ours, *theirs) << "wrap mismatch, length " << len;
    EXPECT_EQ(key_unwrap(kek, *theirs), p) << "our unwrap of OpenSSL's blob, length " << len;
    EXPECT_EQ(evp_wrap(EVP_aes_128_wrap(), false, k.data(), ours), p)
        << "OpenSSL unwrap of our blob, length " << len;
  }
}

TEST(AesKeyWrap, Rfc3394AlternativeIvMatchesOpenSsl) {
  std::mt19937_64 rng(0xa17);
  const Aes128::Key k = random_key(rng);
  const Aes128 kek(k);
  const Bytes p = random_bytes(rng, 32);
  const std::uint64_t iv = 0x0123456789ABCDEFULL;
  const std::array<std::uint8_t, 8> iv_bytes = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};
  const Bytes ours = key_wrap(kek, p, iv);
  EXPECT_EQ(evp_wrap(EVP_aes_128_wrap(), true, k.data(), p, iv_bytes.data()), ours);
  EXPECT_NE(ours, key_wrap(kek, p));
  EXPECT_EQ(key_unwrap(kek, ours, iv), p);
  EXPECT_FALSE(key_unwrap(kek, ours).has_value());  // checked against the default IV: fails
}

// --- integrity failures ------------------------------------------------------------------------------------

Bytes flip_bit(Bytes b, std::size_t bit) {
  b[bit / 8] = static_cast<std::uint8_t>(b[bit / 8] ^ (1u << (bit % 8)));
  return b;
}

TEST(AesKeyWrap, TamperedBlobFailsForEveryFlippedBit) {
  std::mt19937_64 rng(0x7a3);
  const Aes128 kek(random_key(rng));
  int checked = 0;
  for (std::size_t len : {16, 24, 40}) {
    const Bytes c = key_wrap(kek, random_bytes(rng, len));
    for (std::size_t bit = 0; bit < 8 * c.size(); ++bit, ++checked) {
      EXPECT_FALSE(key_unwrap(kek, flip_bit(c, bit)).has_value()) << "KW length " << len << " bit " << bit;
    }
  }
  for (std::size_t len = 1; len <= 17; ++len) {  // n = 1 (single block), 2 and 3
    const Bytes c = key_wrap_pad(kek, random_bytes(rng, len));
    for (std::size_t bit = 0; bit < 8 * c.size(); ++bit, ++checked) {
      EXPECT_FALSE(key_unwrap_pad(kek, flip_bit(c, bit)).has_value())
          << "KWP length " << len << " bit " << bit;
    }
  }
  EXPECT_GT(checked, 2000);
}

TEST(AesKeyWrap, TamperedHsmSizedBlobFails) {
  std::mt19937_64 rng(0x3290);
  const Aes128 kek(random_key(rng));
  const Bytes p = random_bytes(rng, 3290);
  const Bytes c = key_wrap_pad(kek, p);
  ASSERT_EQ(key_unwrap_pad(kek, c), p);
  std::vector<std::size_t> bytes;
  for (std::size_t i = 0; i < 16; ++i) bytes.push_back(i);                    // A and the first semiblock
  for (std::size_t i = c.size() - 16; i < c.size(); ++i) bytes.push_back(i);  // the last two semiblocks
  for (std::size_t i = 16; i < c.size() - 16; i += 29) bytes.push_back(i);
  for (std::size_t byte : bytes) {
    const std::size_t bit = 8 * byte + rng() % 8;
    EXPECT_FALSE(key_unwrap_pad(kek, flip_bit(c, bit)).has_value()) << "bit " << bit;
  }
  // Truncated, extended and reordered blobs.
  EXPECT_FALSE(key_unwrap_pad(kek, Bytes(c.begin(), c.end() - 8)).has_value());
  Bytes longer = c;
  longer.insert(longer.end(), 8, 0);
  EXPECT_FALSE(key_unwrap_pad(kek, longer).has_value());
  Bytes swapped = c;
  std::swap_ranges(swapped.begin() + 8, swapped.begin() + 16, swapped.begin() + 16);
  EXPECT_FALSE(key_unwrap_pad(kek, swapped).has_value());
}

TEST(AesKeyWrap, WrongKekFails) {
  std::mt19937_64 rng(0xbad);
  const Aes128::Key k = random_key(rng);
  const Aes128 kek(k);
  const Bytes kw = key_wrap(kek, random_bytes(rng, 32));
  const Bytes kwp_single = key_wrap_pad(kek, random_bytes(rng, 5));  // n == 1
  const Bytes kwp_multi = key_wrap_pad(kek, random_bytes(rng, 37));
  const Bytes kwp_hsm = key_wrap_pad(kek, random_bytes(rng, 3290));
  std::vector<Aes128::Key> wrong;
  for (std::size_t bit = 0; bit < 128; ++bit) {  // every KEK one bit away
    Aes128::Key w = k;
    w[bit / 8] = static_cast<std::uint8_t>(w[bit / 8] ^ (1u << (bit % 8)));
    wrong.push_back(w);
  }
  for (int i = 0; i < 50; ++i) wrong.push_back(random_key(rng));
  for (const auto& w : wrong) {
    const Aes128 other(w);
    EXPECT_FALSE(key_unwrap(other, kw).has_value());
    EXPECT_FALSE(key_unwrap_pad(other, kwp_single).has_value());
    EXPECT_FALSE(key_unwrap_pad(other, kwp_multi).has_value());
  }
  for (std::size_t i = 0; i < 8; ++i) EXPECT_FALSE(key_unwrap_pad(Aes128(wrong[i]), kwp_hsm).has_value());
}

// Blobs whose recovered A || P violates one RFC 5649 section 3 check at a time, built with the KEK: for n > 1
// the KWP wrapping is the RFC 3394 process with A as the IV; for n == 1 it is one encryption of A || P.
Bytes kwp_blob(const Aes128& kek, std::uint64_t a, const Bytes& padded) {
  if (padded.size() > 8) return key_wrap(kek, padded, a);
  Bytes block(16);
  for (int k = 0; k < 8; ++k)
    block[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(a >> (56 - 8 * k));
  std::copy(padded.begin(), padded.end(), block.begin() + 8);
  kek.encrypt(block.data(), block.data());
  return block;
}

TEST(AesKeyWrap, Rfc5649UnwrapChecksAivMliAndPadding) {
  std::mt19937_64 rng(0xa1f);
  const Aes128::Key k = random_key(rng);
  const Aes128 kek(k);
  const std::uint64_t aiv = std::uint64_t{kKeyWrapPadAivConstant} << 32;
  for (std::size_t n : {1, 2, 5}) {
    Bytes padded = random_bytes(rng, 8 * n);
    const std::size_t mli = 8 * n - 3;  // three bytes of padding
    std::fill(padded.end() - 3, padded.end(), 0);
    // Positive controls: zero padding with MLI 8n - 3, and no padding with MLI 8n.
    const Bytes good = kwp_blob(kek, aiv | mli, padded);
    EXPECT_EQ(key_unwrap_pad(kek, good),
              Bytes(padded.begin(), padded.begin() + static_cast<std::ptrdiff_t>(mli)))
        << n;
    EXPECT_EQ(key_unwrap_pad(kek, kwp_blob(kek, aiv | (8 * n), padded)), padded) << n;
    std::vector<Bytes> bad = {
        kwp_blob(kek, (aiv ^ (std::uint64_t{1} << 32)) | mli, padded),  // AIV constant A65959A7
        kwp_blob(kek, kKeyWrapDefaultIv, padded),                       // the RFC 3394 IV
        kwp_blob(kek, aiv | 0, padded),                                 // MLI 0
        kwp_blob(kek, aiv | (8 * n - 8), padded),  // MLI = 8(n-1): a whole semiblock of padding
        kwp_blob(kek, aiv | (8 * n + 1), padded),  // MLI > 8n
        kwp_blob(kek, aiv | 0xFFFFFFFFULL, padded),
    };
    Bytes zero_tail = padded;  // MLI = 8(n-1) with a zero last semiblock: fails only the MLI range check
    std::fill(zero_tail.end() - 8, zero_tail.end(), 0);
    bad.push_back(kwp_blob(kek, aiv | (8 * n - 8), zero_tail));
    for (std::size_t pos = 8 * n - 3; pos < 8 * n; ++pos) {  // one non-zero padding byte
      Bytes p2 = padded;
      p2[pos] = 0x01;
      bad.push_back(kwp_blob(kek, aiv | mli, p2));
    }
    for (std::size_t i = 0; i < bad.size(); ++i) {
      EXPECT_FALSE(key_unwrap_pad(kek, bad[i]).has_value()) << "n " << n << " case " << i;
      EXPECT_FALSE(evp_wrap(EVP_aes_128_wrap_pad(), false, k.data(), bad[i]).has_value())
          << "OpenSSL accepted n " << n << " case " << i;
    }
  }
}

TEST(AesKeyWrap, KwAndKwpBlobsAreNotInterchangeable) {
  std::mt19937_64 rng(0x1f);
  const Aes128 kek(random_key(rng));
  for (std::size_t len : {16, 24, 64}) {
    const Bytes p = random_bytes(rng, len);
    EXPECT_FALSE(key_unwrap_pad(kek, key_wrap(kek, p)).has_value()) << len;
    EXPECT_FALSE(key_unwrap(kek, key_wrap_pad(kek, p)).has_value()) << len;
  }
}

TEST(AesKeyWrap, MalformedLengthsRejectedWithoutBlockOperations) {
  std::mt19937_64 rng(0x1e);
  const Aes128 kek(random_key(rng));
  CountingCipher counter(aes_block_cipher(kek));
  const Bytes junk = random_bytes(rng, 64);
  for (std::size_t len : {0, 1, 7, 8, 15, 16, 17, 23, 25, 63}) {  // KW needs 8*(n+1) bytes with n >= 2
    EXPECT_FALSE(key_unwrap(counter.fn(), junk.data(), len).has_value()) << len;
    EXPECT_EQ(key_wrap_block_operations(len), 0u) << len;
  }
  for (std::size_t len : {0, 1, 7, 8, 15, 17, 23, 25, 63}) {  // KWP needs 8*(n+1) bytes with n >= 1
    EXPECT_FALSE(key_unwrap_pad(counter.fn(), junk.data(), len).has_value()) << len;
    EXPECT_EQ(key_wrap_pad_block_operations(len), 0u) << len;
  }
  EXPECT_EQ(counter.total(), 0u);
  // Valid lengths with random contents fail the integrity check, after the full count of operations.
  EXPECT_FALSE(key_unwrap(counter.fn(), junk.data(), 24).has_value());
  EXPECT_EQ(counter.decryptions(), 12u);
  counter.reset();
  EXPECT_FALSE(key_unwrap_pad(counter.fn(), junk.data(), 16).has_value());
  EXPECT_EQ(counter.decryptions(), 1u);
}

TEST(AesKeyWrap, WrapRejectsInvalidArguments) {
  const Aes128 kek(Aes128::Key{});
  const BlockCipher cipher = aes_block_cipher(kek);
  for (std::size_t len : {0, 8, 15, 17, 20}) {
    EXPECT_THROW(key_wrap(cipher, Bytes(len, 0)), std::invalid_argument) << len;
  }
  EXPECT_THROW(key_wrap_pad(cipher, Bytes{}), std::invalid_argument);
  EXPECT_THROW(key_wrap_pad_wrapped_size(0), std::invalid_argument);
  const BlockCipher empty;
  EXPECT_THROW(key_wrap(empty, Bytes(16, 0)), std::invalid_argument);
  EXPECT_THROW(key_unwrap(empty, Bytes(24, 0)), std::invalid_argument);
  EXPECT_THROW(key_wrap_pad(empty, Bytes(1, 0)), std::invalid_argument);
  EXPECT_THROW(key_unwrap_pad(empty, Bytes(16, 0)), std::invalid_argument);
}

TEST(AesKeyWrap, BlockCipherExceptionPropagates) {
  const Aes128 kek(Aes128::Key{});
  int calls = 0;
  const BlockCipher flaky = [&](bool encrypt, const std::uint8_t* in, std::uint8_t* out) {
    if (++calls == 7) throw std::runtime_error("bus error");
    encrypt ? kek.encrypt(in, out) : kek.decrypt(in, out);
  };
  EXPECT_THROW(key_wrap_pad(flaky, Bytes(40, 1)), std::runtime_error);
  calls = 0;
  EXPECT_THROW(key_unwrap_pad(flaky, key_wrap_pad(kek, Bytes(40, 1))), std::runtime_error);
}

// --- block operation counts --------------------------------------------------------------------------------

TEST(AesKeyWrap, HsmKeyBlobCosts2472BlockOperations) {
  // Cryptech-style private key blob: 3,290 bytes -> n = 412 semiblocks -> 6 * 412 = 2,472 AES block
  // operations.
  std::mt19937_64 rng(0x9a8);
  const Aes128 kek(random_key(rng));
  const Bytes p = random_bytes(rng, 3290);
  ASSERT_EQ(key_wrap_pad_wrapped_size(3290), 3304u);
  CountingCipher counter(aes_block_cipher(kek));

  const Bytes c = key_wrap_pad(counter.fn(), p);
  ASSERT_EQ(c.size(), 3304u);
  EXPECT_EQ(counter.encryptions(), 2472u);
  EXPECT_EQ(counter.decryptions(), 0u);
  // First wrap step (j = 0, i = 1): AIV = A65959A6 || 00000CDA (3290), then P[1].
  const std::array<std::uint8_t, 8> aiv = {0xA6, 0x59, 0x59, 0xA6, 0x00, 0x00, 0x0C, 0xDA};
  EXPECT_TRUE(std::equal(aiv.begin(), aiv.end(), counter.first_in().begin()));
  EXPECT_TRUE(std::equal(p.begin(), p.begin() + 8, counter.first_in().begin() + 8));

  counter.reset();
  EXPECT_EQ(key_unwrap_pad(counter.fn(), c), p);
  EXPECT_EQ(counter.decryptions(), 2472u);
  EXPECT_EQ(counter.encryptions(), 0u);
  EXPECT_EQ(key_wrap_pad_block_operations(c.size()), 2472u);
  // First unwrap step (j = 5, i = n): (C[0] ^ t) || C[n] with t = 6n = 2472 = 0x9A8.
  std::array<std::uint8_t, 16> expect{};
  std::copy(c.begin(), c.begin() + 8, expect.begin());
  expect[6] ^= 0x09;
  expect[7] ^= 0xA8;
  std::copy(c.end() - 8, c.end(), expect.begin() + 8);
  EXPECT_EQ(counter.first_in(), expect);

  // A tampered blob costs the same before being rejected.
  counter.reset();
  EXPECT_FALSE(key_unwrap_pad(counter.fn(), flip_bit(c, 1000)).has_value());
  EXPECT_EQ(counter.decryptions(), 2472u);
}

TEST(AesKeyWrap, OperationCountsMatchFormulaAndHelpers) {
  std::mt19937_64 rng(0xc0);
  const Aes128 kek(random_key(rng));
  CountingCipher counter(aes_block_cipher(kek));
  for (std::size_t len = 1; len <= 300; ++len) {
    const std::size_t n = ceil8(len);
    const std::size_t ops = n == 1 ? 1 : 6 * n;
    counter.reset();
    const Bytes c = key_wrap_pad(counter.fn(), random_bytes(rng, len));
    EXPECT_EQ(counter.encryptions(), ops) << "KWP wrap " << len;
    EXPECT_EQ(counter.decryptions(), 0u);
    counter.reset();
    EXPECT_TRUE(key_unwrap_pad(counter.fn(), c).has_value());
    EXPECT_EQ(counter.decryptions(), ops) << "KWP unwrap " << len;
    EXPECT_EQ(counter.encryptions(), 0u);
    EXPECT_EQ(key_wrap_pad_block_operations(c.size()), ops) << len;
    if (len % 8 == 0 && len >= 16) {
      counter.reset();
      const Bytes ckw = key_wrap(counter.fn(), random_bytes(rng, len));
      EXPECT_EQ(counter.encryptions(), 6 * n) << "KW wrap " << len;
      counter.reset();
      EXPECT_TRUE(key_unwrap(counter.fn(), ckw).has_value());
      EXPECT_EQ(counter.decryptions(), 6 * n) << "KW unwrap " << len;
      EXPECT_EQ(key_wrap_block_operations(ckw.size()), 6 * n) << len;
    }
  }
}

// --- the pluggable block operation -------------------------------------------------------------------------

TEST(AesKeyWrap, RoundTripWithAes128BlockCipher) {
  std::mt19937_64 rng(0x77);
  for (int i = 0; i < 40; ++i) {
    const Aes128 kek(random_key(rng));
    const BlockCipher cipher = aes_block_cipher(kek);
    const std::size_t len = 1 + rng() % 600;
    const Bytes p = random_bytes(rng, len);
    const Bytes c = key_wrap_pad(cipher, p);
    EXPECT_EQ(c, key_wrap_pad(kek, p));
    EXPECT_EQ(key_unwrap_pad(cipher, c.data(), c.size()), p);
    const Bytes pkw = random_bytes(rng, 8 * (2 + rng() % 70));
    const Bytes ckw = key_wrap(cipher, pkw.data(), pkw.size());
    EXPECT_EQ(ckw, key_wrap(kek, pkw));
    EXPECT_EQ(key_unwrap(cipher, ckw), pkw);
  }
}

}  // namespace
}  // namespace rsoc::crypto
