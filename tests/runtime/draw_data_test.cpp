// The workload's request inputs: SplitMix64 streams, reproducible from their seed (plain C++: no simulation).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "models/splitmix.h"
#include "runtime/functionality.h"

namespace rsoc::runtime {
namespace {

TEST(DrawData, IsSplitMix64ByTheReferenceOutputs) {
  // SplitMix64 from state 0 (Vigna's splitmix64.c): its first two outputs.
  static_assert(models::splitmix64(0) == 0xE220A8397B1DCDAFull);
  static_assert(models::splitmix64(models::kSplitMixGamma) == 0x6E789E6AA1B965F4ull);
  std::vector<std::uint8_t> data(16);
  draw_data(0, data);
  std::uint64_t first = 0, second = 0;
  std::memcpy(&first, &data[0], 8);
  std::memcpy(&second, &data[8], 8);
  EXPECT_EQ(first, 0xE220A8397B1DCDAFull);
  EXPECT_EQ(second, 0x6E789E6AA1B965F4ull);
}

TEST(DrawData, TheSameSeedGivesTheSameBytesAndATailIsAPrefix) {
  std::vector<std::uint8_t> a(4096), b(4096), c(4096), tail(4093);
  draw_data(42, a);
  draw_data(42, b);
  draw_data(43, c);
  draw_data(42, tail);  // not a multiple of eight: the last draw is cut
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), a.begin()));
  draw_data(42, a = {});  // nothing to fill
  EXPECT_TRUE(a.empty());
}

}  // namespace
}  // namespace rsoc::runtime
