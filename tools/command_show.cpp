// rsoc show: the resolved scenario.

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "platform/scenario.h"
#include "tools/cli.h"

namespace rsoc::cli {

namespace {

int cmd_show(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc show [SCENARIO] [options]\n\nPrints the resolved scenario to stdout without simulating: "
      "SCENARIO\n(a JSON file; without it, the embedded default scenario) with --set and --seed\napplied and "
      "every default filled in, the JSON a run writes as resolved_scenario.json.\nProblems are reported as "
      "run and validate report them (exit 2).\n\noptions");
  opts.add_options()("help,h", "this help")("set", po::value<std::vector<std::string>>()->composing(),
                                            "override a scenario value (as in run); repeatable")(
      "seed", po::value<std::string>(), "override the scenario seed");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const rsoc::platform::Scenario scenario = load_for(*parsed, "show");
  describe_scenario(scenario);
  std::cout << scenario.resolved.dump(2) << "\n";
  return kOk;
}

}  // namespace

extern const Command kShowCommand = {
    "show", "show [SCENARIO]", "print the resolved scenario (every default filled in) without simulating",
    false, cmd_show};

}  // namespace rsoc::cli
