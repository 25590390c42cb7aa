// rsoc validate: check scenario files.

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/scenario.h"
#include "tools/cli.h"

namespace rsoc::cli {

namespace {

int cmd_validate(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc validate SCENARIO... [options]\n\nChecks scenario files against the schema and "
      "the cross-field rules;\nprints every problem as FILE: /json/pointer: message.\n\noptions");
  opts.add_options()("help,h", "this help")("set", po::value<std::vector<std::string>>()->composing(),
                                            "apply an override before checking (as in run)");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  if (!vm.count("scenario")) throw UsageError("validate needs at least one scenario file");
  rsoc::platform::LoadOptions options;
  if (vm.count("set")) options.overrides = vm["set"].as<std::vector<std::string>>();
  int rc = kOk;
  for (const auto& file : vm["scenario"].as<std::vector<std::string>>()) {
    try {
      describe_scenario(rsoc::platform::load_scenario_file(file, options));
      std::cout << file << ": ok\n";
    } catch (const ScenarioError& e) {
      std::cerr << e.what() << "\n";
      rc = kUsage;
    }
  }
  return rc;
}

}  // namespace

extern const Command kValidateCommand = {
    "validate", "validate SCENARIO...", "check scenario files and report every problem", false, cmd_validate};

}  // namespace rsoc::cli
