// BigInt (RAII over GMP mpz_t), modular exponentiation and RSA-CRT recombination.
#include "models/crypto/modexp.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace rsoc::crypto {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void require_positive_modulus(const BigInt& m, const char* what) {
  if (mpz_sgn(m.get()) <= 0) throw std::domain_error(std::string(what) + ": modulus must be positive");
}

}  // namespace

// --- lifetime ----------------------------------------------------------------------------------------------

BigInt::BigInt() {
  mpz_init(value_);
}

BigInt::BigInt(std::uint64_t value) {
  // Import as two 32-bit words so the result does not depend on the width of unsigned long.
  const std::uint32_t words[2] = {static_cast<std::uint32_t>(value), static_cast<std::uint32_t>(value >> 32)};
  mpz_init(value_);
  mpz_import(value_, 2, -1, sizeof(std::uint32_t), 0, 0, words);
}

BigInt::BigInt(const BigInt& other) {
  mpz_init_set(value_, other.value_);
}

// mpz_init does not allocate (GMP >= 6.2 allocates lazily), so the moved-from object is a valid zero.
BigInt::BigInt(BigInt&& other) noexcept {
  mpz_init(value_);
  mpz_swap(value_, other.value_);
}

BigInt& BigInt::operator=(const BigInt& other) {
  if (this != &other) mpz_set(value_, other.value_);
  return *this;
}

BigInt& BigInt::operator=(BigInt&& other) noexcept {
  mpz_swap(value_, other.value_);
  return *this;
}

BigInt::~BigInt() {
  mpz_clear(value_);
}

// --- conversions -------------------------------------------------------------------------------------------

