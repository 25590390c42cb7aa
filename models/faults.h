#pragma once
// Injected faults (the scenario's `faults` section): seeded, reproducible draws that a model consults at each
// moment a fault can happen there (a configuration starts, a bitstream bit crosses the port, ...), and fault
// windows that arm a fault for the first such moment at or after a given time, so that an experiment can hit
// an exact moment.
//
// Cost: a model without faults holds no FaultStream (a null pointer, tested once per chance); a stream draws
// one random number per fault, not per chance: the number of chances that pass before the next fault is
// geometric, and a chance costs a decrement.

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <systemc>

#include "models/name_table.h"

namespace rsoc::models {

// The faults a scenario can place at a time (faults.at): a configuration that fails its check, an upset of a
// configured core, a core's hang, a bus access that fails.
enum class FaultKind { kConfiguration, kUpset, kHang, kBus };
inline constexpr NameTable<FaultKind, 4> kFaultKindNames{{{{FaultKind::kConfiguration, "configuration"},
                                                           {FaultKind::kUpset, "upset"},
                                                           {FaultKind::kHang, "hang"},
                                                           {FaultKind::kBus, "bus"}}}};

// A seed of its own for each fault class and target, derived from the scenario's fault seed (SplitMix64
// mixing): streams do not share draws, and adding one does not move the others.
std::uint64_t fault_seed(std::uint64_t seed, const std::string& fault_class, const std::string& target);

class FaultStream {
 public:
  // Never faults (no probability and no window).
  FaultStream() = default;
  // Each chance faults with `probability` (in [0, 1]); throws std::invalid_argument outside it.
  FaultStream(double probability, std::uint64_t seed);

  // A fault at the first chance at or after `at` (windows are kept in time order).
  void arm(const sc_core::sc_time& at);

  // One chance at time `now`: true when it faults (by draw or by an armed window).
  bool chance(const sc_core::sc_time& now);
  // `n` chances at once at time `now`: the index of the first that faults, or n when none does. The chances
  // after a fault are spent (a caller that meets a fault stops there).
  std::uint64_t first_fault(std::uint64_t n, const sc_core::sc_time& now);

  double probability() const { return probability_; }
  std::uint64_t faults() const { return faults_; }  // faults it gave

 private:
  void draw();  // chances before the next fault by draw
  bool window_open(const sc_core::sc_time& now);

  double probability_ = 0;
  double log_miss_ = 0;                     // log(1 - probability)
  std::uint64_t left_ = ~std::uint64_t{0};  // chances before the next drawn fault (max: none)
  std::deque<sc_core::sc_time> windows_;    // armed, earliest first
  std::mt19937_64 rng_;
  std::uint64_t faults_ = 0;
};

}  // namespace rsoc::models
