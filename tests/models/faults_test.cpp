// FaultStream: seeded draws of faults by chance, fault windows, and their reproducibility.
#include "models/faults.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "models/core_kinds.h"
#include "models/fpga_slot.h"

namespace rsoc::models {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

TEST(FaultStream, NoProbabilityNeverFaultsAndCertaintyAlwaysDoes) {
  FaultStream never, zero(0.0, 1), always(1.0, 1);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(never.chance(sc_time(i, SC_US)));
    EXPECT_FALSE(zero.chance(sc_time(i, SC_US)));
    EXPECT_TRUE(always.chance(sc_time(i, SC_US)));
  }
  EXPECT_EQ(zero.first_fault(1ull << 40, sc_core::SC_ZERO_TIME), 1ull << 40);
  EXPECT_EQ(always.first_fault(10, sc_core::SC_ZERO_TIME), 0u);
  EXPECT_EQ(always.faults(), 1001u);
  EXPECT_THROW(FaultStream(1.5, 1), std::invalid_argument);
  EXPECT_THROW(FaultStream(-0.1, 1), std::invalid_argument);
}

TEST(FaultStream, AWindowHitsTheFirstChanceAtOrAfterItsTimeOnce) {
  FaultStream s;
  s.arm(sc_time(50, SC_US));
  s.arm(sc_time(20, SC_US));
  EXPECT_FALSE(s.chance(sc_time(10, SC_US)));
  EXPECT_TRUE(s.chance(sc_time(20, SC_US)));  // at its time
  EXPECT_FALSE(s.chance(sc_time(30, SC_US)));
  EXPECT_TRUE(s.chance(sc_time(70, SC_US)));  // the first chance after it
  EXPECT_FALSE(s.chance(sc_time(80, SC_US)));
  EXPECT_EQ(s.faults(), 2u);
}

TEST(FaultStream, ChancesFaultAtTheirProbabilityAndBatchesAgreeWithSingleChances) {
  // 1,000,000 chances at 1 %: 10,000 faults expected, standard deviation 99.5.
  FaultStream s(0.01, 42);
  std::uint64_t faults = 0;
  for (int i = 0; i < 1000000; ++i) faults += s.chance(sc_core::SC_ZERO_TIME) ? 1 : 0;
  EXPECT_NEAR(static_cast<double>(faults), 10000.0, 500.0);
  // The index first_fault() gives is the chance the same stream taken one by one faults at.
  FaultStream one(0.001, 9), batch(0.001, 9);
  std::uint64_t first = 0;
  while (!one.chance(sc_core::SC_ZERO_TIME)) ++first;
  EXPECT_EQ(batch.first_fault(1000000, sc_core::SC_ZERO_TIME), first);
  // A batch that holds no fault leaves the stream where the chances left it.
  FaultStream x(0.001, 9), y(0.001, 9);
  ASSERT_GT(first, 10u);
  EXPECT_EQ(x.first_fault(first, sc_core::SC_ZERO_TIME), first);
  for (std::uint64_t i = 0; i < first; ++i) y.chance(sc_core::SC_ZERO_TIME);
  EXPECT_EQ(x.first_fault(100, sc_core::SC_ZERO_TIME), 0u);
  EXPECT_TRUE(y.chance(sc_core::SC_ZERO_TIME));
}

TEST(FaultStream, SeedsAreReproducibleAndEachClassAndTargetHasItsOwn) {
  EXPECT_EQ(fault_seed(1, "configuration", "slot0"), fault_seed(1, "configuration", "slot0"));
  EXPECT_NE(fault_seed(1, "configuration", "slot0"), fault_seed(1, "configuration", "slot1"));
  EXPECT_NE(fault_seed(1, "configuration", "slot0"), fault_seed(2, "configuration", "slot0"));
  EXPECT_NE(fault_seed(1, "ab", "c"), fault_seed(1, "a", "bc"));
  FaultStream a(0.3, 5), b(0.3, 5);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.chance(sc_core::SC_ZERO_TIME), b.chance(sc_core::SC_ZERO_TIME));
}

TEST(SlotUpsets, UpsetsArriveAtTheirRatePerConfiguredBitAndARepairDrawsTheNext) {
  // 4,096,000 configured bits at 2.5e-7 upsets per bit-second: 1.024 upsets/s, a mean of 976.6 ms between
  // an upset's repair and the next. 2,000 upsets: their mean lies within 5 standard deviations (2.2 %).
  FpgaSlot slot("slot", SlotParams{});
  slot.add_candidate(1, make_core("slot.aes", CoreParams{CoreKind::kAes128}));
  slot.preload(1);
  EXPECT_EQ(slot.next_upset(), sc_core::sc_max_time());  // nothing injected: never
  UpsetParams u;
  u.per_bit_per_s = 2.5e-7;
  u.seed = 11;
  u.bits[1] = 4096000;
  u.windows = {sc_time(5, SC_US)};  // before any drawn one (almost surely)
  slot.inject_upsets(u);
  EXPECT_EQ(slot.configured_bits(), 4096000u);
  EXPECT_EQ(slot.next_upset(), sc_time(5, SC_US));
  EXPECT_FALSE(slot.upset_by(sc_time(4, SC_US)));
  EXPECT_TRUE(slot.repair(sc_time(7, SC_US)));
  EXPECT_FALSE(slot.repair(sc_time(7, SC_US)));  // repaired: nothing left to repair at once
  constexpr int kUpsets = 2000;
  double sum_s = 0;
  sc_time from = sc_time(7, SC_US);
  for (int i = 0; i < kUpsets; ++i) {
    const sc_time at = slot.next_upset();
    ASSERT_LT(at, sc_core::sc_max_time());
    sum_s += (at - from).to_seconds();
    ASSERT_TRUE(slot.repair(at));
    from = at;
  }
  const double mean = 1.0 / (2.5e-7 * 4096000);
  EXPECT_NEAR(sum_s / kUpsets, mean, 5 * mean / std::sqrt(kUpsets));
  EXPECT_EQ(slot.upsets(), kUpsets + 1u);
}

}  // namespace
}  // namespace rsoc::models
