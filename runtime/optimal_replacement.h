#pragma once
// The optimal replacement bound: the fewest configurations any replacement policy could have needed to serve
// a run's hardware requests, in the order the manager served them, with the same slots. Computed offline,
// after the run, from that sequence (plain C++, no SystemC).
//
// Belady's MIN: a request whose core is resident is a hit; otherwise one configuration, into an empty slot
// that can host the core if there is one, else over the core whose next request comes last (or never). When
// every reconfigurable slot can host every core requested, this is the paging problem and MIN is optimal for
// it (Belady 1966, proved by Mattson, Gecsei, Slutz and Traiger 1970): no policy — LRU, LFU, FIFO or any
// other, online or not — serves the same sequence with fewer configurations, so the figure is a lower bound
// (`exact`). When slots differ in what they can host (a core too large for some), the same rule restricted to
// the slots that can host the core is computed (among equal choices, the slot that can host the fewest cores:
// the best fit); that problem is harder and the rule is not proven optimal there (`exact` false: a good
// offline schedule, not a bound).
//
// Cores in static slots are always resident (their requests are hits). The bound ignores concurrency: a real
// runtime never evicts a core in use and may configure a second copy of one that is busy, which only adds
// configurations; so it stays a bound for runs with several processes.

#include <cstdint>
#include <vector>

namespace rsoc::runtime {

struct ReplacementSlot {
  bool reconfigurable = true;
  int initial = -1;         // design configured when the run starts (-1: none)
  std::vector<bool> hosts;  // by design: whether the slot can be configured with it
};

struct OptimalReplacement {
  std::uint64_t configurations = 0;
  bool exact = true;  // every reconfigurable slot can host every core requested that no static slot holds
};

// `sequence`: design indices (from 0, below every slot's hosts.size()), in the order they were served.
OptimalReplacement optimal_replacement(const std::vector<int>& sequence,
                                       const std::vector<ReplacementSlot>& slots);

}  // namespace rsoc::runtime
