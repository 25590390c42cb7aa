// LatencyCounts: summary.csv's percentiles, exact, from (value, count) pairs (plain C++: no simulation).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "analysis/request_log.h"

using rsoc::analysis::LatencyCounts;

namespace {

// Nearest rank over every value kept: what the pairs must answer.
std::uint64_t nearest_rank(std::vector<std::uint64_t> v, double p) {
  std::sort(v.begin(), v.end());
  const auto rank = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(p / 100.0 * v.size())));
  return v[rank - 1];
}

}  // namespace

TEST(LatencyCounts, EmptyAnswersZero) {
  const LatencyCounts c;
  EXPECT_EQ(c.percentile(50), 0u);
  EXPECT_EQ(c.count(), 0u);
}

TEST(LatencyCounts, NearestRankOnAFewValues) {
  LatencyCounts c;
  for (std::uint64_t v : {30u, 10u, 20u, 10u}) c.add(v);
  EXPECT_EQ(c.percentile(25), 10u);  // rank 1
  EXPECT_EQ(c.percentile(50), 10u);  // rank 2
  EXPECT_EQ(c.percentile(51), 20u);  // rank 3
  EXPECT_EQ(c.percentile(99), 30u);
  EXPECT_EQ(c.percentile(100), 30u);
  EXPECT_EQ(c.distinct(), 3u);
}

// Many merges of the buffer, repeated and fresh values, percentiles asked between additions: the same answer
// as sorting every latency, and memory that follows the distinct values.
TEST(LatencyCounts, MatchesSortingEveryValueAcrossMerges) {
  std::mt19937_64 rng(7);
  LatencyCounts c;
  std::vector<std::uint64_t> all;
  for (int i = 0; i < 100'000; ++i) {
    const std::uint64_t v = (rng() % 10 == 0) ? rng() % 1'000'000 : 1000 * (rng() % 37);
    c.add(v);
    all.push_back(v);
    if (i % 9973 != 0) continue;
    for (double p : {1.0, 50.0, 99.0}) {
      ASSERT_EQ(c.percentile(p), nearest_rank(all, p)) << i << " " << p;
    }
  }
  for (double p : {0.1, 10.0, 50.0, 90.0, 99.0, 99.9, 100.0}) EXPECT_EQ(c.percentile(p), nearest_rank(all, p));
  EXPECT_EQ(c.count(), all.size());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(c.distinct(), static_cast<std::size_t>(std::unique(all.begin(), all.end()) - all.begin()));
  EXPECT_LT(c.distinct(), 10'100u);
}
