#pragma once
// Crossover experiments: for each functionality and block count (blocks of the functionality's unit,
// runtime.unit_bytes), one request in software, one in hardware
// with the core not resident (reconfiguration included) and one in hardware with the core cached — all inside
// one simulation, one after the other, on the scenario's platform with its background load. The crossover is
// the smallest block count at which hardware with reconfiguration is faster than software; beside it, the
// analytic estimate from the scenario's parameters (runtime::CostModel from platform/estimate.cpp).
// With an energy model (section energy), each mode's energy too: what the request spent (its CPU time above
// idle, its accesses, transfers, configuration and core cycles) plus the platform's floor power (nothing
// busy) over its latency — the energy the platform needs to serve it alone. The energy crossover is the
// smallest block count at which hardware with reconfiguration costs less energy than software.
//
// Which block counts are simulated: every one up to table_blocks (the table, in order), then, for a
// crossover not found in the table, a search up to max_blocks that simulates a number of block counts
// growing with log(max_blocks): galloping over the powers of two above the table (whatever its length, so
// that the answer does not depend on it) until hardware wins, then bisection on the simulated difference
// down to two neighbours, the lower one losing and the upper one winning. Within the table the answer is the
// exhaustive one. The gallop stops early, with no crossover up to max_blocks, when the difference (hardware
// minus software) has not fallen over two doublings while hardware lost: both times grow in proportion to
// the blocks, and hardware is no faster per block. A request holds at most kMaxRequestBytes of input: the
// search goes no further (searched_to says how far it went). Where software and hardware cross more than
// once among the block counts simulated, `crossings` says so.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "platform/scenario.h"

namespace rsoc::platform {

struct CrossoverOptions {
  // Names of the functionalities (built-in, or a custom core's); empty: every one with software and hardware.
  std::vector<std::string> functionalities;
  std::uint64_t max_blocks = 200;    // the crossover is searched up to it
  std::uint64_t table_blocks = 200;  // every block count up to it is simulated (at most max_blocks)
};

// The most input one request of a crossover experiment holds (1 GiB): the search goes no further.
inline constexpr std::uint64_t kMaxRequestBytes = std::uint64_t{1} << 30;

// The functionalities named by `names` (as --functionality gives them) in the scenario of `p`; a name it does
// not know is a ScenarioError named after the flag.
std::vector<runtime::Functionality> check_functionalities(const ScenarioParams& p,
                                                          const std::vector<std::string>& names);

struct CrossoverRow {
  runtime::Functionality functionality;
  std::uint64_t blocks = 0;
  std::uint64_t unit_bytes = 0;  // of a block
  double sw_s = 0, hw_cold_s = 0, hw_cached_s = 0;
  // Joules, with an energy model.
  std::optional<double> sw_j, hw_cold_j, hw_cached_j;
};

struct CrossoverSummary {
  runtime::Functionality functionality;
  // Absent: none up to searched_to (censored: the crossover is beyond it, if there is one).
  std::optional<std::uint64_t> simulated, analytic;
  std::optional<std::uint64_t> energy;  // the energy crossover (with an energy model)
  std::uint64_t searched_to = 0;        // the largest block count searched: max_blocks, or what a request holds
  // Times the faster of software and hardware with reconfiguration changes among the block counts simulated
  // (more than one: they cross more than once, and the crossover is the first).
  unsigned crossings = 0;
  std::uint64_t simulated_counts = 0;  // block counts simulated for it (the table's and the search's)
};

struct CrossoverResult {
  std::vector<CrossoverRow> rows;
  std::vector<CrossoverSummary> summary;
  std::uint64_t experiments = 0, blocks = 0, cipher_blocks = 0;  // simulated, over the three modes
  double wall_s = 0;                                             // simulating (elaboration excluded)
  double simulated_s = 0;                                        // simulated time
  bool energy = false;                                           // the scenario has an energy model
};

// Runs the experiments in this process (one elaboration). Throws ScenarioError when a functionality has no
// software or no hardware implementation, SimulationError when the simulation fails.
CrossoverResult run_crossover(const Scenario& scenario, const CrossoverOptions& options);
// crossover.csv, crossover_summary.csv, resolved_scenario.json and host.json into `out`, committed (the
// folder is made before the experiments run: a destination that cannot be written stops them before they
// start). Throws analysis::OutputDirError, Interrupted.
void write_crossover(const CrossoverResult& result, const Scenario& scenario, analysis::OutputDir& out);
// The summary as a small table (a crossover beyond the search as "> N"), and a line for each functionality
// whose software and hardware cross more than once.
std::string crossover_table(const CrossoverResult& result);
// "> N": a crossover censored at N (none up to N).
std::string beyond_text(std::uint64_t searched_to);

}  // namespace rsoc::platform
