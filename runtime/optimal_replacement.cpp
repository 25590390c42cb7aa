#include "runtime/optimal_replacement.h"

#include <limits>

namespace rsoc::runtime {

OptimalReplacement optimal_replacement(const std::vector<int>& sequence,
                                       const std::vector<ReplacementSlot>& slots) {
  constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();
  OptimalReplacement out;
  // Where each request's design is requested next (kNever: not again).
  std::vector<std::size_t> next(sequence.size(), kNever);
  std::vector<std::size_t> first;  // by design: its first request
  for (std::size_t i = sequence.size(); i-- > 0;) {
    const auto d = static_cast<std::size_t>(sequence[i]);
    if (first.size() <= d) first.resize(d + 1, kNever);
    next[i] = first[d];
    first[d] = i;
  }
  const auto can_host = [&](const ReplacementSlot& s, int d) {
    return s.reconfigurable && static_cast<std::size_t>(d) < s.hosts.size() && s.hosts[d];
  };
  // Exact when every reconfigurable slot can host every design requested that no static slot holds.
  for (const int d : sequence) {
    bool static_copy = false;
    for (const auto& s : slots) static_copy = static_copy || (!s.reconfigurable && s.initial == d);
    if (static_copy) continue;
    for (const auto& s : slots)
      if (s.reconfigurable && !can_host(s, d)) out.exact = false;
  }
  std::vector<std::size_t> versatility(slots.size(), 0);  // designs each slot can host
  for (std::size_t s = 0; s < slots.size(); ++s)
    for (std::size_t d = 0; d < slots[s].hosts.size(); ++d)
      versatility[s] += can_host(slots[s], static_cast<int>(d));
  // What each slot holds, and when its design is requested next (from the request being served on).
  std::vector<int> holds(slots.size());
  std::vector<std::size_t> needed(slots.size(), kNever);
  for (std::size_t s = 0; s < slots.size(); ++s) {
    holds[s] = slots[s].initial;
    const auto d = static_cast<std::size_t>(holds[s]);
    if (holds[s] >= 0 && d < first.size()) needed[s] = first[d];
  }
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    const int d = sequence[i];
    bool hit = false;
    for (std::size_t s = 0; s < slots.size() && !hit; ++s)
      if (holds[s] == d) {
        hit = true;
        needed[s] = next[i];
      }
    if (hit) continue;
    ++out.configurations;
    // An empty slot that can host it, else the one whose design is needed last; among equals, the slot that
    // can host the fewest designs (the best fit, leaving the versatile slots to the cores that need them).
    std::size_t victim = slots.size();
    const auto better = [&](std::size_t a, std::size_t b) {  // a rather than b
      const bool a_empty = holds[a] < 0, b_empty = holds[b] < 0;
      if (a_empty != b_empty) return a_empty;
      if (!a_empty && needed[a] != needed[b]) return needed[a] > needed[b];
      return versatility[a] < versatility[b];
    };
    for (std::size_t s = 0; s < slots.size(); ++s)
      if (can_host(slots[s], d) && (victim == slots.size() || better(s, victim))) victim = s;
    if (victim == slots.size()) continue;  // no slot can host it (cannot happen for a served request)
    holds[victim] = d;
    needed[victim] = next[i];
  }
  return out;
}

}  // namespace rsoc::runtime
