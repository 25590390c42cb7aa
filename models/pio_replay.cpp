#include "models/pio_replay.h"

#include <algorithm>

namespace rsoc::models {

void PioRecording::end() {
  // Models in the order of their first access (a few: the buses on the path and a core), each one's entries
  // in time order.
  order_.clear();
  for (const Entry& e : entries_)
    if (std::find(order_.begin(), order_.end(), e.owner) == order_.end()) order_.push_back(e.owner);
  grouped_.clear();
  for (const void* owner : order_)
    for (const Entry& e : entries_)
      if (e.owner == owner) grouped_.push_back(e);
  entries_.swap(grouped_);
  owners_.clear();
  sc_core::sc_time end_of_last{sc_core::SC_ZERO_TIME};  // of the owner's last booking of non-zero length
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (owners_.empty() || owners_.back().owner != e.owner) {
      owners_.push_back({e.owner, i, i, true, sc_core::SC_ZERO_TIME, 0});
      end_of_last = sc_core::SC_ZERO_TIME;
    }
    Owner& o = owners_.back();
    o.last = i + 1;
    o.busy += e.length;
    o.words += e.words;
    if (e.length == sc_core::SC_ZERO_TIME) continue;
    if (e.at < end_of_last) o.ordered = false;
    end_of_last = e.at + e.length;
  }
}

}  // namespace rsoc::models
