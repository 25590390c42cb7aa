// FaultStream: seeded draws of faults by chance, fault windows, and their reproducibility.
#include "models/faults.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

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

}  // namespace
}  // namespace rsoc::models
