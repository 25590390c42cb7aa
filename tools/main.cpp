// rsoc — the command line of the reconfigurable-SoC simulator.
//   rsoc run [SCENARIO] [--set path=value]... [--out DIR] [--seed N]
//   rsoc validate SCENARIO...
//   rsoc schema [--markdown]
// Exit codes: 0 success; 2 usage or scenario error; 1 simulation failure.

#include <boost/program_options.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "analysis/output_dir.h"
#include "platform/crossover.h"
#include "platform/scenario.h"
#include "platform/scenario_schema.h"
#include "platform/session.h"
#include "rsoc/version.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using rsoc::platform::ScenarioError;

namespace {

constexpr int kOk = 0, kSimulationFailure = 1, kUsage = 2;

const char* kToolHelp =
    "rsoc — discrete-event simulator of reconfigurable Systems-on-Chip (SystemC/TLM-2.0)\n"
    "\n"
    "usage: rsoc <command> [options]\n"
    "\n"
    "commands:\n"
    "  run [SCENARIO]       simulate a scenario (the embedded default when none is given) and write results\n"
    "  validate SCENARIO... check scenario files and report every problem\n"
    "  crossover [SCENARIO] where hardware overtakes software: latency per block count, three modes\n"
    "  schema               print every scenario key with its type, unit, default and range\n"
    "\n"
    "options:\n"
    "  -h, --help           this help; `rsoc <command> --help` for a command\n"
    "  --version            print the version\n"
    "\n"
    "exit codes: 0 success, 2 usage or scenario error, 1 simulation failure\n";

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses a command's arguments; positional arguments are scenario files. Prints the command's help and
// returns nothing for --help; throws UsageError for anything it does not understand.
std::optional<po::variables_map> parse_command(const std::vector<std::string>& args,
                                               const po::options_description& visible) {
  po::options_description all;
  all.add(visible).add_options()("scenario", po::value<std::vector<std::string>>(), "");
  po::positional_options_description positional;
  positional.add("scenario", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (vm.count("help")) {
    std::cout << visible << "\n";
    return std::nullopt;
  }
  return vm;
}

// The scenario named on the command line, or the embedded default, with --set/--seed applied.
rsoc::platform::Scenario load_for(const po::variables_map& vm, const char* command) {
  const std::vector<std::string> scenarios =
      vm.count("scenario") ? vm["scenario"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (scenarios.size() > 1)
    throw UsageError(std::string(command) + " takes one scenario, got " + std::to_string(scenarios.size()));
  rsoc::platform::LoadOptions options;
  if (vm.count("set")) options.overrides = vm["set"].as<std::vector<std::string>>();
  if (vm.count("seed")) options.seed = vm["seed"].as<std::uint64_t>();
  return scenarios.empty() ? rsoc::platform::load_scenario_text(rsoc::platform::default_scenario_text(),
                                                                rsoc::platform::kDefaultScenarioName, options)
                           : rsoc::platform::load_scenario_file(scenarios.front(), options);
}

int cmd_run(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc run [SCENARIO] [options]\n\nSimulates SCENARIO (a JSON file; without it, the "
      "embedded default scenario) and writes\nrequests.csv, breakdown.csv, summary.csv, stats.json, "
      "resolved_scenario.json and host.json into the output folder.\nEnds by naming the busiest resource and "
      "the largest share of latency.\n\noptions");
  opts.add_options()("help,h", "this help")("set", po::value<std::vector<std::string>>()->composing(),
                                            "override a scenario value: --set path=value (path dotted like "
                                            "platform.cpus.0.clock_mhz, or a JSON pointer); "
                                            "repeatable")(
      "out,o", po::value<std::string>(), "output folder (default: rsoc-out/<scenario name>)")(
      "seed", po::value<std::uint64_t>(), "override the scenario seed");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  const std::vector<std::string> scenarios =
      vm.count("scenario") ? vm["scenario"].as<std::vector<std::string>>() : std::vector<std::string>{};
  const rsoc::platform::Scenario scenario = load_for(vm, "run");
  const std::string stem = scenarios.empty() ? "os_aes_des" : fs::path(scenarios.front()).stem().string();
  const fs::path out = vm.count("out") ? fs::path(vm["out"].as<std::string>()) : fs::path("rsoc-out") / stem;
  std::cerr << "rsoc: running " << scenario.file << "\n";
  const auto summary = rsoc::platform::run_session(scenario, out);
  std::cout << summary.table << summary.verdict << "\n";
  std::cerr << "rsoc: " << summary.requests << " requests (" << summary.failed << " failed), "
            << summary.simulated_ms << " ms simulated; results in " << out.string() << "\n";
  return summary.failed ? kSimulationFailure : kOk;
}

int cmd_crossover(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc crossover [SCENARIO] [options]\n\nFor each functionality and block count 1..N, simulates one "
      "request in "
      "software,\none in hardware with reconfiguration (core not resident) and one in hardware with "
      "the\ncore "
      "cached, in one simulation. Writes crossover.csv and crossover_summary.csv (the\nsmallest block count "
      "at "
      "which hardware with reconfiguration wins, and the analytic\nestimate from the parameters) and prints "
      "the "
      "summary. Without a scenario: the reference.\n\noptions");
  opts.add_options()("help,h", "this help")("functionality,f",
                                            po::value<std::vector<std::string>>()->composing(),
                                            "only this functionality (aes128, des, 3des); repeatable")(
      "max-blocks", po::value<std::uint64_t>()->default_value(200), "largest block count")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a scenario value (as in run)")(
      "seed", po::value<std::uint64_t>(), "override the scenario seed")("out,o", po::value<std::string>(),
                                                                        "output folder (required)");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  if (!vm.count("out")) throw UsageError("crossover needs --out DIR");
  rsoc::platform::CrossoverOptions options;
  options.max_blocks = vm["max-blocks"].as<std::uint64_t>();
  if (options.max_blocks == 0 || options.max_blocks > 100000)
    throw UsageError("--max-blocks must be in 1..100000, got " + std::to_string(options.max_blocks));
  if (vm.count("functionality"))
    for (const auto& name : vm["functionality"].as<std::vector<std::string>>()) {
      const auto f = rsoc::runtime::functionality_from_name(name);
      if (!f) throw UsageError("--functionality " + name + ": not one of aes128, des, 3des");
      options.functionalities.push_back(*f);
    }
  const auto scenario = load_for(vm, "crossover");
  std::cerr << "rsoc: crossover experiments on " << scenario.file << "\n";
  const auto result = rsoc::platform::run_crossover(scenario, options);
  const fs::path out(vm["out"].as<std::string>());
  rsoc::platform::write_crossover(result, scenario, out);
  std::cout << rsoc::platform::crossover_table(result);
  std::cerr << "rsoc: " << result.experiments << " experiments, " << result.blocks << " blocks simulated in "
            << result.wall_s << " s; results in " << out.string() << "\n";
  return kOk;
}

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
      rsoc::platform::load_scenario_file(file, options);
      std::cout << file << ": ok\n";
    } catch (const ScenarioError& e) {
      std::cerr << e.what() << "\n";
      rc = kUsage;
    }
  }
  return rc;
}

