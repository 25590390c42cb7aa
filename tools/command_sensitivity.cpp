// rsoc sensitivity: how far each figure moves with each assumption.

#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "analysis/sensitivity_table.h"
#include "platform/sensitivity.h"
#include "platform/sweep.h"
#include "tools/cli.h"
#include "tools/sweep_command.h"

namespace rsoc::cli {

namespace {

int cmd_sensitivity(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc sensitivity SCENARIO --vary path=LOW:HIGH... --out DIR [options]\n\nHow far each figure moves "
      "with each stated assumption. Runs SCENARIO at its base values\nand at each end of each --vary, one "
      "assumption at a time (the others at their base\nvalues), every run its own `rsoc point` process as in "
      "a sweep, and writes\nDIR/sensitivity.csv: parameter, low, high, metric, at_low, at_base, at_high, "
      "swing_pct\n(swing_pct = (at_high - at_low) / at_base * 100), a row per assumption and metric in the\n"
      "order given, and prints it. DIR/sweep.csv has every point; DIR/points/ their results.\nThe base point "
      "runs first: an unknown --metric stops the study there (--resume with\nother metrics goes on). With "
      "--emit, `rsoc merge DIR` writes the table once the points ran.\n\nAn "
      "assumption that trades off against a calibrated input is varied together with its\ncompensation, so "
      "that the calibrated figure holds: --vary 'p1=L1:H1,p2=L2:H2' moves both\n(parameter p1+p2, low "
      "L1+L2, high H1+H2).\n\noptions");
  opts.add_options()("help,h", "this help")(
      "vary", po::value<std::vector<std::string>>()->composing(),
      "an assumption: path=LOW:HIGH (path as in --set; LOW and HIGH value texts as --set takes them, split "
      "at the ':' outside JSON brackets and strings), or several inputs moved together: "
      "path=LOW:HIGH,path=LOW:HIGH; repeatable")(
      "metric,m", po::value<std::vector<std::string>>()->composing(),
      "a metric of sweep.csv to report (run: requests, failed, simulated_ms, requests_per_s, "
      "<functionality>.<decision>.<figure>; crossover: <functionality>.crossover_blocks, "
      "<functionality>.analytic_crossover_blocks, <functionality>.energy_crossover_blocks, "
      "<functionality>.searched_to_blocks); repeatable; "
      "default: every "
      "metric of the base point")(
      "experiment", po::value<std::string>()->default_value("run"),
      "what each point runs: run (a simulation of the scenario) or crossover (the crossover experiments)")(
      "functionality,f", po::value<std::vector<std::string>>()->composing(),
      "crossover: only this functionality; repeatable")(
      "max-blocks", po::value<std::string>(), "crossover: searched up to this block count (default 1000000)")(
      "table", po::value<std::string>(), "crossover: every block count up to N simulated (default 200)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a scenario value at every point, base included (as in run)")(
      "seed", po::value<std::string>(), "override the scenario seed")("out,o", po::value<std::string>(),
                                                                      "study folder (required)");
  add_runner_options(opts);
  add_format_option(opts);
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  output_format(vm);
  if (!vm.count("scenario")) throw UsageError("sensitivity needs a scenario file");
  if (!vm.count("vary")) throw UsageError("sensitivity needs at least one --vary path=LOW:HIGH");
  if (!vm.count("out")) throw UsageError("sensitivity needs --out DIR");
  const std::string experiment = vm["experiment"].as<std::string>();
  if (experiment != "run" && experiment != "crossover")
    throw UsageError("--experiment " + experiment + ": expected run or crossover");
  if (experiment == "run" && (vm.count("functionality") || vm.count("max-blocks") || vm.count("table")))
    throw UsageError("--functionality, --max-blocks and --table go with --experiment crossover");
  std::vector<rsoc::platform::Assumption> assumptions;
  try {
    for (const auto& text : vm["vary"].as<std::vector<std::string>>())
      assumptions.push_back(rsoc::platform::parse_assumption(text));
  } catch (const rsoc::platform::SweepError& e) {
    throw UsageError(e.what());
  }
  std::vector<std::string> metrics;
  if (vm.count("metric"))
    for (const auto& m : vm["metric"].as<std::vector<std::string>>()) {
      if (std::find(metrics.begin(), metrics.end(), m) != metrics.end())
        throw UsageError("--metric " + m + " is given twice");
      metrics.push_back(m);
    }

  auto spec = sweep_spec(vm, experiment);  // the scenario, --set and --functionality are checked here
  spec.points = rsoc::platform::sensitivity_points(assumptions);
  spec.sensitivity = rsoc::platform::SensitivitySpec{metrics};
  rsoc::platform::validate_assumptions(spec, assumptions);  // every end of every --vary, before anything runs
  return run_sweep(spec, vm, fs::path(vm["out"].as<std::string>()));
}

}  // namespace

extern const Command kSensitivityCommand = {
    "sensitivity", "sensitivity SCENARIO",
    "how far each figure moves with each assumption, varied from LOW to HIGH", true, cmd_sensitivity};

}  // namespace rsoc::cli
