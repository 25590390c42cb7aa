#include "models/scrubber.h"

#include <stdexcept>

#include "models/kernel_time.h"

namespace rsoc::models {

Scrubber::Scrubber(const sc_core::sc_module_name& name, const ScrubParams& params, ConfigPort& port,
                   std::vector<FpgaSlot*> slots)
    : sc_module(name), params_(params), port_(port), slots_(std::move(slots)) {
  if (params.period == sc_core::SC_ZERO_TIME) throw std::invalid_argument("scrubber: the period must be > 0");
  SC_THREAD(run);
}

void Scrubber::run() {
  for (sc_core::sc_time next = sc_core::SC_ZERO_TIME;; next += params_.period) {
    if (next > kernel_time()) wait(next - kernel_time());
    for (FpgaSlot* slot : slots_) {
      const std::uint64_t words = slot->configured_bits() / 32;
      if (words == 0 || slot->state_at(kernel_time()) == SlotState::kConfiguring) continue;
      sc_core::sc_time end = port_.occupy(kernel_time(), words);  // write (blind) or read back the frames
      if (params_.mode == ScrubMode::kReadback && slot->upset_by(end))
        end = port_.occupy(end, params_.frame_words);  // the corrupted frame rewritten
      wait(end - kernel_time());
      ++scrubs_;
      if (slot->repair(kernel_time())) ++repairs_;
    }
  }
}

void Scrubber::statistics(double /*end_ms*/, std::vector<StatGroup>& out) const {
  StatGroup g{"scrubber", "scrubber", {}};
  g.add("scrubs", static_cast<double>(scrubs_), "count", "slots scrubbed")
      .add("repairs", static_cast<double>(repairs_), "count", "upsets scrubbing repaired");
  out.push_back(std::move(g));
}

}  // namespace rsoc::models
