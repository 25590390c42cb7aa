// next_prime: the prime mpz_nextprime answers, for small and large numbers (plain C++: no simulation).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "models/crypto/rsa_key.h"

namespace rsoc::crypto {
namespace {

BigInt gmp_next_prime(const BigInt& from) {
  BigInt p;
  mpz_nextprime(p.get(), from.get());
  return p;
}

BigInt random_number(std::mt19937_64& rng, unsigned bits) {
  std::vector<std::uint8_t> bytes(bits / 8);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
  bytes.front() |= 0x80;
  return BigInt::from_bytes_be(bytes);
}

TEST(NextPrime, AnswersWhatGmpAnswersForSmallNumbers) {
  for (std::uint64_t n :
       {0ull, 1ull, 2ull, 3ull, 4ull, 100ull, 1048573ull, 1048576ull, 4294967291ull, 18446744073709551557ull})
    EXPECT_EQ(next_prime(BigInt(n)), gmp_next_prime(BigInt(n))) << n;
}

TEST(NextPrime, AnswersWhatGmpAnswersForLargeNumbers) {
  std::mt19937_64 rng(2024);
  for (unsigned bits : {72u, 256u, 512u, 1024u})
    for (int i = 0; i < 6; ++i) {
      const BigInt from = random_number(rng, bits);
      const BigInt p = gmp_next_prime(from);
      EXPECT_EQ(next_prime(from), p) << bits << " bits, #" << i;
      // Right below a prime, and from the prime itself (the next one is strictly above).
      EXPECT_EQ(next_prime(p - BigInt(1)), p);
      EXPECT_EQ(next_prime(p - BigInt(2)), p);
      EXPECT_EQ(next_prime(p), gmp_next_prime(p));
    }
}

TEST(NextPrime, FindsThePrimeWindowsAhead) {
  // Windows of 4 odd numbers: the prime is many windows ahead, the search crosses them.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 4; ++i) {
    const BigInt from = random_number(rng, 256);
    EXPECT_EQ(next_prime(from, 4), gmp_next_prime(from));
    EXPECT_EQ(next_prime(from, 1), gmp_next_prime(from));
  }
}

}  // namespace
}  // namespace rsoc::crypto
