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
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (owners_.empty() || owners_.back().owner != entries_[i].owner)
      owners_.push_back({entries_[i].owner, i, i});
    owners_.back().last = i + 1;
  }
}

}  // namespace rsoc::models
