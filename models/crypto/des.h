#pragma once
// DES and Triple-DES block ciphers (FIPS 46-3, Data Encryption Standard; TDEA per NIST SP 800-67),
// single-block ECB primitives.
//
// A 64-bit block or key is a std::uint64_t holding the bytes big-endian: byte 0 of the byte-array form is the
// most significant byte, and FIPS 46-3 bit 1 is the most significant bit. Key parity bits (the least
// significant bit of every key byte) are ignored, as FIPS 46-3 specifies.
//
// The cipher is table driven: the S-boxes are merged with the P permutation into eight 64-entry "SP" tables
// generated at compile time, IP/IP^-1 are computed with bit-swap networks, and the key schedule runs once in
// the constructor. The static round-level building blocks (IP, f, PC-1, rotations, PC-2, IP^-1) expose the
// FIPS 46-3 steps individually so that a datapath computing one DES round at a time can be modelled;
// composing them by hand gives exactly Des::encrypt.
//
// Not constant-time; this library models the values computed by hardware cores and software routines inside a
// simulator and is not meant to protect real secrets.

#include <array>
#include <cstddef>
#include <cstdint>

namespace rsoc::crypto {

class TripleDes;

class Des {
 public:
  static constexpr int kRounds = 16;
  // Left-rotation count of C and D before round i + 1 (FIPS 46-3, key schedule table).
  static constexpr std::array<int, kRounds> kRotations = {1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1};

  explicit Des(std::uint64_t key);

  std::uint64_t encrypt(std::uint64_t block) const;
  std::uint64_t decrypt(std::uint64_t block) const;
  // Byte-array forms: `in8` and `out8` each point to 8 bytes and may alias.
  void encrypt(const std::uint8_t* in8, std::uint8_t* out8) const;
  void decrypt(const std::uint8_t* in8, std::uint8_t* out8) const;
  // `n` independent blocks (ECB), `in` and `out` possibly the same array: what encrypt()/decrypt() give each,
  // eight (then four, then two) blocks at a time interleaved so that their rounds overlap in the processor
  // (one block's 16 rounds are a single chain of dependent table lookups).
  void encrypt(const std::uint64_t* in, std::uint64_t* out, std::size_t n) const;
  void decrypt(const std::uint64_t* in, std::uint64_t* out, std::size_t n) const;

  // --- round-level building blocks (FIPS 46-3 notation) ----------------------------------------------------
  // IP: permuted input; the result's high 32 bits are L0, the low 32 bits R0.
  static std::uint64_t initial_permutation(std::uint64_t block);
  // IP^-1, applied to the preoutput R16 L16 (R16 in the high 32 bits).
  static std::uint64_t final_permutation(std::uint64_t preoutput);
  // The cipher function f(R, K): E expansion, XOR with the 48-bit subkey (low 48 bits of subkey48, FIPS bit 1
  // is bit 47), S-boxes S1..S8, permutation P.
  static std::uint32_t feistel(std::uint32_t r, std::uint64_t subkey48);
  // PC-1: the 56 key bits as C0 (high 28 bits) and D0 (low 28 bits), i.e. (C0 << 28) | D0.
  static std::uint64_t pc1(std::uint64_t key);
  // Left rotation of a 28-bit half (C or D) by n positions (n taken modulo 28, so negative n rotates right).
  static std::uint32_t rotate28(std::uint32_t half, int n);
  // PC-2: the 48-bit subkey K_i from C_i and D_i (28 bits each).
  static std::uint64_t pc2(std::uint32_t c, std::uint32_t d);
  // K1..K16 (index 0..15), each a 48-bit value in the low bits: PC-1, then for every round the rotation of
  // kRotations followed by PC-2.
  static std::array<std::uint64_t, kRounds> key_schedule(std::uint64_t key);

 private:
  friend class TripleDes;

  // A subkey re-packed for the SP-table round: the eight 6-bit S-box inputs in the byte lanes used by the
  // round function (see des.cpp).
  struct RoundKey {
    std::uint32_t even;  // S-box inputs 1, 3, 5, 7
    std::uint32_t odd;   // S-box inputs 2, 4, 6, 8
  };
  static RoundKey pack(std::uint64_t subkey48);
  // 16 rounds on the halves after IP; on return left = L16, right = R16.
  void encrypt_rounds(std::uint32_t& left, std::uint32_t& right) const;
  void decrypt_rounds(std::uint32_t& left, std::uint32_t& right) const;
  // The same on N blocks' halves at once, round by round.
  template <std::size_t N>
  void rounds(bool decrypting, std::uint32_t (&left)[N], std::uint32_t (&right)[N]) const;

  std::array<RoundKey, kRounds> keys_{};
};

// Triple DES (TDEA), keying option 1 (three independent keys): encryption is E_k3(D_k2(E_k1(x))), decryption
// is D_k1(E_k2(D_k3(x))). With k1 == k2 == k3 it equals single DES.
class TripleDes {
 public:
  explicit TripleDes(std::uint64_t k1, std::uint64_t k2, std::uint64_t k3);

  std::uint64_t encrypt(std::uint64_t block) const;
  std::uint64_t decrypt(std::uint64_t block) const;
  void encrypt(const std::uint8_t* in8, std::uint8_t* out8) const;
  void decrypt(const std::uint8_t* in8, std::uint8_t* out8) const;
  // `n` independent blocks, interleaved as Des does them.
  void encrypt(const std::uint64_t* in, std::uint64_t* out, std::size_t n) const;
  void decrypt(const std::uint64_t* in, std::uint64_t* out, std::size_t n) const;

 private:
  Des d1_;
  Des d2_;
  Des d3_;
};

}  // namespace rsoc::crypto
