#include "models/resource_calendar.h"

#include <algorithm>

namespace rsoc::models {

using sc_core::sc_time;

sc_time ResourceCalendar::reserve(const sc_time& arrival, const sc_time& duration, const sc_time& now) {
  // Forget what can no longer constrain anybody (ends are sorted like starts: intervals do not overlap).
  if (!intervals_.empty() && intervals_.front().end <= now) {
    auto first_live = std::partition_point(intervals_.begin(), intervals_.end(),
                                           [&](const Interval& iv) { return iv.end <= now; });
    intervals_.erase(intervals_.begin(), first_live);
  }

  sc_time start = arrival;
  if (duration != sc_core::SC_ZERO_TIME) {
    if (intervals_.empty() || intervals_.back().end <= arrival) {
      intervals_.push_back(Interval{start, start + duration});  // the common case: after everything booked
    } else {
      auto pos = std::partition_point(intervals_.begin(), intervals_.end(),
                                      [&](const Interval& iv) { return iv.end <= start; });
      for (; pos != intervals_.end(); ++pos) {
        if (start + duration <= pos->start) break;  // fits in the gap before this interval
        start = std::max(start, pos->end);          // collides: try after it
      }
      intervals_.insert(pos, Interval{start, start + duration});
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

}  // namespace rsoc::models
