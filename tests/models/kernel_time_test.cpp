// periods(), whole_periods(), periods_covering(): a clock's cycles as a simulated time, refused rather than
// wrapped past 2^57 ps.
#include "models/kernel_time.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using rsoc::models::periods;
using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;

TEST(KernelTime, PeriodsAreTheClocksCyclesAsATime) {
  EXPECT_EQ(periods(sc_time(10, SC_NS), 1000, "x"), sc_time(10, sc_core::SC_US));
  EXPECT_EQ(periods(sc_time(10, SC_NS), 0, "x"), sc_core::SC_ZERO_TIME);
  // Just under 2^57 ps in one piece is a time; 2^57 ps is refused, naming what it was for.
  EXPECT_EQ(periods(sc_time(1, SC_PS), 144115188075854848.0, "x").value(),
            144115188075854848ull);                                                          // 2^57 - 1024
  EXPECT_THROW(periods(sc_time(1, SC_PS), 144115188075855872.0, "x"), std::overflow_error);  // 2^57
  try {
    periods(sc_time(1, sc_core::SC_MS), 144115188.0 * 1000, "a core's operation");
    FAIL() << "no overflow_error";
  } catch (const std::overflow_error& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "a core's operation: 144115188000 cycles of 1 ms would last 2^57 ps (about 40 hours) or more in one "
        "piece");
  }
}

TEST(KernelTime, WholePeriodsAreWhatPeriodsGiveAndRefuseTheSameLengths) {
  using rsoc::models::whole_periods;
  for (std::uint64_t n : {0ull, 1ull, 7ull, 1000ull, 123456789ull})
    for (sc_time period : {sc_time(10, SC_NS), sc_time(1, SC_PS), sc_time(37, SC_PS), sc_time(3, sc_core::SC_US)})
      EXPECT_EQ(whole_periods(period, n, "x"), periods(period, static_cast<double>(n), "x")) << n << " " << period;
  EXPECT_EQ(whole_periods(sc_time(1, SC_PS), (1ull << 57) - 1, "x").value(), (1ull << 57) - 1);
  EXPECT_THROW(whole_periods(sc_time(1, SC_PS), 1ull << 57, "x"), std::overflow_error);
  EXPECT_THROW(whole_periods(sc_time(3, SC_PS), ((1ull << 57) + 2) / 3, "x"), std::overflow_error);
  EXPECT_EQ(whole_periods(sc_time(3, SC_PS), (1ull << 57) / 3, "x").value(), (1ull << 57) / 3 * 3);
  EXPECT_THROW(whole_periods(sc_time(1, sc_core::SC_SEC), ~0ull, "x"), std::overflow_error);  // no wrap
  try {
    whole_periods(sc_time(1, sc_core::SC_MS), 144115188000ull, "an FMC access");
    FAIL() << "no overflow_error";
  } catch (const std::overflow_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "an FMC access: 144115188000 cycles of 1 ms would last 2^57 ps (about 40 hours) or more in one "
              "piece");
  }
}

TEST(KernelTime, PeriodsCoveringIsTheCeilingOfTheRatio) {
  using rsoc::models::periods_covering;
  EXPECT_EQ(periods_covering(sc_core::SC_ZERO_TIME, sc_time(10, SC_NS)), 0u);
  EXPECT_EQ(periods_covering(sc_time(1, SC_PS), sc_time(10, SC_NS)), 1u);
  EXPECT_EQ(periods_covering(sc_time(10, SC_NS), sc_time(10, SC_NS)), 1u);
  EXPECT_EQ(periods_covering(sc_time(10001, SC_PS), sc_time(10, SC_NS)), 2u);
  EXPECT_EQ(periods_covering(sc_time(95, SC_NS), sc_time(10, SC_NS)), 10u);
}
