#include "runtime/slot_table.h"

namespace rsoc::runtime {

std::optional<SlotTable::Choice> SlotTable::choose(int design, std::uint64_t bytes, bool can_configure,
                                                   const std::function<bool(std::size_t)>& holds) const {
  std::optional<std::size_t> resident;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].design != design || slots_[i].in_use) continue;
    if (!holds || holds(i)) return Choice{i, false, -1};
    if (!resident) resident = i;
  }
  if (resident) return Choice{*resident, false, -1};
  std::optional<std::size_t> victim;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Slot& s = slots_[i];
    if (s.in_use || !fits(s, bytes, can_configure)) continue;
    if (s.design < 0) return Choice{i, true, -1};
    if (!victim) {
      victim = i;
      continue;
    }
    const Slot& v = slots_[*victim];
    const bool better = replacement_ == Replacement::kLru ? s.last_use < v.last_use
                        : replacement_ == Replacement::kLfu
                            ? (s.uses < v.uses || (s.uses == v.uses && s.last_use < v.last_use))
                            : s.loaded_seq < v.loaded_seq;
    if (better) victim = i;
  }
  if (!victim) return std::nullopt;
  return Choice{*victim, true, slots_[*victim].design};
}

void SlotTable::start(std::size_t slot, int design, bool configure) {
  Slot& s = slots_[slot];
  s.in_use = true;
  if (configure) {
    s.design = design;
    s.loaded_seq = ++clock_;
    s.uses = 0;
  }
  stamp(slot);
}

void SlotTable::stamp(std::size_t slot) {
  ++slots_[slot].uses;
  slots_[slot].last_use = ++clock_;
}

void SlotTable::configuration_failed(std::size_t slot) {
  slots_[slot].design = -1;
}

void SlotTable::retire(std::size_t slot) {
  slots_[slot].retired = true;
  slots_[slot].design = -1;
}

void SlotTable::finish(std::size_t slot, bool keep) {
  Slot& s = slots_[slot];
  s.in_use = false;
  if (!keep && s.reconfigurable) s.design = -1;
}

void SlotTable::unload_idle() {
  for (auto& s : slots_)
    if (!s.in_use && s.reconfigurable) s.design = -1;
}

bool SlotTable::resident(int design) const {
  for (const auto& s : slots_)
    if (s.design == design) return true;
  return false;
}

bool SlotTable::resident_idle(int design) const {
  for (const auto& s : slots_)
    if (s.design == design && !s.in_use) return true;
  return false;
}

bool SlotTable::could_host(std::size_t slot, int design, std::uint64_t bytes, bool can_configure) const {
  return slots_[slot].design == design || fits(slots_[slot], bytes, can_configure);
}

}  // namespace rsoc::runtime
