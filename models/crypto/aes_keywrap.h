#pragma once
// AES key wrap (RFC 3394; NIST SP 800-38F "KW") and AES key wrap with padding (RFC 5649; SP 800-38F "KWP"),
// expressed over a pluggable single-block AES operation so that each block operation can be carried out by a
// model of an AES IP core (for example over a slow bus) and counted.
//
// Terms (RFC 3394 section 2.1): a semiblock is 8 bytes; the key-encryption key (KEK) lives inside the block
// operation, which this code never sees. All 64-bit values (IV, A, the counter t) are big-endian in the byte
// strings.
//
// What the functions compute:
// - key_wrap / key_unwrap: RFC 3394 sections 2.2.1 / 2.2.2, the index-based forms (step "2) Calculate
//   intermediate values": j = 0..5, i = 1..n to wrap; j = 5..0, i = n..1 to unwrap; t = n*j + i). Integrity
//   check, RFC 3394 section 2.2.3: the recovered A must equal the IV, by default A6A6A6A6A6A6A6A6 (section
//   2.2.3.1); any other 64-bit value may be passed as an alternative IV (section 2.2.3.2). Plaintext: n >= 2
//   semiblocks (a multiple of 8 bytes, at least 16). Ciphertext: n + 1 semiblocks.
// - key_wrap_pad / key_unwrap_pad: RFC 5649 sections 4.1 / 4.2. Alternative initial value (section 3)
//   AIV = A65959A6 || MLI, MLI = plaintext length L in bytes as 32-bit big-endian; the plaintext is
//   zero-padded to n = ceil(L/8) semiblocks. If n == 1 the single block AIV || P is encrypted once (AES-ECB),
//   otherwise the RFC 3394 wrapping process runs with AIV as its IV. Unwrap checks (section 3): the high 32
//   bits of A are A65959A6, 8*(n-1) < MLI <= 8*n, and the 8*n - MLI padding bytes are zero. Plaintext:
//   1 .. 2^32-1 bytes. Ciphertext: 8*(ceil(L/8) + 1) bytes.
//
// Guarantees:
// - Block operations: wrapping n > 1 semiblocks makes exactly 6*n calls, all with encrypt == true;
//   unwrapping a ciphertext of n + 1 semiblocks (n > 1) makes exactly 6*n calls, all with encrypt == false,
//   and makes all of them even when the integrity check then fails (the check needs the final A). RFC 5649
//   with n == 1 makes exactly one call in either direction. key_wrap_block_operations and
//   key_wrap_pad_block_operations give these counts from the ciphertext length.
// - Failure reporting: unwrap returns std::optional and never throws because of the ciphertext's contents.
//   A ciphertext of an impossible length (not a multiple of 8, too short, or for RFC 5649 too long for a
//   32-bit MLI) gives std::nullopt before any block operation; one that fails the integrity check (wrong KEK,
//   tampered, truncated or extended blob, a KW blob given to KWP unwrap or vice versa) gives std::nullopt
//   after the block operations above. No unverified plaintext is ever returned. A wrong KEK or a modified
//   ciphertext passes only with negligible probability: the recovered A is then effectively random and must
//   match 64 checked bits (RFC 3394), or the 32-bit constant, the MLI range and the zero padding (RFC 5649).
// - Wrap throws std::invalid_argument for a plaintext length the RFC does not allow; wrap and unwrap throw
//   std::invalid_argument for an empty BlockCipher. Exceptions thrown by the BlockCipher (e.g. a modelled bus
//   error) propagate unchanged, and nothing is returned.
// - Not constant-time, and intermediate buffers are not zeroised: like the rest of rsoc::crypto, this models
//   the values a device computes and is not meant to protect real secrets.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "models/crypto/aes128.h"

