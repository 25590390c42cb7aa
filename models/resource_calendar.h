#pragma once
// ResourceCalendar: the one contention mechanism of rsoc's loosely-timed models.
// Timing contract: a resource (bus, port, core) serves one reservation at a time. A request that arrives at
// `arrival` for `duration` starts at the earliest free gap at or after `arrival`; its waiting time is
// start - arrival. Out-of-order arrivals (initiators running ahead within their quantum) fill earlier gaps.

#include <systemc>
#include <vector>

#include "models/kernel_time.h"

namespace rsoc::models {

class ResourceCalendar {
 public:
  // Reserves `duration` at the earliest free time >= `arrival`; returns the start of the reservation.
  // Reservations ending at or before `now` are forgotten first (nobody can arrive before the kernel time).
  // Inline: buses reserve on every access.
  sc_core::sc_time reserve(const sc_core::sc_time& arrival, const sc_core::sc_time& duration,
                           const sc_core::sc_time& now) {
    if (!intervals_.empty() && intervals_.front().end <= now) forget(now);
    sc_core::sc_time start = arrival;
    if (duration != sc_core::SC_ZERO_TIME) {
      if (intervals_.empty() || intervals_.back().end <= arrival) {
        intervals_.push_back(Interval{start, start + duration});  // the common case: after everything booked
      } else {
        start = book_gap(arrival, duration);
      }
    }
    busy_ += duration;
    if (start > arrival) {
      waited_ += start - arrival;
      ++contended_;
    }
    ++count_;
    return start;
  }
  // Books a sequence of reservations (members `at` and `length`), each at its `at` plus `shift`, in one go
  // when every one of them falls after everything booked: the sequence must be ordered (each reservation of
  // non-zero length ends at or before the next one starts) and `total` the sum of its lengths. Then it does
  // exactly what reserve() on each would do (no wait, no gap search) and returns true; otherwise it books
  // nothing and returns false, for the caller to reserve them one by one.
  template <typename It>
  bool reserve_after_all(It first, It last, const sc_core::sc_time& shift, const sc_core::sc_time& total,
                         const sc_core::sc_time& now) {
    if (!intervals_.empty() && intervals_.front().end <= now) forget(now);
    It e = first;
    while (e != last && e->length == sc_core::SC_ZERO_TIME) ++e;
    if (e != last && !intervals_.empty() && intervals_.back().end > e->at + shift) return false;
    for (; e != last; ++e) {
      if (e->length == sc_core::SC_ZERO_TIME) continue;
      const sc_core::sc_time start = e->at + shift;
      intervals_.push_back(Interval{start, start + e->length});
    }
    busy_ += total;
    count_ += static_cast<std::uint64_t>(last - first);
    return true;
  }
  // Same, with now = the kernel's time.
  sc_core::sc_time reserve(const sc_core::sc_time& arrival, const sc_core::sc_time& duration) {
    return reserve(arrival, duration, kernel_time());
  }

  const sc_core::sc_time& busy_time() const { return busy_; }
  const sc_core::sc_time& wait_time() const { return waited_; }
  std::uint64_t reservations() const { return count_; }
  std::uint64_t contended() const { return contended_; }

 private:
  struct Interval {
    sc_core::sc_time start, end;
  };
  // Drops the reservations that end at or before `now` (they can no longer constrain anybody).
  void forget(const sc_core::sc_time& now);
  // Books `duration` in the first gap at or after `arrival` that holds it, among later reservations.
  sc_core::sc_time book_gap(const sc_core::sc_time& arrival, const sc_core::sc_time& duration);

  std::vector<Interval> intervals_;  // sorted by start, non-overlapping
  sc_core::sc_time busy_{sc_core::SC_ZERO_TIME};
  sc_core::sc_time waited_{sc_core::SC_ZERO_TIME};
  std::uint64_t count_ = 0;
  std::uint64_t contended_ = 0;
};

}  // namespace rsoc::models
