// ResourceCalendar: one reservation at a time, earliest free gap at or after the arrival, waiting accounting.
#include "models/resource_calendar.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

const sc_core::sc_time kZero = sc_core::SC_ZERO_TIME;

TEST(ModelResourceCalendar, FreeResourceStartsAtArrival) {
  ResourceCalendar cal;
  EXPECT_EQ(cal.reserve(ns(30), ns(10), kZero), ns(30));
  EXPECT_EQ(cal.busy_time(), ns(10));
  EXPECT_EQ(cal.wait_time(), kZero);
  EXPECT_EQ(cal.reservations(), 1u);
  EXPECT_EQ(cal.contended(), 0u);
}

TEST(ModelResourceCalendar, BackToBackRequestsQueue) {
  ResourceCalendar cal;
  EXPECT_EQ(cal.reserve(ns(0), ns(10), kZero), ns(0));
  EXPECT_EQ(cal.reserve(ns(0), ns(10), kZero), ns(10));  // waits 10 ns
  EXPECT_EQ(cal.reserve(ns(5), ns(10), kZero), ns(20));  // waits 15 ns
  // Arriving exactly when the resource frees up costs nothing.
  EXPECT_EQ(cal.reserve(ns(30), ns(10), kZero), ns(30));
  EXPECT_EQ(cal.busy_time(), ns(40));
  EXPECT_EQ(cal.wait_time(), ns(25));  // 10 + 15
  EXPECT_EQ(cal.reservations(), 4u);
  EXPECT_EQ(cal.contended(), 2u);
}

TEST(ModelResourceCalendar, OutOfOrderArrivalsFillEarlierGaps) {
  ResourceCalendar cal;
  EXPECT_EQ(cal.reserve(ns(100), ns(10), kZero), ns(100));  // [100, 110)
  EXPECT_EQ(cal.reserve(ns(0), ns(10), kZero), ns(0));      // [0, 10): before it, no wait
  // [50, 110) would overlap [100, 110): the first gap that fits is after 110.
  EXPECT_EQ(cal.reserve(ns(50), ns(60), kZero), ns(110));  // [110, 170), waits 60
  EXPECT_EQ(cal.reserve(ns(20), ns(30), kZero), ns(20));   // [20, 50) fits between 10 and 100
  // Arriving at 5 for 15 ns: [5, 20) collides with [0, 10), [10, 25) with [20, 50); [50, 65) fits before 100.
  EXPECT_EQ(cal.reserve(ns(5), ns(15), kZero), ns(50));  // waits 45
  // A 40 ns request arriving at 0 fits no gap (the widest is [65, 100)) and goes after 170.
  EXPECT_EQ(cal.reserve(ns(0), ns(40), kZero), ns(170));  // waits 170
  EXPECT_EQ(cal.busy_time(), ns(10 + 10 + 60 + 30 + 15 + 40));
  EXPECT_EQ(cal.wait_time(), ns(60 + 45 + 170));
  EXPECT_EQ(cal.reservations(), 6u);
  EXPECT_EQ(cal.contended(), 3u);
}

TEST(ModelResourceCalendar, ExactGapIsUsed) {
  ResourceCalendar cal;
  cal.reserve(ns(0), ns(10), kZero);                     // [0, 10)
  cal.reserve(ns(20), ns(10), kZero);                    // [20, 30)
  EXPECT_EQ(cal.reserve(ns(0), ns(10), kZero), ns(10));  // exactly [10, 20)
  EXPECT_EQ(cal.reserve(ns(0), ns(1), kZero), ns(30));   // no gap left before 30
  EXPECT_EQ(cal.wait_time(), ns(10 + 30));
}

TEST(ModelResourceCalendar, ZeroDurationNeverWaitsNorBlocks) {
  ResourceCalendar cal;
  cal.reserve(ns(0), ns(10), kZero);                   // [0, 10)
  EXPECT_EQ(cal.reserve(ns(5), kZero, kZero), ns(5));  // inside a busy interval: still no wait
  EXPECT_EQ(cal.reserve(ns(10), kZero, kZero), ns(10));
  EXPECT_EQ(cal.reserve(ns(10), ns(10), kZero), ns(10));  // the zero-length requests left no trace
  EXPECT_EQ(cal.busy_time(), ns(20));
  EXPECT_EQ(cal.wait_time(), kZero);
  EXPECT_EQ(cal.reservations(), 4u);
  EXPECT_EQ(cal.contended(), 0u);
}

TEST(ModelResourceCalendar, ReservationsEndedBeforeNowAreForgotten) {
  ResourceCalendar cal;
  cal.reserve(ns(0), ns(10), kZero);  // [0, 10)
  // With the kernel at 10 ns, [0, 10) can no longer constrain anybody; statistics are kept.
  EXPECT_EQ(cal.reserve(ns(5), ns(10), ns(10)), ns(5));
  // [5, 15) is still live at now = 12.
  EXPECT_EQ(cal.reserve(ns(12), ns(10), ns(12)), ns(15));
  EXPECT_EQ(cal.busy_time(), ns(30));
  EXPECT_EQ(cal.wait_time(), ns(3));
  EXPECT_EQ(cal.reservations(), 3u);
  EXPECT_EQ(cal.contended(), 1u);
}



struct Booking {
  sc_core::sc_time at, length;
};

// Probes both calendars with the same reservations: the same starts and the same accounting.
void expect_same(ResourceCalendar& a, ResourceCalendar& b) {
  EXPECT_EQ(a.busy_time(), b.busy_time());
  EXPECT_EQ(a.reservations(), b.reservations());
  EXPECT_EQ(a.wait_time(), b.wait_time());
  EXPECT_EQ(a.contended(), b.contended());
  for (int t : {0, 95, 100, 104, 111, 125, 131, 150, 199, 260})
    EXPECT_EQ(a.reserve(ns(t), ns(4), ns(90)), b.reserve(ns(t), ns(4), ns(90))) << t;
}

// A replay's bookings, ordered, after everything booked: in one go exactly what one by one does.
TEST(ModelResourceCalendar, ABulkBookingIsTheSameAsOneByOne) {
  const std::vector<Booking> seq{{ns(0), ns(3)}, {ns(5), ns(3)}, {ns(6), kZero}, {ns(10), ns(3)},
                                 {ns(13), ns(2)}};
  ResourceCalendar bulk, single;
  for (ResourceCalendar* c : {&bulk, &single}) c->reserve(ns(20), ns(50), kZero);  // [20, 70)
  ASSERT_TRUE(bulk.reserve_after_all(seq.begin(), seq.end(), ns(100), ns(11), ns(90)));
  for (const Booking& b : seq) EXPECT_EQ(single.reserve(b.at + ns(100), b.length, ns(90)), b.at + ns(100));
  expect_same(bulk, single);
}

// Something booked after the first start: nothing is booked, for the caller to book one by one.
TEST(ModelResourceCalendar, ABulkBookingInTheWayOfAnotherBooksNothing) {
  const std::vector<Booking> seq{{ns(0), ns(3)}, {ns(5), ns(3)}};
  ResourceCalendar bulk, untouched;
  for (ResourceCalendar* c : {&bulk, &untouched}) c->reserve(ns(101), ns(2), kZero);  // [101, 103)
  EXPECT_FALSE(bulk.reserve_after_all(seq.begin(), seq.end(), ns(100), ns(6), ns(90)));
  expect_same(bulk, untouched);
}

}  // namespace
}  // namespace rsoc::models
