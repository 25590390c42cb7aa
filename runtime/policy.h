#pragma once
// Selection policies: for every request, software or hardware, and why (plain C++, no SystemC).
//   software / hardware  — always the one (hardware only when a core implements the functionality);
//   threshold            — hardware from a block count per functionality;
//   cost_model           — the faster of the two predicted latencies (CostModel), counting reconfiguration
//   when
//                          the core is not resident and the wait for a slot;
//   adaptive             — knows no parameter: learns software and hardware time per request and per block
//                          (least squares) and the reconfiguration time from completed requests. Warm-up: for
//                          each functionality it explores until it has seen software at two block counts,
//                          hardware (resident) at two block counts and one reconfiguration — at most 5
//                          requests when block counts vary (2 software, then hardware: 1 cold + 2 cached) —
//                          then decides as cost_model does with what it learned;
//   energy               — learns as adaptive does, and chooses the implementation with the lower predicted
//                          energy: what the request spends (models/energy.h) plus the platform's floor power
//                          over its time — reconfiguration included when the core is not resident;
//   energy_delay         — the same, for the lower product of that energy and the predicted latency.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/name_table.h"
#include "runtime/cost_model.h"
#include "runtime/functionality.h"

namespace rsoc::runtime {

enum class PolicyKind { kSoftware, kHardware, kThreshold, kCostModel, kAdaptive, kEnergy, kEnergyDelay };
inline constexpr models::NameTable<PolicyKind, 7> kPolicyNames{
    {{{PolicyKind::kSoftware, "software"},
      {PolicyKind::kHardware, "hardware"},
      {PolicyKind::kThreshold, "threshold"},
      {PolicyKind::kCostModel, "cost_model"},
      {PolicyKind::kAdaptive, "adaptive"},
      {PolicyKind::kEnergy, "energy"},
      {PolicyKind::kEnergyDelay, "energy_delay"}}}};
// Whether the policy needs an energy model.
inline bool needs_energy(PolicyKind kind) {
  return kind == PolicyKind::kEnergy || kind == PolicyKind::kEnergyDelay;
}

// What the manager knows when it decides.
struct RequestView {
  Functionality functionality = Functionality::kAes128;
  std::uint64_t blocks = 0;
  bool has_software = true;
  bool has_hardware = false;  // a core design implements it and some slot can host it
  // Why there is no hardware, for the policies' reasons ("no core implements aes128").
  const char* no_hardware = "no core implements";
  bool resident = false;  // configured in a slot (idle or busy)
  bool resident_idle = false;
  double slot_wait_s = 0;  // predicted wait for a slot when none is usable now
};

struct Decision {
  bool hardware = false;
  std::string reason;
};

// A completed request, as the adaptive policy learns from it.
struct Observation {
  Functionality functionality = Functionality::kAes128;
  std::uint64_t blocks = 0;
  bool hardware = false;
  bool reconfigured = false;
  // Running the implementation: its execution less the time it waited for the CPU meanwhile (other processes'
  // turns, which depend on the load around it, not on the implementation); no queueing, no reconfiguration.
  double exec_s = 0;
  double reconfig_s = 0;  // configuring the slot, when reconfigured
  // With an energy model (joules): what running the implementation and configuring the slot cost the
  // platform, each its own spending plus the floor power over its time.
  double exec_j = 0, reconfig_j = 0;
};

class SelectionPolicy {
 public:
  virtual ~SelectionPolicy() = default;
  virtual Decision decide(const RequestView& view) = 0;
  virtual void observe(const Observation&) {}
  virtual const char* name() const = 0;
};

std::unique_ptr<SelectionPolicy> make_policy(PolicyKind kind,
                                             const std::map<Functionality, std::uint64_t>& thresholds,
                                             const CostModel* model, double floor_mw = 0);

std::string ms_text(double seconds);  // "12.345 ms"

// Least-squares line y = a + b * blocks over observations (a time or an energy).
class LinearFit {
 public:
  void add(double blocks, double seconds);
  std::size_t count() const { return n_; }
  std::size_t distinct_sizes() const { return sizes_.size(); }
  double predict(double blocks) const;

 private:
  std::size_t n_ = 0;
  double sx_ = 0, sy_ = 0, sxx_ = 0, sxy_ = 0;
  std::map<double, int> sizes_;
};

}  // namespace rsoc::runtime
