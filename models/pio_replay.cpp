#include "models/pio_replay.h"

#include <algorithm>

namespace rsoc::models {

void PioRecording::end() {
  // Models in the order of their first access; a stable sort keeps each one's entries in time order.
  std::vector<const void*> order;
  for (const Entry& e : entries_)
    if (std::find(order.begin(), order.end(), e.owner) == order.end()) order.push_back(e.owner);
  auto rank = [&](const void* owner) { return std::find(order.begin(), order.end(), owner) - order.begin(); };
  std::stable_sort(entries_.begin(), entries_.end(),
                   [&](const Entry& a, const Entry& b) { return rank(a.owner) < rank(b.owner); });
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
