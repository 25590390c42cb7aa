// StatisticsRegistry: every registered source's groups, by rank, then by name where the rank lists by name
// and in registration order otherwise.
#include "models/statistics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rsoc::models {
namespace {

// A source of one group named `resource`, of rank `rank`.
class Fake final : public StatisticsSource {
 public:
  Fake(StatisticsRank rank, std::string resource) : rank_(rank), resource_(std::move(resource)) {}
  void statistics(double end_ms, std::vector<StatGroup>& out) const override {
    out.push_back(StatGroup{resource_, "fake", {}}.add("end_ms", end_ms, "ms", "the run's end"));
  }
  StatisticsRank statistics_rank() const override { return rank_; }

 private:
  StatisticsRank rank_;
  std::string resource_;
};

TEST(Statistics, SourcesAreListedByRankThenByNameOrInTheOrderTheyCame) {
  const Fake energy(StatisticsRank::kEnergy, "energy");
  const Fake slot1(StatisticsRank::kSlot, "slot.s1");
  const Fake dma_b(StatisticsRank::kDma, "dma.b");
  const Fake slot0(StatisticsRank::kSlot, "slot.s0");
  const Fake dma_a(StatisticsRank::kDma, "dma.a");
  const Fake cpu(StatisticsRank::kCpu, "cpu");
  StatisticsRegistry registry;
  registry.add(energy);
  registry.add(slot1, "s1");  // slots keep the order they came in (the scenario's)
  registry.add(dma_b, "b");   // DMA engines go by name
  registry.add(slot0, "s0");
  registry.add(dma_a, "a");
  registry.add(cpu, "cpu");
  EXPECT_EQ(registry.size(), 6u);
  const std::vector<StatGroup> groups = registry.collect(2.5);
  std::vector<std::string> order;
  for (const StatGroup& g : groups) {
    order.push_back(g.resource);
    ASSERT_EQ(g.stats.size(), 1u);
    EXPECT_EQ(g.stats[0].value, 2.5);  // every source sees the run's end
  }
  EXPECT_EQ(order, (std::vector<std::string>{"cpu", "dma.a", "dma.b", "slot.s1", "slot.s0", "energy"}));
  EXPECT_TRUE(StatisticsRegistry().collect(1.0).empty());
}

}  // namespace
}  // namespace rsoc::models
