#include "models/crypto/aes_keywrap.h"

#include <array>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/crypto/bytes.h"

namespace rsoc::crypto {
namespace {

constexpr std::size_t kSemi = kKeyWrapSemiblockBytes;
// RFC 5649: MLI is 32 bits, so at most 2^32 - 1 plaintext bytes, i.e. ceil((2^32 - 1) / 8) = 2^29 semiblocks.
constexpr std::uint64_t kMaxPadPlaintext = 0xFFFFFFFFULL;
constexpr std::uint64_t kMaxPadSemiblocks = std::uint64_t{1} << 29;

using Block = std::array<std::uint8_t, 16>;

void require_cipher(const BlockCipher& cipher, const char* what) {
  if (!cipher) throw std::invalid_argument(std::string(what) + ": empty BlockCipher");
}

// RFC 3394 section 2.2.1, index-based form: A = a, R[1..n] = r[0..8n); 6n encryptions; returns the final A
// and leaves the final R[1..n] in r.
std::uint64_t wrap_rounds(const BlockCipher& cipher, std::uint64_t a, std::uint8_t* r, std::size_t n) {
  Block in{}, out{};
  for (std::uint64_t j = 0; j <= 5; ++j) {
    for (std::size_t i = 1; i <= n; ++i) {
      std::uint8_t* ri = r + (i - 1) * kSemi;
      store_be64(in.data(), a);
      std::memcpy(in.data() + kSemi, ri, kSemi);
      cipher(true, in.data(), out.data());  // B = AES(K, A | R[i])
      const std::uint64_t t = n * j + i;
      a = load_be64(out.data()) ^ t;               // A = MSB(64, B) ^ t
      std::memcpy(ri, out.data() + kSemi, kSemi);  // R[i] = LSB(64, B)
    }
  }
  return a;
}

// RFC 3394 section 2.2.2, index-based form: A = a (C[0]), R[1..n] = r; 6n decryptions; returns the recovered
// A and leaves P[1..n] in r.
std::uint64_t unwrap_rounds(const BlockCipher& cipher, std::uint64_t a, std::uint8_t* r, std::size_t n) {
  Block in{}, out{};
  for (std::uint64_t j = 6; j-- > 0;) {
    for (std::size_t i = n; i >= 1; --i) {
      std::uint8_t* ri = r + (i - 1) * kSemi;
      const std::uint64_t t = n * j + i;
      store_be64(in.data(), a ^ t);
      std::memcpy(in.data() + kSemi, ri, kSemi);
      cipher(false, in.data(), out.data());        // B = AES-1(K, (A ^ t) | R[i])
      a = load_be64(out.data());                   // A = MSB(64, B)
      std::memcpy(ri, out.data() + kSemi, kSemi);  // R[i] = LSB(64, B)
    }
  }
  return a;
}

// Semiblock count n of a wrapped blob (n + 1 semiblocks), or 0 if `len` is not a whole number of at least
// `min_semiblocks` + 1 semiblocks.
std::size_t wrapped_semiblocks(std::size_t len, std::size_t min_semiblocks) {
  if (len % kSemi != 0 || len / kSemi < min_semiblocks + 1) return 0;
  return len / kSemi - 1;
}

std::size_t pad_semiblocks(std::size_t ciphertext_len) {
  const std::size_t n = wrapped_semiblocks(ciphertext_len, 1);
  return static_cast<std::uint64_t>(n) > kMaxPadSemiblocks ? 0 : n;
}

}  // namespace

// --- RFC 3394 ----------------------------------------------------------------------------------------------

KeyWrapBytes key_wrap(const BlockCipher& cipher, const std::uint8_t* plaintext, std::size_t len,
                      std::uint64_t iv) {
  require_cipher(cipher, "key_wrap");
  if (len % kSemi != 0 || len < 2 * kSemi) {
    throw std::invalid_argument(
        "key_wrap: plaintext must be a multiple of 8 bytes and at least 16 bytes, got " +
        std::to_string(len));
  }
  KeyWrapBytes c(len + kSemi);
  std::memcpy(c.data() + kSemi, plaintext, len);
  store_be64(c.data(), wrap_rounds(cipher, iv, c.data() + kSemi, len / kSemi));
  return c;
}

KeyWrapBytes key_wrap(const BlockCipher& cipher, const KeyWrapBytes& plaintext, std::uint64_t iv) {
  return key_wrap(cipher, plaintext.data(), plaintext.size(), iv);
}

KeyWrapBytes key_wrap(const Aes128& kek, const KeyWrapBytes& plaintext, std::uint64_t iv) {
  return key_wrap(aes_block_cipher(kek), plaintext, iv);
}

std::optional<KeyWrapBytes> key_unwrap(const BlockCipher& cipher, const std::uint8_t* ciphertext,
                                       std::size_t len, std::uint64_t iv) {
  require_cipher(cipher, "key_unwrap");
  const std::size_t n = wrapped_semiblocks(len, 2);
  if (n == 0) return std::nullopt;
  KeyWrapBytes p(ciphertext + kSemi, ciphertext + len);
  const std::uint64_t a = unwrap_rounds(cipher, load_be64(ciphertext), p.data(), n);
  if (a != iv) return std::nullopt;
  return p;
}

std::optional<KeyWrapBytes> key_unwrap(const BlockCipher& cipher, const KeyWrapBytes& ciphertext,
                                       std::uint64_t iv) {
  return key_unwrap(cipher, ciphertext.data(), ciphertext.size(), iv);
}

std::optional<KeyWrapBytes> key_unwrap(const Aes128& kek, const KeyWrapBytes& ciphertext, std::uint64_t iv) {
  return key_unwrap(aes_block_cipher(kek), ciphertext, iv);
}

// --- RFC 5649 ----------------------------------------------------------------------------------------------

KeyWrapBytes key_wrap_pad(const BlockCipher& cipher, const std::uint8_t* plaintext, std::size_t len) {
  require_cipher(cipher, "key_wrap_pad");
  const std::size_t wrapped = key_wrap_pad_wrapped_size(len);  // validates len
  const std::size_t n = wrapped / kSemi - 1;
  const std::uint64_t aiv = (std::uint64_t{kKeyWrapPadAivConstant} << 32) | static_cast<std::uint64_t>(len);
  KeyWrapBytes c(wrapped, 0);  // A | P | zero padding
  std::memcpy(c.data() + kSemi, plaintext, len);
  if (n == 1) {
    // RFC 5649 section 4.1: exactly one semiblock after padding -> C[0] | C[1] = ENC(K, AIV | P[1]).
    Block in{};
    store_be64(in.data(), aiv);
    std::memcpy(in.data() + kSemi, c.data() + kSemi, kSemi);
    cipher(true, in.data(), c.data());
    return c;
  }
  store_be64(c.data(), wrap_rounds(cipher, aiv, c.data() + kSemi, n));
  return c;
}

KeyWrapBytes key_wrap_pad(const BlockCipher& cipher, const KeyWrapBytes& plaintext) {
  return key_wrap_pad(cipher, plaintext.data(), plaintext.size());
}

KeyWrapBytes key_wrap_pad(const Aes128& kek, const KeyWrapBytes& plaintext) {
  return key_wrap_pad(aes_block_cipher(kek), plaintext);
}

std::optional<KeyWrapBytes> key_unwrap_pad(const BlockCipher& cipher, const std::uint8_t* ciphertext,
                                           std::size_t len) {
  require_cipher(cipher, "key_unwrap_pad");
  const std::size_t n = pad_semiblocks(len);
  if (n == 0) return std::nullopt;
  KeyWrapBytes p(n * kSemi);
  std::uint64_t a = 0;
  if (n == 1) {
    // RFC 5649 section 4.2: A | P[1] = DEC(K, C[0] | C[1]).
    Block out{};
    cipher(false, ciphertext, out.data());
    a = load_be64(out.data());
    std::memcpy(p.data(), out.data() + kSemi, kSemi);
  } else {
    std::memcpy(p.data(), ciphertext + kSemi, n * kSemi);
    a = unwrap_rounds(cipher, load_be64(ciphertext), p.data(), n);
  }
  // RFC 5649 section 3: AIV constant, 8 * (n - 1) < MLI <= 8 * n, and zero padding. The padding scan covers
  // the whole last semiblock whatever MLI is, so it never reads outside p.
  const std::uint64_t mli = a & 0xFFFFFFFFULL;
  bool ok = (a >> 32) == kKeyWrapPadAivConstant;
  ok = ok && mli > 8 * (static_cast<std::uint64_t>(n) - 1) && mli <= 8 * static_cast<std::uint64_t>(n);
  std::uint8_t padding_bits = 0;
  for (std::size_t k = (n - 1) * kSemi; k < n * kSemi; ++k) {
    if (k >= mli) padding_bits |= p[k];
  }
  if (!ok || padding_bits != 0) return std::nullopt;
  p.resize(static_cast<std::size_t>(mli));
  return p;
}

std::optional<KeyWrapBytes> key_unwrap_pad(const BlockCipher& cipher, const KeyWrapBytes& ciphertext) {
  return key_unwrap_pad(cipher, ciphertext.data(), ciphertext.size());
}

std::optional<KeyWrapBytes> key_unwrap_pad(const Aes128& kek, const KeyWrapBytes& ciphertext) {
  return key_unwrap_pad(aes_block_cipher(kek), ciphertext);
}

// --- cost accounting ---------------------------------------------------------------------------------------

std::size_t key_wrap_pad_wrapped_size(std::size_t plaintext_len) {
  if (plaintext_len == 0 || static_cast<std::uint64_t>(plaintext_len) > kMaxPadPlaintext) {
    throw std::invalid_argument("key_wrap_pad: plaintext must be 1 .. 2^32-1 bytes, got " +
                                std::to_string(plaintext_len));
  }
  return (plaintext_len + kSemi - 1) / kSemi * kSemi + kSemi;
}

std::size_t key_wrap_block_operations(std::size_t ciphertext_len) {
  return 6 * wrapped_semiblocks(ciphertext_len, 2);
}

std::size_t key_wrap_pad_block_operations(std::size_t ciphertext_len) {
  const std::size_t n = pad_semiblocks(ciphertext_len);
  return n == 1 ? 1 : 6 * n;
}

}  // namespace rsoc::crypto
