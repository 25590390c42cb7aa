#pragma once
// RSA private keys with their CRT parameters, and keys drawn from a seed (scenarios name a seed, not a key).

#include <cstdint>

#include "models/crypto/modexp.h"

namespace rsoc::crypto {

// An RSA private key with its CRT parameters (RFC 8017 section 3.2, second representation).
struct RsaKey {
  BigInt n, e, d, p, q, dp, dq, qinv;
  unsigned bits() const { return static_cast<unsigned>(n.bit_length()); }
};

// A key of `bits` bits (e = 65537, p and q of bits/2 bits each with their top two bits set), drawn from
// `seed`.
RsaKey generate_rsa_key(unsigned bits, std::uint64_t seed);

// The smallest prime above `from`, the number mpz_nextprime answers, found several times faster for large
// numbers: the candidates with a factor below 2^20 are struck out, `window` odd numbers at a time (the mean
// gap between primes of 2048 bits is ~710 of them), before any is tested.
BigInt next_prime(const BigInt& from, std::uint32_t window = 1u << 13);

}  // namespace rsoc::crypto
