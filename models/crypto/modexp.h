#pragma once
// Big-number modular exponentiation for RSA-style public-key operations (the primitive of PKCS #1 v2.2 /
// RFC 8017 RSAEP, RSADP and RSASP1; CRT recombination per RFC 8017 section 5.1.2 / Garner's algorithm), on
// GMP.
//
// BigInt is a small RAII value type over GMP's mpz_t. Besides arithmetic it converts to and from the
// representations used elsewhere in the simulator: hexadecimal text, big-endian byte strings, and fixed-width
// vectors of 32-bit words, least-significant word first, which is how an IP core's operand banks hold
// numbers.
//
// modexp uses GMP's side-channel-silent mpz_powm_sec whenever the modulus is odd (every RSA modulus and every
// prime factor is). mpz_powm_sec requires an odd modulus, so for even moduli modexp falls back to mpz_powm,
// whose running time depends on the operands. Either way the result is the same number.

#include <gmp.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rsoc::crypto {

class BigInt {
 public:
  BigInt();  // zero
  explicit BigInt(std::uint64_t value);
  BigInt(const BigInt& other);
  BigInt(BigInt&& other) noexcept;
  BigInt& operator=(const BigInt& other);
  BigInt& operator=(BigInt&& other) noexcept;
  ~BigInt();

  // Hexadecimal digits, either case, optional "0x"/"0X" prefix, optional leading '-'. Throws
  // std::invalid_argument on an empty or malformed string.
  static BigInt from_hex(std::string_view hex);
  // Lower-case hex digits without prefix or leading zeros ("0" for zero, leading '-' if negative).
  std::string to_hex() const;

  // Unsigned big-endian byte string (data[0] is the most significant byte); len == 0 gives zero.
  static BigInt from_bytes_be(const std::uint8_t* data, std::size_t len);
  static BigInt from_bytes_be(const std::vector<std::uint8_t>& bytes);
  // Exactly `len` bytes, zero-padded on the left. Throws std::domain_error if negative and std::out_of_range
  // if the value needs more than `len` bytes.
  std::vector<std::uint8_t> to_bytes_be(std::size_t len) const;

  // Unsigned value from 32-bit words, least-significant word first.
  static BigInt from_words(const std::uint32_t* words, std::size_t nwords);
  static BigInt from_words(const std::vector<std::uint32_t>& words);
  // Exactly `nwords` words, least-significant first, zero-filled above the value. Throws std::domain_error if
  // negative and std::out_of_range if the value needs more than `nwords` words.
  std::vector<std::uint32_t> to_words(std::size_t nwords) const;

  // Number of significant bits (0 for zero), of the absolute value.
  std::size_t bit_length() const;
  bool is_zero() const;
  bool is_odd() const;
  bool is_negative() const;
  // Compares as mpz_cmp: negative, zero or positive.
  int compare(const BigInt& other) const;

  // Direct access to the GMP value for code that needs other mpz functions.
  mpz_srcptr get() const { return value_; }
  mpz_ptr get() { return value_; }

  friend BigInt operator+(const BigInt& a, const BigInt& b);
  friend BigInt operator-(const BigInt& a, const BigInt& b);
  friend BigInt operator*(const BigInt& a, const BigInt& b);
  // Truncating division and remainder (C semantics, like mpz_tdiv_q / mpz_tdiv_r). Throw std::domain_error on
  // division by zero. Use mod() for the non-negative residue.
  friend BigInt operator/(const BigInt& a, const BigInt& b);
  friend BigInt operator%(const BigInt& a, const BigInt& b);

  friend bool operator==(const BigInt& a, const BigInt& b) { return a.compare(b) == 0; }
  friend bool operator!=(const BigInt& a, const BigInt& b) { return a.compare(b) != 0; }
  friend bool operator<(const BigInt& a, const BigInt& b) { return a.compare(b) < 0; }
  friend bool operator<=(const BigInt& a, const BigInt& b) { return a.compare(b) <= 0; }
  friend bool operator>(const BigInt& a, const BigInt& b) { return a.compare(b) > 0; }
  friend bool operator>=(const BigInt& a, const BigInt& b) { return a.compare(b) >= 0; }

 private:
  mpz_t value_;
};

// a mod m in [0, m) for m > 0. Throws std::domain_error if m <= 0.
BigInt mod(const BigInt& a, const BigInt& m);

// a^-1 mod m. Throws std::domain_error if m <= 0 or the inverse does not exist.
BigInt mod_inverse(const BigInt& a, const BigInt& m);

// base^exponent mod modulus, result in [0, modulus). Requires exponent >= 0 and modulus > 0 (throws
// std::domain_error otherwise); base may be any integer and is reduced first. x^0 mod m is 1 mod m.
// Constant-time (mpz_powm_sec) for odd moduli; plain mpz_powm for even moduli (see the header comment).
BigInt modexp(const BigInt& base, const BigInt& exponent, const BigInt& modulus);
// The same for an exponent that is no secret (an RSA public exponent): always mpz_powm, whose running time
// depends on the operands; several times faster than modexp for a short exponent such as 65537.
BigInt modexp_public(const BigInt& base, const BigInt& exponent, const BigInt& modulus);

// Montgomery arithmetic with the radix R = 2^(32 * words) of a `words`-word multiplier (modulus n odd, below
// R). These are the modulus-dependent values a Montgomery exponentiator needs, which a modexp core can be
// given precomputed instead of deriving them on every operation:
//   coefficient n' = -n^-1 mod R        (montgomery_coefficient)
//   factor      R^2 mod n               (montgomery_factor; maps x into the domain: REDC(x * R^2) = x * R)
// Throw std::domain_error for an even or too-large modulus.
BigInt montgomery_coefficient(const BigInt& n, std::size_t words);
BigInt montgomery_factor(const BigInt& n, std::size_t words);
// Montgomery reduction REDC(t) = (t + ((t mod R) * coefficient mod R) * n) / R, less n once if not below n:
// t * R^-1 mod n for 0 <= t < n * R when the coefficient is right. With a wrong coefficient the sum is not a
// multiple of R and the result is the truncated quotient, the wrong number a multiplier would produce.
BigInt montgomery_reduce(const BigInt& t, const BigInt& n, const BigInt& coefficient, std::size_t words);
// x^e mod n as a Montgomery exponentiator computes it from the precomputed coefficient and factor: x enters
// the domain as REDC((x mod n) * factor), every step is a Montgomery product and the result leaves the domain
// with REDC. Equals modexp(x, e, n) when both values are right, another number when either is wrong. The
// steps inside the domain are computed in closed form from the entered value (the cost is one modexp), so a
// wrong value shows through the entry step.
BigInt montgomery_modexp(const BigInt& x, const BigInt& e, const BigInt& n, const BigInt& coefficient,
                         const BigInt& factor, std::size_t words);

// RSA private operation with the CRT key (RFC 8017 section 5.1.2, Garner's recombination): returns
// m^d mod (p*q) computed as m1 = m^dP mod p, m2 = m^dQ mod q, h = qInv * (m1 - m2) mod p, m2 + q * h, where
// dP = d mod (p-1), dQ = d mod (q-1) and qInv = q^-1 mod p. With odd p and q both exponentiations are
// constant-time.
BigInt rsa_crt(const BigInt& m, const BigInt& p, const BigInt& q, const BigInt& dP, const BigInt& dQ,
               const BigInt& qInv);

}  // namespace rsoc::crypto
