#pragma once
// What the commands that run sweeps share: sweep, sensitivity, crossover --param (and merge, which finishes a
// sensitivity study). The points run as `rsoc point` processes (tools/sweep_runner.h) or, with --emit, from
// the job description platform/sweep writes.

#include <string>
#include <vector>

#include "analysis/sensitivity_table.h"
#include "platform/crossover.h"
#include "platform/sweep.h"
#include "tools/cli.h"

namespace rsoc::cli {

// How the points of a sweep run (--jobs, --resume, --emit): shared by `sweep`, `crossover --param` and
// `sensitivity`.
void add_runner_options(po::options_description& opts);
// Options shared by `sweep` and `crossover --param`: --param and the runner's.
void add_sweep_options(po::options_description& opts);
// The sweep of `command` over the scenario named on the command line (or the default one), every value
// checked before any point runs.
rsoc::platform::SweepSpec sweep_spec(const po::variables_map& vm, const std::string& command);
// --functionality, --max-blocks and --table of a crossover experiment.
rsoc::platform::CrossoverOptions crossover_options(const po::variables_map& vm);
// Prepares the sweep in `dir`, then runs its points here or writes what runs them elsewhere.
int run_sweep(const rsoc::platform::SweepSpec& spec, const po::variables_map& vm, const fs::path& dir);
// sensitivity.csv from the points of the sensitivity study in `dir`; returns its rows. Throws
// SimulationError when a point did not succeed, SweepError for an unknown metric.
std::vector<rsoc::analysis::SensitivityRow> finish_sensitivity(const fs::path& dir);

}  // namespace rsoc::cli