int cmd_schema(const std::vector<std::string>& args) {
  po::options_description opts("rsoc schema [options]\n\nPrints the scenario key reference.\n\noptions");
  opts.add_options()("help,h", "this help")("markdown",
                                            "as a Markdown table (the one in scenarios/README.md)");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  if (vm.count("markdown")) {
    std::cout << rsoc::platform::document_markdown(rsoc::platform::scenario_schema());
  } else {
    for (const auto& row : rsoc::platform::document(rsoc::platform::scenario_schema()))
      std::cout << row.path << "  (" << row.type << (row.unit.empty() ? "" : ", " + row.unit) << "; default "
                << row.default_text << (row.range.empty() ? "" : "; " + row.range) << ")  " << row.doc
                << "\n";
  }
  return kOk;
}

}  // namespace

// The one front door of SystemC reports: displayed on stderr (results go to files), everything else as
// SystemC would (throwing errors, stopping on fatals). Infos are kernel chatter and stay silent.
void report_to_stderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY) {
    static const char* const severity[] = {"info", "warning", "error", "fatal"};
    std::cerr << "rsoc: " << severity[report.get_severity()] << ": " << report.get_msg_type() << ": "
              << report.get_msg() << "\n";
  }
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

int sc_main(int argc, char* argv[]) {
  std::vector<std::string> args(argv + 1, argv + argc);
  sc_core::sc_report_handler::set_handler(report_to_stderr);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  try {
    if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
      std::cout << kToolHelp;
      return args.empty() ? kUsage : kOk;
    }
    if (args[0] == "--version") {
      std::cout << "rsoc " << rsoc::kVersion << " (SystemC " << sc_core::sc_release() << ")\n";
      return kOk;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    if (command == "run") return cmd_run(args);
    if (command == "validate") return cmd_validate(args);
    if (command == "schema") return cmd_schema(args);
    if (command == "crossover") return cmd_crossover(args);
    throw UsageError("unknown command \"" + command +
                     "\" (commands: run, validate, crossover, schema; see rsoc --help)");
  } catch (const UsageError& e) {
    std::cerr << "rsoc: " << e.what() << "\n";
    return kUsage;
  } catch (const ScenarioError& e) {
    std::cerr << e.what() << "\n";
    return kUsage;
  } catch (const rsoc::analysis::OutputDirError& e) {
    std::cerr << "rsoc: " << e.what() << "\n";
    return kUsage;
  } catch (const rsoc::platform::SimulationError& e) {
    std::cerr << "rsoc: " << e.what() << "\n";
    return kSimulationFailure;
  } catch (const std::exception& e) {
    std::cerr << "rsoc: simulation failure: " << e.what() << "\n";
    return kSimulationFailure;
  }
}

// SystemC prints its banner while it starts, before sc_main: silence it first (results go to files, logs to
// stderr, and the banner is neither).
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
