// rsoc sweep: run a scenario over a grid of parameter values.

#include <boost/program_options.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "platform/interrupt.h"
#include "tools/cli.h"
#include "tools/sweep_command.h"

namespace rsoc::cli {

namespace {

int cmd_sweep(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc sweep SCENARIO --param GRID... --out DIR [options]\n\nRuns SCENARIO at every point of the grid "
      "of "
      "parameter values, each point its own\n`rsoc point` process, and writes DIR/sweep.csv: a row per "
      "point, a "
      "column per swept\nparameter and per metric. Point results stay in DIR/points/. A failing point is\n"
      "recorded as failed; the others are kept.\n\noptions");
  opts.add_options()("help,h", "this help")("set", po::value<std::vector<std::string>>()->composing(),
                                            "override a scenario value for every point (as in run)")(
      "seed", po::value<std::string>(), "override the scenario seed")("out,o", po::value<std::string>(),
                                                                      "sweep folder (required)");
  add_sweep_options(opts);
  add_format_option(opts);
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  output_format(vm);
  if (!vm.count("scenario")) throw UsageError("sweep needs a scenario file");
  if (!vm.count("param")) throw UsageError("sweep needs at least one --param");
  if (!vm.count("out")) throw UsageError("sweep needs --out DIR");
  return run_sweep(sweep_spec(vm, "run"), vm, fs::path(vm["out"].as<std::string>()));
}

}  // namespace

extern const Command kSweepCommand = {
    "sweep", "sweep SCENARIO", "run the scenario over a grid of parameter values, one process per point",
    true, cmd_sweep};

}  // namespace rsoc::cli
