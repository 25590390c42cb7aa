#pragma once
// SlotTable: what the OS knows of the FPGA slots — which core design each holds, whether a request is using
// it, and the bookkeeping of the replacement strategies (plain C++, no SystemC).
//   choose(): the resident idle copy of the design (a cache hit; of several, the first that holds the
//   requester's context, runtime/process_contexts.h, else the first), else an empty slot it fits, else the victim
//   among idle slots it fits: LRU (least recently used), LFU (fewest uses since loaded; ties by LRU) or FIFO
//   (loaded first). A slot in use is never chosen, so a core in use is never evicted.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "models/name_table.h"

namespace rsoc::runtime {

enum class Replacement { kLru, kLfu, kFifo };
inline constexpr models::NameTable<Replacement, 3> kReplacementNames{
    {{{Replacement::kLru, "lru"}, {Replacement::kLfu, "lfu"}, {Replacement::kFifo, "fifo"}}}};
// How a request's reason names them.
inline constexpr models::NameTable<Replacement, 3> kReplacementDescriptions{
    {{{Replacement::kLru, "least recently used"},
      {Replacement::kLfu, "least frequently used"},
      {Replacement::kFifo, "first in"}}}};

class SlotTable {
 public:
  struct Slot {
    bool reconfigurable = true;
    std::uint64_t capacity_bytes = 0;
    int design = -1;  // -1: empty (as far as the OS knows)
    bool in_use = false;
    bool retired = false;  // never used again (a faulty region)
    std::uint64_t loaded_seq = 0, last_use = 0, uses = 0;
  };
  struct Choice {
    std::size_t slot = 0;
    bool configure = false;
    int evicted = -1;  // design that leaves, or -1
  };

  SlotTable(std::vector<Slot> slots, Replacement replacement)
      : slots_(std::move(slots)), replacement_(replacement) {}

  // Where a request for `design` (bitstream of `bytes`) can run now; nothing when every usable slot is in
  // use. `holds(slot)`, when given: whether the slot holds the requester's context.
  std::optional<Choice> choose(int design, std::uint64_t bytes, bool can_configure,
                               const std::function<bool(std::size_t)>& holds = {}) const;
  // A request starts using `slot`; with `configure` the slot is being loaded with `design`.
  void start(std::size_t slot, int design, bool configure);
  // A core library takes the core configured in `slot` (in use; its place in the LRU order unchanged until
  // stamp()), and confirms it took it: the slot becomes the most recently used.
  void take(std::size_t slot) { slots_[slot].in_use = true; }
  void stamp(std::size_t slot);
  // The configuration of `slot` failed: it is empty.
  void configuration_failed(std::size_t slot);
  // `slot` is never used again: it holds nothing and no request chooses it (it may still be in use).
  void retire(std::size_t slot);
  // The request using `slot` is done; without `keep` (no module caching) the core leaves.
  void finish(std::size_t slot, bool keep);
  // Forget every idle core (the next request for it reconfigures).
  void unload_idle();

  bool resident(int design) const;
  bool resident_idle(int design) const;
  bool could_host(std::size_t slot, int design, std::uint64_t bytes, bool can_configure) const;
  const Slot& operator[](std::size_t i) const { return slots_[i]; }
  std::size_t size() const { return slots_.size(); }
  Replacement replacement() const { return replacement_; }

 private:
  bool fits(const Slot& s, std::uint64_t bytes, bool can_configure) const {
    return can_configure && s.reconfigurable && !s.retired && bytes <= s.capacity_bytes;
  }
  std::vector<Slot> slots_;
  Replacement replacement_;
  std::uint64_t clock_ = 0;
};

}  // namespace rsoc::runtime
