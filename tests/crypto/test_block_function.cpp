// The block functions custom cores compute: published check values (CRC-32 of "123456789", FIPS 180-2's
// SHA-256 examples), what each outputs and takes, and the one list the scenario schema offers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/crypto/block_function.h"

namespace rsoc::crypto {
namespace {

std::vector<std::uint8_t> bytes(const std::string& text) {
  return std::vector<std::uint8_t>(text.begin(), text.end());
}

std::vector<std::uint8_t> compute(const char* name, const std::vector<std::uint8_t>& in,
                                  std::size_t out_bytes, const std::vector<std::uint8_t>& key = {}) {
  const BlockFunction* f = find_block_function(name);
  EXPECT_NE(f, nullptr) << name;
  std::vector<std::uint8_t> out(out_bytes, 0xAA);
  if (f) f->compute(key.data(), key.size(), in.data(), in.size(), out.data(), out.size());
  return out;
}

TEST(BlockFunction, Crc32CheckValue) {
  const auto nine = bytes("123456789");
  EXPECT_EQ(crc32(nine.data(), nine.size()), 0xCBF43926u);  // the CRC catalogue's check value
  EXPECT_EQ(crc32(nullptr, 0), 0u);
  EXPECT_EQ(compute("crc32", nine, 4), (std::vector<std::uint8_t>{0xCB, 0xF4, 0x39, 0x26}));  // big-endian
}

TEST(BlockFunction, Sha256Fips180Examples) {
  EXPECT_EQ(compute("sha256", bytes("abc"), 32),
            (std::vector<std::uint8_t>{0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                                       0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                                       0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad}));
  EXPECT_EQ(compute("sha256", bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), 32),
            (std::vector<std::uint8_t>{0x24, 0x8d, 0x6a, 0x61, 0xd2, 0x06, 0x38, 0xb8, 0xe5, 0xc0, 0x26,
                                       0x93, 0x0c, 0x3e, 0x60, 0x39, 0xa3, 0x3c, 0xe4, 0x59, 0x64, 0xff,
                                       0x21, 0x67, 0xf6, 0xec, 0xed, 0xd4, 0x19, 0xdb, 0x06, 0xc1}));
}

TEST(BlockFunction, CopyXorAndNone) {
  const std::vector<std::uint8_t> in{1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(compute("copy", in, 8), in);
  EXPECT_EQ(compute("xor_key", in, 8, {0xF0, 0x0F, 0xFF, 0x00}),
            (std::vector<std::uint8_t>{0xF1, 0x0D, 0xFC, 0x04, 0xF5, 0x09, 0xF8, 0x08}));
  EXPECT_EQ(compute("none", in, 12), std::vector<std::uint8_t>(12, 0));
}

TEST(BlockFunction, EachSaysWhatItOutputsAndTakes) {
  EXPECT_EQ(block_function_names(), (std::vector<std::string>{"copy", "xor_key", "crc32", "sha256", "none"}));
  EXPECT_EQ(find_block_function("crc32")->output_bytes, 4u);
  EXPECT_EQ(find_block_function("sha256")->output_bytes, 32u);
  EXPECT_EQ(find_block_function("copy")->output_bytes, 0u);  // as many as the block
  EXPECT_TRUE(find_block_function("xor_key")->keyed);
  EXPECT_FALSE(find_block_function("sha256")->keyed);
  EXPECT_FALSE(find_block_function("none")->checked);
  EXPECT_TRUE(find_block_function("crc32")->checked);
  EXPECT_EQ(find_block_function("sha512"), nullptr);
  for (const BlockFunction& f : block_functions()) EXPECT_NE(std::string(f.doc), "") << f.name;
}

}  // namespace
}  // namespace rsoc::crypto
