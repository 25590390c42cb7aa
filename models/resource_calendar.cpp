#include "models/resource_calendar.h"

#include <algorithm>

namespace rsoc::models {

using sc_core::sc_time;

sc_time ResourceCalendar::reserve(const sc_time& arrival, const sc_time& duration, const sc_time& now) {
  // Forget what can no longer constrain anybody.
  auto first_live =
      std::find_if(intervals_.begin(), intervals_.end(), [&](const Interval& iv) { return iv.end > now; });
  intervals_.erase(intervals_.begin(), first_live);

  sc_time start = arrival;
  auto pos = intervals_.begin();
  if (duration != sc_core::SC_ZERO_TIME) {
    for (; pos != intervals_.end(); ++pos) {
      if (pos->end <= start) continue;            // entirely before the candidate start
      if (start + duration <= pos->start) break;  // fits in the gap before this interval
      start = pos->end;                           // collides: try after it
    }
    pos = std::upper_bound(intervals_.begin(), intervals_.end(), start,
                           [](const sc_time& t, const Interval& iv) { return t < iv.start; });
    intervals_.insert(pos, Interval{start, start + duration});
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
