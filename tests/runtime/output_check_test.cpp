// OutputCheck: an output is accepted exactly when it equals reference_output(), an RSA signature by the public
// operation when the key allows it (plain C++: no simulation).
#include <gtest/gtest.h>

#include <vector>

#include "models/crypto/modexp.h"
#include "runtime/functionality.h"

namespace rsoc::runtime {
namespace {

using crypto::BigInt;

constexpr Functionality kRsa = Functionality::kRsaCrt2048;

// Two input blocks of an RSA-2048 key: random bytes made inputs, then `first` as the first block.
std::vector<std::uint8_t> two_blocks(const BigInt& first) {
  std::vector<std::uint8_t> data(2 * info(kRsa).block_bytes);
  draw_data(7, data);
  shape_data(kRsa, data);
  const auto b = first.to_bytes_be(info(kRsa).block_bytes);
  std::copy(b.begin(), b.end(), data.begin());
  return data;
}

TEST(OutputCheck, ChecksADrawnRsaKeyByThePublicOperationAndAgreesWithTheReference) {
  const std::vector<std::uint8_t> key = draw_key(kRsa, 11);
  const OutputCheck check(kRsa, key);
  ASSERT_TRUE(check.by_public_operation());
  const std::size_t h = info(kRsa).block_bytes / 2;
  const BigInt n = BigInt::from_bytes_be(&key[0], h) * BigInt::from_bytes_be(&key[h], h);
  // A message whose signature is known to be small: m = 5^65537 mod n signs to 5.
  const std::vector<std::uint8_t> data = two_blocks(crypto::modexp_public(BigInt(5), BigInt(65537), n));
  const std::vector<std::uint8_t> reference = reference_output(kRsa, key, data, true);
  EXPECT_EQ(BigInt::from_bytes_be(reference.data(), 2 * h), BigInt(5));
  EXPECT_TRUE(check.matches(data, true, reference));

  // Every wrong output is refused: a flipped bit in either block, the right block plus n (the same number
  // mod n, above the reference), a missing block.
  for (std::size_t byte : {std::size_t{0}, 2 * h - 1, 2 * h + 17}) {
    std::vector<std::uint8_t> wrong = reference;
    wrong[byte] ^= 0x10;
    EXPECT_FALSE(check.matches(data, true, wrong)) << "byte " << byte;
  }
  std::vector<std::uint8_t> plus_n = reference;
  const auto above = (BigInt(5) + n).to_bytes_be(2 * h);
  std::copy(above.begin(), above.end(), plus_n.begin());
  ASSERT_NE(plus_n, reference);
  EXPECT_FALSE(check.matches(data, true, plus_n));
  EXPECT_FALSE(check.matches(data, true, std::vector<std::uint8_t>(reference.begin(), reference.begin() + 2 * h)));
}

TEST(OutputCheck, AKeyWhosePrimesAreNotPrimeIsCheckedByTheReference) {
  std::vector<std::uint8_t> key = draw_key(kRsa, 11);
  key[info(kRsa).block_bytes / 2 - 1] ^= 0x02;  // p, still odd, no longer prime
  const OutputCheck check(kRsa, key);
  EXPECT_FALSE(check.by_public_operation());
  const std::vector<std::uint8_t> data = two_blocks(BigInt(12345));
  std::vector<std::uint8_t> reference = reference_output(kRsa, key, data, true);
  EXPECT_TRUE(check.matches(data, true, reference));
  reference[3] ^= 1;
  EXPECT_FALSE(check.matches(data, true, reference));
}

TEST(OutputCheck, AKeyWithAWrongQInvIsCheckedByTheReference) {
  std::vector<std::uint8_t> key = draw_key(kRsa, 11);
  key.back() ^= 0x01;  // qInv: Garner's recombination then gives another number than m^d mod n
  const OutputCheck check(kRsa, key);
  EXPECT_FALSE(check.by_public_operation());
  const std::vector<std::uint8_t> data = two_blocks(BigInt(99));
  EXPECT_TRUE(check.matches(data, true, reference_output(kRsa, key, data, true)));
}

TEST(OutputCheck, ACipherIsCheckedByItsReference) {
  const std::vector<std::uint8_t> key = draw_key(Functionality::kAes128, 3);
  const OutputCheck check(Functionality::kAes128, key);
  EXPECT_FALSE(check.by_public_operation());
  std::vector<std::uint8_t> data(64);
  draw_data(5, data);
  std::vector<std::uint8_t> out = reference_output(Functionality::kAes128, key, data, false);
  EXPECT_TRUE(check.matches(data, false, out));
  EXPECT_FALSE(check.matches(data, true, out));  // the other direction's output
  out[40] ^= 0x80;
  EXPECT_FALSE(check.matches(data, false, out));
}

}  // namespace
}  // namespace rsoc::runtime