BigInt BigInt::from_hex(std::string_view hex) {
  bool negative = false;
  if (!hex.empty() && hex.front() == '-') {
    negative = true;
    hex.remove_prefix(1);
  }
  if (hex.size() >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
  if (hex.empty()) throw std::invalid_argument("BigInt::from_hex: no digits");
  // Validate here: mpz_set_str would also accept embedded white space.
  for (char c : hex) {
    if (hex_digit(c) < 0)
      throw std::invalid_argument("BigInt::from_hex: invalid digit in \"" + std::string(hex) + "\"");
  }
  BigInt r;
  const std::string digits(hex);
  if (mpz_set_str(r.value_, digits.c_str(), 16) != 0)
    throw std::invalid_argument("BigInt::from_hex: parse error");
  if (negative) mpz_neg(r.value_, r.value_);
  return r;
}

std::string BigInt::to_hex() const {
  std::string s(mpz_sizeinbase(value_, 16) + 2, '\0');
  mpz_get_str(s.data(), 16, value_);
  s.resize(s.find('\0'));
  return s;
}

BigInt BigInt::from_bytes_be(const std::uint8_t* data, std::size_t len) {
  BigInt r;
  if (len != 0) mpz_import(r.value_, len, 1, 1, 1, 0, data);
  return r;
}

BigInt BigInt::from_bytes_be(const std::vector<std::uint8_t>& bytes) {
  return from_bytes_be(bytes.data(), bytes.size());
}

std::vector<std::uint8_t> BigInt::to_bytes_be(std::size_t len) const {
  if (is_negative()) throw std::domain_error("BigInt::to_bytes_be: negative value");
  const std::size_t needed = (bit_length() + 7) / 8;
  if (needed > len) {
    throw std::out_of_range("BigInt::to_bytes_be: value needs " + std::to_string(needed) + " bytes, only " +
                            std::to_string(len) + " available");
  }
  std::vector<std::uint8_t> out(len, 0);
  if (needed != 0) {
    std::size_t count = 0;
    mpz_export(out.data() + (len - needed), &count, 1, 1, 1, 0, value_);
  }
  return out;
}

BigInt BigInt::from_words(const std::uint32_t* words, std::size_t nwords) {
  BigInt r;
  if (nwords != 0) mpz_import(r.value_, nwords, -1, sizeof(std::uint32_t), 0, 0, words);
  return r;
}

BigInt BigInt::from_words(const std::vector<std::uint32_t>& words) {
  return from_words(words.data(), words.size());
}

std::vector<std::uint32_t> BigInt::to_words(std::size_t nwords) const {
  if (is_negative()) throw std::domain_error("BigInt::to_words: negative value");
  const std::size_t needed = (bit_length() + 31) / 32;
  if (needed > nwords) {
    throw std::out_of_range("BigInt::to_words: value needs " + std::to_string(needed) + " words, only " +
                            std::to_string(nwords) + " available");
  }
  std::vector<std::uint32_t> out(nwords, 0);
  if (needed != 0) {
    std::size_t count = 0;
    mpz_export(out.data(), &count, -1, sizeof(std::uint32_t), 0, 0, value_);
  }
  return out;
}

// --- queries
// -------------------------------------------------------------------------------------------------

std::size_t BigInt::bit_length() const {
  return mpz_sgn(value_) == 0 ? 0 : mpz_sizeinbase(value_, 2);
}
bool BigInt::is_zero() const {
  return mpz_sgn(value_) == 0;
}
bool BigInt::is_odd() const {
  return mpz_tstbit(value_, 0) != 0;
}
bool BigInt::is_negative() const {
  return mpz_sgn(value_) < 0;
}
int BigInt::compare(const BigInt& other) const {
  return mpz_cmp(value_, other.value_);
}

// --- arithmetic
// ----------------------------------------------------------------------------------------------

BigInt operator+(const BigInt& a, const BigInt& b) {
  BigInt r;
  mpz_add(r.value_, a.value_, b.value_);
  return r;
}

BigInt operator-(const BigInt& a, const BigInt& b) {
  BigInt r;
  mpz_sub(r.value_, a.value_, b.value_);
  return r;
}

BigInt operator*(const BigInt& a, const BigInt& b) {
  BigInt r;
  mpz_mul(r.value_, a.value_, b.value_);
  return r;
}

BigInt operator/(const BigInt& a, const BigInt& b) {
  if (b.is_zero()) throw std::domain_error("BigInt: division by zero");
  BigInt r;
  mpz_tdiv_q(r.value_, a.value_, b.value_);
  return r;
}

BigInt operator%(const BigInt& a, const BigInt& b) {
  if (b.is_zero()) throw std::domain_error("BigInt: division by zero");
  BigInt r;
  mpz_tdiv_r(r.value_, a.value_, b.value_);
  return r;
}

BigInt mod(const BigInt& a, const BigInt& m) {
  require_positive_modulus(m, "mod");
  BigInt r;
  mpz_mod(r.get(), a.get(), m.get());
  return r;
}

BigInt mod_inverse(const BigInt& a, const BigInt& m) {
  require_positive_modulus(m, "mod_inverse");
  BigInt r;
  if (mpz_invert(r.get(), a.get(), m.get()) == 0) throw std::domain_error("mod_inverse: no inverse exists");
  return r;
}

namespace {
BigInt power(const BigInt& base, const BigInt& exponent, const BigInt& modulus, bool secret,
             const char* what) {
  require_positive_modulus(modulus, what);
  if (exponent.is_negative()) throw std::domain_error(std::string(what) + ": negative exponent");
  BigInt r;
  if (exponent.is_zero()) {
    mpz_set_ui(r.get(), 1);
    mpz_mod(r.get(), r.get(), modulus.get());  // 0 when modulus == 1
    return r;
  }
  BigInt b = mod(base, modulus);
  if (secret && modulus.is_odd()) {
    mpz_powm_sec(r.get(), b.get(), exponent.get(), modulus.get());
  } else {
    mpz_powm(r.get(), b.get(), exponent.get(), modulus.get());  // even modulus: mpz_powm_sec is not defined
  }
  return r;
}
}  // namespace

BigInt modexp(const BigInt& base, const BigInt& exponent, const BigInt& modulus) {
  return power(base, exponent, modulus, true, "modexp");
}

BigInt modexp_public(const BigInt& base, const BigInt& exponent, const BigInt& modulus) {
  return power(base, exponent, modulus, false, "modexp_public");
}

namespace {
// R = 2^(32 * words) for a modulus that must be odd and below it.
BigInt montgomery_radix(const BigInt& n, std::size_t words, const char* what) {
  require_positive_modulus(n, what);
  if (!n.is_odd()) throw std::domain_error(std::string(what) + ": the modulus must be odd");
  BigInt r;
  mpz_setbit(r.get(), 32 * words);
  if (n >= r) throw std::domain_error(std::string(what) + ": the modulus does not fit the radix");
  return r;
}
}  // namespace

BigInt montgomery_coefficient(const BigInt& n, std::size_t words) {
  const BigInt r = montgomery_radix(n, words, "montgomery_coefficient");
  return mod(BigInt() - mod_inverse(n, r), r);
}

BigInt montgomery_factor(const BigInt& n, std::size_t words) {
  const BigInt r = montgomery_radix(n, words, "montgomery_factor");
  return mod(r * r, n);
}

BigInt montgomery_reduce(const BigInt& t, const BigInt& n, const BigInt& coefficient, std::size_t words) {
  const BigInt r = montgomery_radix(n, words, "montgomery_reduce");
  const BigInt m = mod(mod(t, r) * coefficient, r);
  BigInt u = (t + m * n) / r;  // exact when the coefficient is right
  if (u >= n) u = u - n;
  return u;
}

BigInt montgomery_modexp(const BigInt& x, const BigInt& e, const BigInt& n, const BigInt& coefficient,
                         const BigInt& factor, std::size_t words) {
  const BigInt r = montgomery_radix(n, words, "montgomery_modexp");
  // Into the domain: x * R when the values are right.
  const BigInt entered = montgomery_reduce(mod(x, n) * factor, n, coefficient, words);
  // Squarings and products inside the domain keep the representative a * R and leaving it divides by R once,
  // so the result is (entered / R)^e mod n; a wrong coefficient or factor has already shown in `entered`.
  return modexp(mod(entered * mod_inverse(r, n), n), e, n);
}

BigInt rsa_crt(const BigInt& m, const BigInt& p, const BigInt& q, const BigInt& dP, const BigInt& dQ,
               const BigInt& qInv) {
  const BigInt m1 = modexp(m, dP, p);
  const BigInt m2 = modexp(m, dQ, q);
  const BigInt h = mod(qInv * (m1 - m2), p);
  return m2 + q * h;
}

}  // namespace rsoc::crypto
