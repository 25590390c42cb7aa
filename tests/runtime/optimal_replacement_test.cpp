// The optimal replacement bound (Belady's MIN) on sequences whose optimum is known.
#include "runtime/optimal_replacement.h"

#include <gtest/gtest.h>

#include <vector>

namespace rsoc::runtime {
namespace {

// `n` empty reconfigurable slots that can host designs 0..designs-1.
std::vector<ReplacementSlot> uniform(std::size_t n, std::size_t designs) {
  return std::vector<ReplacementSlot>(n, ReplacementSlot{true, -1, std::vector<bool>(designs, true)});
}

TEST(OptimalReplacement, TheTextbookReferenceStringNeedsNineWithThreeSlots) {
  // Silberschatz, Operating System Concepts, the optimal page-replacement example: 20 references, three
  // frames: 9 faults (LRU 12, FIFO 15).
  const std::vector<int> seq{7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1};
  const OptimalReplacement r = optimal_replacement(seq, uniform(3, 8));
  EXPECT_EQ(r.configurations, 9u);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(optimal_replacement(seq, uniform(4, 8)).configurations, 8u);
  EXPECT_EQ(optimal_replacement(seq, uniform(1, 8)).configurations, 20u);  // no two in a row are equal
}

TEST(OptimalReplacement, CoresConfiguredAtTheStartAreResidentAndTheOneNeededLastLeaves) {
  // Slots hold 0 and 1; 2 comes: 1 is needed after 0, so 1 leaves (LRU would evict 0: one more later).
  std::vector<ReplacementSlot> slots = uniform(2, 3);
  slots[0].initial = 0;
  slots[1].initial = 1;
  EXPECT_EQ(optimal_replacement({0, 1, 2, 0, 2, 0, 1}, slots).configurations, 2u);  // 2, then 1
  EXPECT_EQ(optimal_replacement({}, slots).configurations, 0u);
}

TEST(OptimalReplacement, AStaticCoreIsAlwaysAHit) {
  std::vector<ReplacementSlot> slots = uniform(1, 3);
  slots.push_back(ReplacementSlot{false, 2, std::vector<bool>(3, false)});
  const OptimalReplacement r = optimal_replacement({0, 2, 1, 2, 0, 2}, slots);
  EXPECT_EQ(r.configurations, 3u);  // 0, 1, 0 in the one reconfigurable slot; 2 never configured
  EXPECT_TRUE(r.exact);
}

TEST(OptimalReplacement, SlotsThatHostDifferentCoresGiveMinsRuleNotABound) {
  // Design 1 fits only slot 0.
  std::vector<ReplacementSlot> slots = uniform(2, 2);
  slots[1].hosts[1] = false;
  const OptimalReplacement r = optimal_replacement({0, 1, 0, 1}, slots);
  EXPECT_FALSE(r.exact);
  // Best fit: 0 goes into slot 1, which cannot host 1, and 1 into slot 0: two configurations. (Taking the
  // first empty slot for 0 would make 1 evict it and 0 come back: three.)
  EXPECT_EQ(r.configurations, 2u);
}

}  // namespace
}  // namespace rsoc::runtime
