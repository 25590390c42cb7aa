#pragma once
// Analytic estimates of request costs from a scenario's parameters (no simulation): the per-access time of
// the path from the CPU to a slot, the hardware request and block costs of each functionality, and the
// reconfiguration time through the slowest stage of the bitstream's path. They feed the cost_model policy and
// the analytic column of `rsoc crossover`; the simulation itself never uses them.

#include "platform/scenario.h"
#include "runtime/cost_model.h"

namespace rsoc::platform {

struct AccessEstimate {
  double read_s = 0, write_s = 0;
};

// A 32-bit MMIO access from the first CPU to slot `slot` hosting a core with `core` parameters.
AccessEstimate estimate_access(const ScenarioParams& p, std::size_t slot, const models::CoreParams& core);
// Reconfiguring a slot with `core`'s bitstream.
double estimate_reconfiguration_s(const ScenarioParams& p, const CoreSpec& core);
runtime::CostModelParams estimate_costs(const ScenarioParams& p);

}  // namespace rsoc::platform
