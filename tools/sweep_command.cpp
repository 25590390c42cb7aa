// What the commands that run sweeps share (sweep, sensitivity, crossover --param, merge): the options of a
// sweep's runner, the sweep of a command line, running its points here or writing what runs them elsewhere,
// and its summary.
#include "tools/sweep_command.h"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "analysis/sensitivity_table.h"
#include "analysis/sweep_table.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/crossover.h"
#include "platform/interrupt.h"
#include "platform/log.h"
#include "platform/scenario.h"
#include "platform/sensitivity.h"
#include "platform/session.h"
#include "platform/sweep.h"
#include "tools/child_process.h"
#include "tools/cli.h"
#include "tools/openssl_des_reference.h"
#include "tools/sweep_runner.h"

namespace rsoc::cli {

// How the points of a sweep run: shared by `sweep`, `crossover --param` and `sensitivity`.
void add_runner_options(po::options_description& opts) {
  opts.add_options()("jobs,j", po::value<std::string>(), "points run at once (default: the number of cores)")(
      "resume", "keep the finished points of the same sweep in --out and run the others")(
      "emit", po::value<std::string>(),
      "do not run: write a job list for GNU Parallel (parallel) or a Slurm job-array script (slurm) into "
      "--out");
}

// Options shared by `sweep` and `crossover --param`.
void add_sweep_options(po::options_description& opts) {
  opts.add_options()("param,p", po::value<std::vector<std::string>>()->composing(),
                     "a swept parameter: path=v1,v2,... or path=start:stop:step (stop included); repeatable, "
                     "the grid is their Cartesian product");
  add_runner_options(opts);
}

// sensitivity.csv from the points of the sensitivity study in `dir`; returns its rows. Throws
// SimulationError when a point did not succeed, SweepError for an unknown metric.
std::vector<rsoc::analysis::SensitivityRow> finish_sensitivity(const fs::path& dir) {
  auto rows = rsoc::platform::write_sensitivity(dir);
  logging::note() << "rsoc: " << rows.size() << (rows.size() == 1 ? " row" : " rows") << " in "
                  << (dir / "sensitivity.csv").string() << "\n";
  return rows;
}

namespace {

// What an interrupted or stopped sweep in `dir` kept, and how to finish it.
std::string kept_points(const rsoc::platform::SweepSpec& spec, const fs::path& dir) {
  const std::size_t n = rsoc::platform::point_count(spec);
  std::size_t finished = 0;
  for (std::size_t i = 0; i < n; ++i) finished += rsoc::platform::point_finished(spec, dir, i) ? 1 : 0;
  if (finished == n)
    return "all " + std::to_string(n) + " points finished, kept in " + dir.string() + ": rsoc merge " +
           dir.string() + " writes the table";
  return std::to_string(finished) + " of " + std::to_string(n) + " points finished, kept in " + dir.string() +
         ": the same command with --resume runs the other " + std::to_string(n - finished);
}

// Runs the points of [first, last) here; an interrupt, or a point that cannot record its outcome, says what
// was kept.
rsoc::tools::SweepRun run_points_keeping(const rsoc::platform::SweepSpec& spec, const fs::path& dir,
                                         unsigned jobs, std::size_t first,
                                         std::size_t last = static_cast<std::size_t>(-1)) {
  try {
    return rsoc::tools::run_points(spec, dir, jobs, first, last);
  } catch (const rsoc::platform::Interrupted& e) {
    throw rsoc::platform::Interrupted(e.signal(), kept_points(spec, dir));
  } catch (const rsoc::platform::SweepError& e) {
    throw rsoc::platform::SweepError(std::string(e.what()) + "; " + kept_points(spec, dir));
  }
}

// Writes what runs the points `todo` of the sweep in `dir` elsewhere (--emit) and prints the commands that
// run them and merge them.
int emit_jobs(const rsoc::platform::SweepSpec& spec, const po::variables_map& vm, const fs::path& dir,
              rsoc::platform::JobRunner runner, const std::vector<std::size_t>& todo, std::uint64_t jobs,
              nlohmann::ordered_json& doc) {
  const Format format = output_format(vm);
  const std::size_t n = rsoc::platform::point_count(spec);
  const fs::path exe = rsoc::tools::self_executable();
  const auto job = rsoc::platform::write_job_description(
      runner, spec, dir, todo, exe, std::max(1u, std::thread::hardware_concurrency()),
      vm.count("jobs") ? std::optional<std::uint64_t>(jobs) : std::nullopt);
  std::vector<std::string> commands{job.command};  // what runs the points, then what merges them
  if (runner == rsoc::platform::JobRunner::kParallel && format == Format::kText)
    commands.back() += "    # --sshlogin host1,host2 to spread it over hosts that share the folder";
  commands.push_back(exe.string() + " merge " + rsoc::platform::shell_quote(fs::absolute(dir).string()));
  doc["file"] = job.file.string();
  logging::detail() << "rsoc: wrote " << job.file.string() << "\n";
  logging::note() << "rsoc: " << todo.size() << " of " << n << " points to run; job description in "
                  << dir.string() << "\n";
  if (format == Format::kJson) {
    doc["points"] = n;
    doc["to_run"] = todo.size();
    doc["emit"] = rsoc::platform::kJobRunnerNames.name(runner);
    doc["commands"] = commands;
    print_json(doc);
  } else {
    for (const auto& c : commands) std::cout << c << "\n";
  }
  return kOk;
}

// The failed points of the table `csv`.
std::size_t failed_points(const fs::path& csv_file) {
  std::size_t failed = 0;
  std::ifstream csv(csv_file);
  std::string line;
  std::getline(csv, line);
  while (std::getline(csv, line))
    if (line.find(",failed,") != std::string::npos) ++failed;
  return failed;
}

// The summary of a finished sweep (or sensitivity study) in `dir` on stdout: as JSON (into `doc`), or its
// table.
void print_sweep(const rsoc::platform::SweepSpec& spec, const fs::path& dir, Format format,
                 const std::vector<rsoc::analysis::SensitivityRow>& rows, nlohmann::ordered_json& doc) {
  const std::size_t n = rsoc::platform::point_count(spec);
  if (format == Format::kJson) {
    doc["table"] = (dir / "sweep.csv").string();
    if (spec.sensitivity) {
      doc["sensitivity_table"] = (dir / "sensitivity.csv").string();
      doc["sensitivity"] = nlohmann::ordered_json::array();
      for (const auto& r : rows)
        doc["sensitivity"].push_back({{"parameter", r.parameter},
                                      {"low", r.low},
                                      {"high", r.high},
                                      {"metric", r.metric},
                                      {"at_low", maybe(r.at_low)},
                                      {"at_base", maybe(r.at_base)},
                                      {"at_high", maybe(r.at_high)},
                                      {"swing_pct", maybe(rsoc::analysis::swing_pct(r))}});
    }
    print_json(doc);
  } else if (spec.sensitivity) {
    std::cout << rsoc::analysis::sensitivity_text(rows);
  } else {
    std::vector<rsoc::analysis::SweepPoint> points;
    for (std::size_t i = 0; i < n; ++i) points.push_back(rsoc::platform::read_point(spec, dir, i));
    std::cout << rsoc::analysis::sweep_text(rsoc::platform::parameter_paths(spec), points);
  }
}

// Runs the points `todo` of the sweep in `dir` here, `jobs` at a time, merges them and prints the summary.
int run_points_here(const rsoc::platform::SweepSpec& spec, const po::variables_map& vm, const fs::path& dir,
                    const std::vector<std::size_t>& todo, std::uint64_t jobs, nlohmann::ordered_json& doc) {
  const std::size_t n = rsoc::platform::point_count(spec);
  logging::note() << "rsoc: sweep of " << n << " points (" << todo.size() << " to run), " << jobs
                  << " at a time\n";
  std::size_t kept = 0;
  std::size_t next = 0;
  const auto at_once = static_cast<unsigned>(jobs);
  if (spec.sensitivity) {  // the base point first: its metrics say what --metric may name
    kept += run_points_keeping(spec, dir, at_once, 0, 1).skipped;
    const auto base = rsoc::platform::read_point(spec, dir, 0);
    if (base.status == "ok") rsoc::platform::check_metrics(spec, base);
    next = base.status == "ok" ? 1 : n;  // without the base, the others would tell nothing
  }
  kept += run_points_keeping(spec, dir, at_once, next).skipped;
  std::size_t missing = 0;
  try {
    missing = rsoc::platform::merge_sweep(dir);
  } catch (const rsoc::platform::Interrupted& e) {
    throw rsoc::platform::Interrupted(e.signal(), kept_points(spec, dir));
  }
  const std::size_t failed = failed_points(dir / "sweep.csv");
  logging::detail() << "rsoc: wrote " << (dir / "sweep.csv").string() << "\n";
  // Points that failed or are missing fail the command: said even when quiet.
  (failed || missing ? std::cerr : logging::note())
      << "rsoc: " << n << " points (" << kept << " kept from before, " << failed << " failed"
      << (missing ? ", " + std::to_string(missing) + " missing" : std::string()) << "); table in "
      << (dir / "sweep.csv").string() << "\n";
  std::vector<rsoc::analysis::SensitivityRow> rows;
  if (spec.sensitivity) rows = finish_sensitivity(dir);
  doc["points"] = n;
  doc["kept"] = kept;
  doc["failed"] = failed;
  doc["missing"] = missing;
  print_sweep(spec, dir, output_format(vm), rows, doc);
  if (spec.sensitivity) return kOk;
  return failed || missing ? kSimulationFailure : kOk;
}

}  // namespace

// Prepares the sweep in `dir`, then runs its points here or writes what runs them elsewhere.
int run_sweep(const rsoc::platform::SweepSpec& spec, const po::variables_map& vm, const fs::path& dir) {
  nlohmann::ordered_json doc;  // the summary as JSON
  doc["command"] = spec.sensitivity ? "sensitivity" : spec.command == "crossover" ? "crossover" : "sweep";
  doc["out"] = dir.string();
  std::optional<rsoc::platform::JobRunner> runner;
  if (vm.count("emit")) {
    runner = rsoc::platform::kJobRunnerNames.find(vm["emit"].as<std::string>());
    if (!runner) throw UsageError("--emit " + vm["emit"].as<std::string>() + ": expected parallel or slurm");
  }
  const std::uint64_t jobs = vm.count("jobs")
                                 ? whole_number("jobs", vm["jobs"].as<std::string>(), 1, kMaxJobs)
                                 : std::max(1u, std::thread::hardware_concurrency());
  rsoc::platform::prepare_sweep(spec, dir, vm.count("resume") > 0);
  const std::vector<std::size_t> todo = rsoc::platform::points_to_run(spec, dir);
  if (runner) return emit_jobs(spec, vm, dir, *runner, todo, jobs, doc);
  return run_points_here(spec, vm, dir, todo, jobs, doc);
}

namespace {

// The largest block count a crossover is searched up to, and the longest table.
constexpr std::uint64_t kMaxBlocks = 1000000000, kMaxTableBlocks = 100000;
// What a crossover experiment searches and tabulates by default.
constexpr std::uint64_t kDefaultMaxBlocks = 1000000, kDefaultTableBlocks = 200;

}  // namespace

// --functionality, --max-blocks and --table of a crossover experiment.
rsoc::platform::CrossoverOptions crossover_options(const po::variables_map& vm) {
  rsoc::platform::CrossoverOptions options;
  options.max_blocks = kDefaultMaxBlocks;
  options.table_blocks = kDefaultTableBlocks;
  if (vm.count("max-blocks"))
    options.max_blocks = whole_number("max-blocks", vm["max-blocks"].as<std::string>(), 1, kMaxBlocks);
  if (vm.count("table"))
    options.table_blocks = whole_number("table", vm["table"].as<std::string>(), 0, kMaxTableBlocks);
  options.table_blocks = std::min(options.table_blocks, options.max_blocks);
  if (vm.count("functionality"))
    for (const auto& name : vm["functionality"].as<std::vector<std::string>>()) {
      // Checked against the scenario's functionalities (its custom cores add theirs) when it is loaded.
      if (std::find(options.functionalities.begin(), options.functionalities.end(), name) !=
          options.functionalities.end())
        throw UsageError("--functionality " + name + " is given twice");
      options.functionalities.push_back(name);
    }
  return options;
}

// The sweep of `command` over the scenario named on the command line (or the default one).
rsoc::platform::SweepSpec sweep_spec(const po::variables_map& vm, const std::string& command) {
  rsoc::platform::SweepSpec spec;
  spec.command = command;
  const std::vector<std::string> scenarios =
      vm.count("scenario") ? vm["scenario"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (scenarios.size() > 1)
    throw UsageError(command + " takes one scenario, got " + std::to_string(scenarios.size()));
  // The scenario, --set and --seed are checked before any point runs.
  const rsoc::platform::Scenario scenario = load_for(vm, command.c_str());
  if (scenarios.empty()) {
    spec.scenario_name = rsoc::platform::kDefaultScenarioName;
    spec.scenario_text = std::string(rsoc::platform::default_scenario_text());
  } else {
    std::ifstream in(scenarios.front());
    std::stringstream text;
    text << in.rdbuf();
    spec.scenario_name = rsoc::platform::printable_text(fs::path(scenarios.front()).filename().string());
    spec.scenario_text = text.str();
    std::error_code ec;
    spec.scenario_folder = fs::absolute(fs::path(scenarios.front()), ec).parent_path().string();
  }
  if (vm.count("set")) spec.overrides = vm["set"].as<std::vector<std::string>>();
  if (vm.count("seed")) spec.seed = scenario.params.seed;
  if (command == "crossover") {
    const rsoc::platform::CrossoverOptions crossover = crossover_options(vm);
    rsoc::platform::check_functionalities(scenario.params, crossover.functionalities);
    spec.max_blocks = crossover.max_blocks;
    spec.table_blocks = crossover.table_blocks;
    spec.functionalities = crossover.functionalities;
  }
  try {
    if (vm.count("param"))
      for (const auto& p : vm["param"].as<std::vector<std::string>>())
        spec.parameters.push_back(rsoc::platform::parse_parameter(p));
    rsoc::platform::check_grid(spec);  // its size first: every value is checked below
  } catch (const rsoc::platform::SweepError& e) {
    throw UsageError(e.what());
  }
  rsoc::platform::validate_parameters(spec);  // every value of every --param, before any point runs
  return spec;
}

}  // namespace rsoc::cli
