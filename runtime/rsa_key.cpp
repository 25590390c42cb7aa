#include "runtime/rsa_key.h"

#include <random>
#include <vector>

namespace rsoc::runtime {

using crypto::BigInt;

RsaKey generate_rsa_key(unsigned bits, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x94D049BB133111EBull + bits);
  const BigInt e(65537);
  auto prime = [&](unsigned prime_bits) {
    for (;;) {
      std::vector<std::uint8_t> bytes(prime_bits / 8);
      for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
      bytes.front() |= 0xC0;  // top two bits: p * q has exactly `bits` bits
      BigInt candidate = BigInt::from_bytes_be(bytes);
      mpz_nextprime(candidate.get(), candidate.get());
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
  key.d = crypto::mod_inverse(e, p1 * q1);
  key.dp = crypto::mod(key.d, p1);
  key.dq = crypto::mod(key.d, q1);
  key.qinv = crypto::mod_inverse(key.q, key.p);
  return key;
}

}  // namespace rsoc::runtime
