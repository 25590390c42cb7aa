// periods(): a clock's cycles as a simulated time, refused rather than wrapped past 2^57 ps.
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
