// rsoc crossover: where hardware overtakes software.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/crossover.h"
#include "platform/log.h"
#include "platform/session.h"
#include "tools/cli.h"
#include "tools/openssl_des_reference.h"
#include "tools/sweep_command.h"

namespace rsoc::cli {

namespace {

int cmd_crossover(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc crossover [SCENARIO] [options]\n\nFor each functionality, simulates requests of a block count in "
      "three ways, in one\nsimulation: in software, in hardware with reconfiguration (core not resident) and "
      "in\nhardware with the core cached; every block count of the table (1..--table), then, where\nhardware "
      "has not won yet, a search up to --max-blocks (galloping, then bisection: a\nnumber of block counts "
      "growing with its logarithm). Writes crossover.csv (every block\ncount simulated) and "
      "crossover_summary.csv (the smallest block count at which hardware\nwith reconfiguration wins, the "
      "analytic estimate from the parameters and, with an\nenergy model, the energy crossover; \"> N\" when "
      "none up to N) and prints the summary.\nWithout a scenario: the reference.\n\noptions");
  opts.add_options()("help,h", "this help")(
      "functionality,f", po::value<std::vector<std::string>>()->composing(),
      "only this functionality (aes128, des, 3des, modexp1024, ...); repeatable")(
      "max-blocks", po::value<std::string>(),
      "the crossover is searched up to this block count (default "
      "1000000; a request holds at most 1 GiB)")(
      "table", po::value<std::string>(),
      "every block count from 1 to N in crossover.csv, for plots (default "
      "200; 0: only those the search simulates)")("set", po::value<std::vector<std::string>>()->composing(),
                                                  "override a scenario value (as in run)")(
      "seed", po::value<std::string>(), "override the scenario seed")(
      "out,o", po::value<std::string>(), "output folder (default: rsoc-out/<scenario name>-crossover)");
  add_sweep_options(opts);
  add_format_option(opts);
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  const Format format = output_format(vm);
  const rsoc::platform::CrossoverOptions options = crossover_options(vm);
  if (vm.count("param")) {  // a crossover at every point of a grid: one sweep
    if (!vm.count("out")) throw UsageError("crossover --param needs --out DIR (the sweep folder)");
    auto spec = sweep_spec(vm, "crossover");
    return run_sweep(spec, vm, fs::path(vm["out"].as<std::string>()));
  }
  if (vm.count("resume") || vm.count("emit") || vm.count("jobs"))
    throw UsageError("--jobs, --resume and --emit go with --param (a crossover sweep)");
  const auto scenario = load_for(vm, "crossover");
  logging::note() << "rsoc: crossover experiments on " << scenario.file << "\n";
  describe_scenario(scenario);
  const fs::path out = vm.count("out") ? fs::path(vm["out"].as<std::string>())
                                       : fs::path("rsoc-out") / (scenario_stem(vm) + "-crossover");
  const auto result = writing(out, [&] {
    rsoc::analysis::OutputDir dir(out);  // before the experiments: an --out that cannot be written stops them
    auto r = rsoc::platform::run_crossover(scenario, options);
    rsoc::platform::write_crossover(r, scenario, dir);
    return r;
  });
  if (format == Format::kJson) {
    nlohmann::ordered_json doc;
    doc["command"] = "crossover";
    doc["scenario"] = scenario.file;
    doc["out"] = out.string();
    doc["experiments"] = result.experiments;
    doc["blocks"] = result.blocks;
    doc["max_blocks"] = options.max_blocks;
    doc["table_blocks"] = options.table_blocks;
    doc["summary"] = nlohmann::ordered_json::array();
    for (const auto& f : result.summary)
      doc["summary"].push_back({{"functionality", rsoc::runtime::info(f.functionality).name},
                                {"crossover_blocks", maybe(f.simulated)},
                                {"analytic_crossover_blocks", maybe(f.analytic)},
                                {"energy_crossover_blocks", maybe(f.energy)},
                                {"searched_to_blocks", f.searched_to},
                                {"crossings", f.crossings}});
    print_json(doc);
  } else {
    std::cout << rsoc::platform::crossover_table(result);
  }
  report_files(out);
  logging::note() << "rsoc: " << result.experiments << " experiments, " << result.blocks
                  << " blocks simulated in " << result.wall_s << " s; results in " << out.string() << "\n";
  return kOk;
}

}  // namespace

extern const Command kCrossoverCommand = {
    "crossover", "crossover [SCENARIO]",
    "where hardware overtakes software: latency per block count, three modes", true, cmd_crossover};

}  // namespace rsoc::cli
