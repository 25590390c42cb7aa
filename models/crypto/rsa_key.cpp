#include "models/crypto/rsa_key.h"

#include <random>
#include <stdexcept>
#include <vector>

namespace rsoc::crypto {

namespace {

// The odd primes below 2^20 (Eratosthenes), the sieve of next_prime.
const std::vector<std::uint32_t>& sieving_primes() {
  static const std::vector<std::uint32_t> primes = [] {
    constexpr std::uint32_t kBound = 1u << 20;
    std::vector<bool> composite(kBound, false);
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 3; i < kBound; i += 2) {
      if (composite[i]) continue;
      out.push_back(i);
      for (std::uint64_t j = std::uint64_t{i} * i; j < kBound; j += 2 * i) composite[j] = true;
    }
    return out;
  }();
  return primes;
}

}  // namespace

BigInt next_prime(const BigInt& from, std::uint32_t window) {
  if (window == 0) throw std::invalid_argument("next_prime: a window of no numbers");
  BigInt x;
  if (from.bit_length() < 64) {  // the sieve strikes multiples above its primes only
    mpz_nextprime(x.get(), from.get());
    return x;
  }
  // Windows of odd candidates from the first odd number above `from`: each candidate with a factor below 2^20
  // is struck out, the others are tested in order (the test mpz_nextprime makes: a composite that passes it
  // is not known, so both find the same prime).
  x = from + BigInt(1);
  if (mpz_even_p(x.get())) x = x + BigInt(1);
  std::vector<bool> struck(window);
  for (;;) {
    std::fill(struck.begin(), struck.end(), false);
    for (const std::uint32_t p : sieving_primes()) {
      const std::uint64_t r = mpz_fdiv_ui(x.get(), p);  // x + 2i = 0 mod p at i = (p - r) / 2 mod p
      std::uint64_t i = (p - r) % p * ((p + 1) / 2) % p;
      for (; i < window; i += p) struck[i] = true;
    }
    for (std::uint32_t i = 0; i < window; ++i) {
      if (struck[i]) continue;
      BigInt candidate = x + BigInt(2 * std::uint64_t{i});
      if (mpz_probab_prime_p(candidate.get(), 25) != 0) return candidate;
    }
    x = x + BigInt(2 * std::uint64_t{window});
  }
}

RsaKey generate_rsa_key(unsigned bits, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x94D049BB133111EBull + bits);
  const BigInt e(65537);
  auto prime = [&](unsigned prime_bits) {
    for (;;) {
      std::vector<std::uint8_t> bytes(prime_bits / 8);
      for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
      bytes.front() |= 0xC0;  // top two bits: p * q has exactly `bits` bits
      BigInt candidate = BigInt::from_bytes_be(bytes);
      candidate = next_prime(candidate);
      BigInt gcd;
      mpz_gcd(gcd.get(), e.get(), (candidate - BigInt(1)).get());
      if (candidate.bit_length() == prime_bits && gcd == BigInt(1)) return candidate;
    }
  };
  RsaKey key;
  key.e = e;
  do {
    key.p = prime(bits / 2);
    key.q = prime(bits / 2);
  } while (key.p == key.q);
  if (key.p < key.q) std::swap(key.p, key.q);
  key.n = key.p * key.q;
  const BigInt p1 = key.p - BigInt(1), q1 = key.q - BigInt(1);
  key.d = mod_inverse(e, p1 * q1);
  key.dp = mod(key.d, p1);
  key.dq = mod(key.d, q1);
  key.qinv = mod_inverse(key.q, key.p);
  return key;
}

}  // namespace rsoc::crypto
