#include "models/resource_calendar.h"

#include <algorithm>

namespace rsoc::models {

using sc_core::sc_time;

void ResourceCalendar::forget(const sc_time& now) {
  if (intervals_.back().end <= now) {
    intervals_.clear();  // everything booked is over
    return;
  }
  // Ends are sorted like starts: intervals do not overlap.
  auto first_live = std::partition_point(intervals_.begin(), intervals_.end(),
                                         [&](const Interval& iv) { return iv.end <= now; });
  intervals_.erase(intervals_.begin(), first_live);
}

sc_time ResourceCalendar::book_gap(const sc_time& arrival, const sc_time& duration) {
  sc_time start = arrival;
  auto pos = std::partition_point(intervals_.begin(), intervals_.end(),
                                  [&](const Interval& iv) { return iv.end <= start; });
  for (; pos != intervals_.end(); ++pos) {
    if (start + duration <= pos->start) break;  // fits in the gap before this interval
    start = std::max(start, pos->end);          // collides: try after it
  }
  intervals_.insert(pos, Interval{start, start + duration});
  return start;
}

}  // namespace rsoc::models