namespace rsoc::crypto {

// One single-block AES operation under the KEK: the FIPS-197 cipher if `encrypt`, the inverse cipher
// otherwise. `in` and `out` each point to 16 bytes that stay valid only during the call; they never alias.
// The wrap and unwrap functions call it synchronously, one block at a time, in the RFC 3394 order.
using BlockCipher = std::function<void(bool encrypt, const std::uint8_t* in, std::uint8_t* out)>;

// A BlockCipher that runs `kek` (AES-128 or AES-256) in software. It keeps a reference: `kek` must outlive
// the returned function.
template <int kKeyWords>
BlockCipher aes_block_cipher(const AesCipher<kKeyWords>& kek) {
  return [&kek](bool encrypt, const std::uint8_t* in, std::uint8_t* out) {
    if (encrypt) {
      kek.encrypt(in, out);
    } else {
      kek.decrypt(in, out);
    }
  };
}

inline constexpr std::size_t kKeyWrapSemiblockBytes = 8;
// RFC 3394 section 2.2.3.1 default initial value.
inline constexpr std::uint64_t kKeyWrapDefaultIv = 0xA6A6A6A6A6A6A6A6ULL;
// RFC 5649 section 3: the constant high half of the alternative initial value (the low half is the MLI).
inline constexpr std::uint32_t kKeyWrapPadAivConstant = 0xA65959A6U;

using KeyWrapBytes = std::vector<std::uint8_t>;

// --- RFC 3394 ----------------------------------------------------------------------------------------------
// Wraps `len` bytes (a multiple of 8, at least 16); returns len + 8 bytes.
KeyWrapBytes key_wrap(const BlockCipher& cipher, const std::uint8_t* plaintext, std::size_t len,
                      std::uint64_t iv = kKeyWrapDefaultIv);
KeyWrapBytes key_wrap(const BlockCipher& cipher, const KeyWrapBytes& plaintext,
                      std::uint64_t iv = kKeyWrapDefaultIv);
KeyWrapBytes key_wrap(const Aes128& kek, const KeyWrapBytes& plaintext, std::uint64_t iv = kKeyWrapDefaultIv);

// Unwraps `len` bytes; returns len - 8 bytes, or std::nullopt (see "Failure reporting" above).
std::optional<KeyWrapBytes> key_unwrap(const BlockCipher& cipher, const std::uint8_t* ciphertext,
                                       std::size_t len, std::uint64_t iv = kKeyWrapDefaultIv);
std::optional<KeyWrapBytes> key_unwrap(const BlockCipher& cipher, const KeyWrapBytes& ciphertext,
                                       std::uint64_t iv = kKeyWrapDefaultIv);
std::optional<KeyWrapBytes> key_unwrap(const Aes128& kek, const KeyWrapBytes& ciphertext,
                                       std::uint64_t iv = kKeyWrapDefaultIv);

// --- RFC 5649 ----------------------------------------------------------------------------------------------
// Wraps 1 .. 2^32-1 bytes; returns key_wrap_pad_wrapped_size(len) bytes.
KeyWrapBytes key_wrap_pad(const BlockCipher& cipher, const std::uint8_t* plaintext, std::size_t len);
KeyWrapBytes key_wrap_pad(const BlockCipher& cipher, const KeyWrapBytes& plaintext);
KeyWrapBytes key_wrap_pad(const Aes128& kek, const KeyWrapBytes& plaintext);

// Unwraps `len` bytes; returns the MLI bytes of plaintext (padding removed), or std::nullopt.
std::optional<KeyWrapBytes> key_unwrap_pad(const BlockCipher& cipher, const std::uint8_t* ciphertext,
                                           std::size_t len);
std::optional<KeyWrapBytes> key_unwrap_pad(const BlockCipher& cipher, const KeyWrapBytes& ciphertext);
std::optional<KeyWrapBytes> key_unwrap_pad(const Aes128& kek, const KeyWrapBytes& ciphertext);

// --- cost accounting ---------------------------------------------------------------------------------------
// Length of the RFC 5649 wrapping of `plaintext_len` bytes: 8 * (ceil(plaintext_len / 8) + 1). Throws
// std::invalid_argument if plaintext_len is 0 or above 2^32-1 (key_wrap_pad would refuse it).
std::size_t key_wrap_pad_wrapped_size(std::size_t plaintext_len);

// Block operations that key_unwrap makes on a ciphertext of `ciphertext_len` bytes (6 * n, n = len / 8 - 1),
// which is also what key_wrap makes to produce it; 0 for a length key_unwrap rejects without any block
// operation.
std::size_t key_wrap_block_operations(std::size_t ciphertext_len);

// The same for key_unwrap_pad / key_wrap_pad: with n = len / 8 - 1 semiblocks (n = ceil(L / 8) for a
// plaintext of L bytes), 6 * n if n > 1 and 1 if n == 1; 0 for a length key_unwrap_pad rejects outright. E.g.
// a 3,290-byte plaintext: n = 412, a 3,304-byte wrapping, 2,472 block operations.
std::size_t key_wrap_pad_block_operations(std::size_t ciphertext_len);

}  // namespace rsoc::crypto
