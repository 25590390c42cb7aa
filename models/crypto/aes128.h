#pragma once
// AES-128 and AES-256 block ciphers (FIPS-197, Advanced Encryption Standard), single-block ECB primitives:
// AesCipher<Nk> for a key of Nk 32-bit words (Nr = Nk + 6 rounds), Aes128 and Aes256.
//
// Table-driven implementation: the S-box, its inverse and the combined SubBytes/ShiftRows/MixColumns tables
// ("T-tables") are generated at compile time from the GF(2^8) definition in FIPS-197 section 4. The key
// expansion (FIPS-197 section 5.2) runs once in the constructor; decryption uses the equivalent inverse
// cipher (FIPS-197 section 5.3.5) with pre-transformed round keys. Blocks and keys are byte arrays in the
// FIPS-197 input order (byte 0 is in[0]).
//
// Not constant-time: table lookups are indexed by secret data. This library models the values computed by
// hardware cores and software routines inside a simulator; it is not meant to protect real secrets.
//
// Speed: on an x86-64 host whose CPU has the AES instructions (AES-NI, checked once at run time with CPUID),
// encrypt and decrypt run on them instead of the tables, from the same round keys (the tables' schedule in
// FIPS-197 byte order): the same bytes, several times faster. Implementation::kTables forces the tables
// (the tests compare both).
#include <array>
#include <cstddef>
#include <cstdint>

namespace rsoc::crypto {

template <int kKeyWords>
class AesCipher {
  static_assert(kKeyWords == 4 || kKeyWords == 8, "AES-128 or AES-256");

 public:
  static constexpr int kRounds = kKeyWords + 6;
  static constexpr std::size_t kBlockBytes = 16;
  static constexpr std::size_t kKeyBytes = 4 * kKeyWords;

  using Key = std::array<std::uint8_t, kKeyBytes>;
  using Block = std::array<std::uint8_t, kBlockBytes>;
  // Expanded key: 4 * (kRounds + 1) 32-bit words w[i], w[i] = (byte0 << 24) | ... | byte3 as in FIPS-197.
  using Schedule = std::array<std::uint32_t, 4 * (kRounds + 1)>;

  enum class Implementation { kFastest, kTables };

  explicit AesCipher(const Key& key, Implementation implementation = Implementation::kFastest);
  // Whether this host's CPU has the AES instructions (and this build can use them).
  static bool host_has_aes_instructions();
  // Whether this object runs on them.
  bool uses_aes_instructions() const { return use_ni_; }

  Block encrypt(const Block& in) const;
  Block decrypt(const Block& in) const;
  // Raw forms: `in` and `out` each point to 16 bytes; they may alias (in-place operation is allowed).
  void encrypt(const std::uint8_t* in, std::uint8_t* out) const;
  void decrypt(const std::uint8_t* in, std::uint8_t* out) const;
  // `n` independent blocks (ECB) of 16 bytes one after the other, `in` and `out` possibly the same array: what
  // the one-block forms give each; on the AES instructions four at a time interleaved, so that their rounds
  // overlap in the processor.
  void encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t n) const;
  void decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t n) const;

  // The FIPS-197 key expansion w[0..4 Nr + 3] (encryption round keys), e.g. for inspecting a core's key RAM.
  const Schedule& round_keys() const { return enc_; }

  // FIPS-197 S-box and inverse S-box (SubBytes / InvSubBytes), exposed for models of partial datapaths.
  static std::uint8_t sbox(std::uint8_t x);
  static std::uint8_t inv_sbox(std::uint8_t x);

 private:
  Schedule enc_{};  // encryption round keys, FIPS-197 order
  Schedule dec_{};  // equivalent-inverse-cipher round keys, in the order decryption consumes them
  // The same two schedules as bytes (each word big-endian), as the AES instructions take them.
  alignas(16) std::array<std::uint8_t, 16 * (kRounds + 1)> enc_bytes_{};
  alignas(16) std::array<std::uint8_t, 16 * (kRounds + 1)> dec_bytes_{};
  bool use_ni_ = false;
};

using Aes128 = AesCipher<4>;
using Aes256 = AesCipher<8>;
extern template class AesCipher<4>;
extern template class AesCipher<8>;

}  // namespace rsoc::crypto
