// rsoc — the command line of the reconfigurable-SoC simulator.
//   rsoc run [SCENARIO] [--set path=value]... [--out DIR] [--seed N] [--trace] [--trace-window S:E] [--vcd]
//            [--vcd-window S:E]
//   rsoc crossover [SCENARIO] [--functionality NAME]... [--max-blocks N] [--param GRID]... --out DIR
//   rsoc sweep SCENARIO --param GRID... --out DIR [--jobs N] [--resume] [--emit parallel|slurm]
//   rsoc sensitivity SCENARIO --vary path=LOW:HIGH... [--metric NAME]... --out DIR
//                    [--experiment run|crossover]
//   rsoc point DIR INDEX        (one point of a prepared sweep)
//   rsoc merge DIR
//   rsoc reproduce --out DIR [--system NAME]... [--scenarios DIR] [--jobs N]
//   rsoc list [--scenarios DIR]
//   rsoc show [SCENARIO] [--set path=value]... [--seed N]
//   rsoc validate SCENARIO...
//   rsoc schema [--markdown]
//   rsoc verify des --pairs N [--seed S] [--rounds-per-instruction 1|2|both] [--vectors [FILE]]
// Every command takes -q/--quiet and -v/--verbose (or RSOC_LOG=quiet|normal|verbose); run, crossover, sweep,
// sensitivity and reproduce take --format text|json.
// Exit codes: 0 success; 2 usage, scenario or output error (an --out that cannot be written, a failed
// write); 1 simulation failure (or a verification mismatch); 130 and 143 stopped by SIGINT and SIGTERM.

#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <systemc>
#include <thread>
#include <vector>

#include "analysis/json_numbers.h"
#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "analysis/sensitivity_table.h"
#include "analysis/sweep_table.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/crossover.h"
#include "platform/interrupt.h"
#include "platform/json_file.h"
#include "platform/log.h"
#include "platform/reproduce.h"
#include "platform/scenario.h"
#include "platform/scenario_schema.h"
#include "platform/sensitivity.h"
#include "platform/session.h"
#include "platform/sweep.h"
#include "rsoc/version.h"
#include "tools/child_process.h"
#include "tools/openssl_des_reference.h"
#include "tools/progress.h"
#include "tools/sweep_runner.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;
namespace logging = rsoc::platform::logging;
using rsoc::platform::ScenarioError;
using rsoc::platform::bounded_words;

namespace {

constexpr int kOk = 0, kSimulationFailure = 1, kUsage = 2;

const char* kToolHelpHead =
    "rsoc — discrete-event simulator of reconfigurable Systems-on-Chip (SystemC/TLM-2.0)\n"
    "\n"
    "usage: rsoc <command> [options]\n"
    "\n";
const char* kToolHelpOptions =
    "options:\n"
    "  -h, --help           this help; `rsoc <command> --help` for a command\n"
    "  --version            print the version\n"
    "  -q, --quiet          print only errors on stderr (before or after the command)\n"
    "  -v, --verbose        print more on stderr: each result file written, each child process's command,\n"
    "                       timings\n"
    "  --format json        the summary on stdout as one JSON document (run, crossover, sweep, sensitivity,\n"
    "                       reproduce)\n"
    "\n"
    "environment: RSOC_LOG=quiet|normal|verbose sets the level of -q and -v (the flags take precedence)\n"
    "\n"
    "exit codes: 0 success, 2 usage, scenario or output error (an --out that cannot be written, a write\n"
    "that failed), 1 simulation failure (or a verification mismatch), 130 and 143 stopped by SIGINT and\n"
    "SIGTERM (what was kept is said; a sweep goes on with --resume)\n";

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failure whose exit code is known (that of the child processes that failed).
class Failure : public std::runtime_error {
 public:
  Failure(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// The level -q/--quiet or -v/--verbose chose (before or after the command), which RSOC_LOG gives way to.
std::optional<logging::Level> g_flag_level;

// Sets the level a flag chose; the two flags together are refused.
void choose_level(logging::Level level) {
  if (g_flag_level && *g_flag_level != level) {
    logging::set_level(logging::Level::kNormal);  // neither is given effect
    throw UsageError("-q/--quiet and -v/--verbose go against each other: give one");
  }
  g_flag_level = level;
  logging::set_level(level);
}

// -q/--quiet and -v/--verbose, which every command takes.
void add_log_options(po::options_description& opts) {
  opts.add_options()("quiet,q", "print only errors on stderr (also RSOC_LOG=quiet)")(
      "verbose,v",
      "print more on stderr: each result file written, each child process's command, timings (also "
      "RSOC_LOG=verbose)");
}

// Parses a command's arguments; positional arguments are scenario files. Prints the command's help and
// returns nothing for --help; throws UsageError for anything it does not understand. -q and -v set the
// level of the messages on stderr.
std::optional<po::variables_map> parse_command(const std::vector<std::string>& args,
                                               po::options_description visible) {
  add_log_options(visible);
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
  if (vm.count("quiet")) choose_level(logging::Level::kQuiet);
  if (vm.count("verbose")) choose_level(logging::Level::kVerbose);
  return vm;
}

// A whole number from `min` to `max` given to --`option`. Boost would read "-1" for an unsigned value as its
// wrapped-around maximum: the text is parsed here.
std::uint64_t whole_number(const std::string& option, const std::string& text, std::uint64_t min,
                           std::uint64_t max) {
  const UsageError bad("--" + option + " " + text + ": expected a whole number from " + std::to_string(min) +
                       " to " + std::to_string(max));
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) throw bad;
  try {
    const std::uint64_t value = std::stoull(text);
    if (value < min || value > max) throw bad;
    return value;
  } catch (const std::out_of_range&) {
    throw bad;
  }
}

// An override set by a flag, named after it in messages.
void add_override(rsoc::platform::LoadOptions& options, std::string assignment, std::string source) {
  options.overrides.push_back(std::move(assignment));
  options.sources.resize(options.overrides.size() - 1);
  options.sources.push_back(std::move(source));
}

// The scenario named on the command line, or the embedded default, with `options` (the keys other flags set),
// then --set and --seed applied, each named after its flag in messages.
rsoc::platform::Scenario load_for(const po::variables_map& vm, const char* command,
                                  rsoc::platform::LoadOptions options = {}) {
  const std::vector<std::string> scenarios =
      vm.count("scenario") ? vm["scenario"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (scenarios.size() > 1)
    throw UsageError(std::string(command) + " takes one scenario, got " + std::to_string(scenarios.size()));
  if (vm.count("set"))
    for (const auto& assignment : vm["set"].as<std::vector<std::string>>())
      add_override(options, assignment, "--set " + assignment);
  if (vm.count("seed")) {  // the schema's range, named after the flag
    const std::string seed = vm["seed"].as<std::string>();
    add_override(options, "seed=" + seed, "--seed " + seed);
  }
  return scenarios.empty() ? rsoc::platform::load_scenario_text(rsoc::platform::default_scenario_text(),
                                                                rsoc::platform::kDefaultScenarioName, options)
                           : rsoc::platform::load_scenario_file(scenarios.front(), options);
}

// --trace / --trace-window (or --vcd / --vcd-window) as the keys of outputs.trace (outputs.vcd) they set: the
// whole run, or START_MS:END_MS (END_MS empty: to the end of the run).
void timeline_overrides(const po::variables_map& vm, const std::string& output,
                        rsoc::platform::LoadOptions& options) {
  const std::string window = output + "-window";
  const std::string key = "outputs." + output;
  if (!vm.count(window)) {
    if (vm.count(output)) {
      add_override(options, key + ".start_ms=0", "--" + output);
      add_override(options, key + ".end_ms=null", "--" + output);
    }
    return;
  }
  const std::string text = vm[window].as<std::string>();
  const UsageError malformed(
      "--" + window + ": expected START_MS:END_MS (numbers; END_MS empty: to the end), got \"" + text + "\"");
  const auto number = [&](const std::string& s) {
    char* end = nullptr;
    const double value = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(value)) throw malformed;
    return nlohmann::json(value).dump();
  };
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) throw malformed;
  const std::string end = text.substr(colon + 1);
  const std::string source = "--" + window + " " + text;
  add_override(options, key + ".start_ms=" + number(text.substr(0, colon)), source);
  add_override(options, key + ".end_ms=" + (end.empty() ? "null" : number(end)), source);
}

// Verbose: what identifies the scenario a command runs.
void describe_scenario(const rsoc::platform::Scenario& scenario) {
  logging::detail() << "rsoc: " << scenario.file << ": sha256 " << scenario.sha256 << ", seed "
                    << scenario.params.seed << "\n";
}

// Verbose: every file of the result folder `out`, as its manifest lists them.
void report_files(const fs::path& out) {
  if (!logging::details()) return;
  std::ifstream manifest(out / rsoc::analysis::kManifestName);
  std::string line;
  while (std::getline(manifest, line))
    if (!line.empty()) logging::detail() << "rsoc: wrote " << (out / line).string() << "\n";
}

// Runs `work`, which writes the result folder `out`: an interrupt says that nothing was written there.
template <class Work>
auto writing(const fs::path& out, Work work) {
  try {
    return work();
  } catch (const rsoc::platform::Interrupted& e) {
    throw rsoc::platform::Interrupted(e.signal(), "nothing written, " + out.string() + " left as it was");
  }
}

// What a command prints on stdout: its summary as text (tables), or as one JSON document.
enum class Format { kText, kJson };

void add_format_option(po::options_description& opts) {
  opts.add_options()("format", po::value<std::string>()->default_value("text"),
                     "the summary on stdout: text (tables) or json (one JSON document, nothing else)");
}

Format output_format(const po::variables_map& vm) {
  const std::string format = vm.count("format") ? vm["format"].as<std::string>() : "text";
  if (format == "text") return Format::kText;
  if (format == "json") return Format::kJson;
  throw UsageError("--format " + format + ": expected text or json");
}

void print_json(nlohmann::ordered_json doc) {
  rsoc::analysis::round_floats(doc);
  std::cout << doc.dump(2) << "\n";
}

// A value that may be missing: null in JSON.
template <class T>
nlohmann::ordered_json maybe(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

// The summary of a run as JSON: its figures, the rows of summary.csv, the verdict line and the folder.
nlohmann::ordered_json run_json(const rsoc::platform::RunSummary& summary, const std::string& scenario,
                                const fs::path& out) {
  nlohmann::ordered_json doc;
  doc["command"] = "run";
  doc["scenario"] = scenario;
  doc["out"] = out.string();
  doc["requests"] = summary.requests;
  doc["failed"] = summary.failed;
  doc["simulated_ms"] = summary.simulated_ms;
  doc["requests_per_s"] = summary.requests_per_s;
  doc["summary"] = nlohmann::ordered_json::array();
  for (const auto& r : summary.rows)
    doc["summary"].push_back({{"functionality", r.functionality},
                              {"decision", r.decision},
                              {"count", r.count},
                              {"failed", r.failed},
                              {"blocks", r.blocks},
                              {"bytes", r.bytes},
                              {"reconfigurations", r.reconfigurations},
                              {"latency_mean_ms", r.latency_mean_ms},
                              {"latency_p50_ms", r.latency_p50_ms},
                              {"latency_p99_ms", r.latency_p99_ms},
                              {"throughput_kBps", r.throughput_kBps}});
  for (std::size_t i = 0; i < summary.rows.size(); ++i)
    if (summary.rows[i].energy_mean_uj) doc["summary"][i]["energy_mean_uj"] = *summary.rows[i].energy_mean_uj;
  doc["verdict"] = summary.verdict;
  if (!summary.faults.empty()) doc["faults"] = summary.faults;
  if (!summary.replacement.empty()) doc["replacement"] = summary.replacement;
  if (!summary.energy.empty()) doc["energy"] = summary.energy;
  return doc;
}

// The name of the scenario named on the command line (its file's stem), or the reference's.
std::string scenario_stem(const po::variables_map& vm) {
  if (!vm.count("scenario")) return "os_aes_des";
  return fs::path(vm["scenario"].as<std::vector<std::string>>().front()).stem().string();
}

int cmd_run(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc run [SCENARIO] [options]\n\nSimulates SCENARIO (a JSON file; without it, the "
      "embedded default scenario) and writes\nrequests.csv, breakdown.csv, summary.csv, stats.json, "
      "resolved_scenario.json and host.json into the output folder\n(and trace.json, timeline.vcd when "
      "asked). Ends by naming the busiest resource and the largest share of latency.\n\noptions");
  opts.add_options()("help,h", "this help")("set", po::value<std::vector<std::string>>()->composing(),
                                            "override a scenario value: --set path=value (path dotted like "
                                            "platform.cpus.0.clock_mhz, or a JSON pointer); "
                                            "repeatable")(
      "out,o", po::value<std::string>(), "output folder (default: rsoc-out/<scenario name>)")(
      "seed", po::value<std::string>(), "override the scenario seed")(
      "trace", "write trace.json, a Chrome/Perfetto trace of the whole run (sets outputs.trace)")(
      "trace-window", po::value<std::string>(),
      "START_MS:END_MS: trace only this window of simulated time (END_MS empty: to the end)")(
      "vcd", "write timeline.vcd, slot states and bus activity for GTKWave (sets outputs.vcd)")(
      "vcd-window", po::value<std::string>(), "START_MS:END_MS: the VCD of this window only");
  add_format_option(opts);
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  const Format format = output_format(vm);
  rsoc::platform::LoadOptions timelines;
  timeline_overrides(vm, "trace", timelines);
  timeline_overrides(vm, "vcd", timelines);
  const rsoc::platform::Scenario scenario = load_for(vm, "run", std::move(timelines));
  const fs::path out =
      vm.count("out") ? fs::path(vm["out"].as<std::string>()) : fs::path("rsoc-out") / scenario_stem(vm);
  logging::note() << "rsoc: running " << scenario.file << "\n";
  describe_scenario(scenario);
  const auto summary = writing(out, [&] { return rsoc::platform::run_session(scenario, out); });
  if (format == Format::kJson)
    print_json(run_json(summary, scenario.file, out));
  else
    std::cout << summary.table << summary.verdict << "\n"
              << (summary.replacement.empty() ? "" : summary.replacement + "\n")
              << (summary.faults.empty() ? "" : summary.faults + "\n")
              << (summary.energy.empty() ? "" : summary.energy + "\n");
  report_files(out);
  // Failed requests fail the command: said even when quiet.
  (summary.failed ? std::cerr : logging::note())
      << "rsoc: " << summary.requests << " requests (" << summary.failed << " failed), "
      << summary.simulated_ms << " ms simulated; results in " << out.string() << "\n";
  return summary.failed ? kSimulationFailure : kOk;
}

// How the points of a sweep run: shared by `sweep`, `crossover --param` and `sensitivity`.
void add_runner_options(po::options_description& opts) {
  opts.add_options()("jobs,j", po::value<std::string>(), "points run at once (default: the number of cores)")(
      "resume", "keep the finished points of the same sweep in --out and run the others")(
      "emit", po::value<std::string>(),
      "do not run: write a job list for GNU Parallel (parallel) or a Slurm job-array script (slurm) into "
      "--out");
}

// --jobs: at most as many as a sweep has points.
constexpr std::uint64_t kMaxJobs = 1000000;

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

// The largest block count a crossover is searched up to, and the longest table.
constexpr std::uint64_t kMaxBlocks = 1000000000, kMaxTableBlocks = 100000;
// What a crossover experiment searches and tabulates by default.
constexpr std::uint64_t kDefaultMaxBlocks = 1000000, kDefaultTableBlocks = 200;

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
      "<functionality>.analytic_crossover_blocks, <functionality>.energy_crossover_blocks, <functionality>.searched_to_blocks); repeatable; "
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

// The arguments of a command that takes no options but -q/-v (point, merge), which set the level.
std::vector<std::string> without_log_flags(const std::vector<std::string>& args) {
  std::vector<std::string> rest;
  for (const auto& a : args) {
    if (a == "-q" || a == "--quiet") {
      choose_level(logging::Level::kQuiet);
    } else if (a == "-v" || a == "--verbose") {
      choose_level(logging::Level::kVerbose);
    } else {
      rest.push_back(a);
    }
  }
  return rest;
}

const char* const kLogFlagsHelp =
    "\noptions\n  -q [ --quiet ]     print only errors on stderr (also RSOC_LOG=quiet)\n"
    "  -v [ --verbose ]   print more on stderr (also RSOC_LOG=verbose)\n";

int cmd_point(const std::vector<std::string>& all) {
  const std::vector<std::string> args = without_log_flags(all);
  if (args.size() == 1 && (args[0] == "-h" || args[0] == "--help")) {
    std::cout
        << "rsoc point DIR INDEX [-q|-v]\n\nRuns point INDEX of the sweep prepared in DIR (by rsoc sweep, "
           "rsoc crossover --param or\nrsoc sensitivity) and records its outcome in DIR/points/. Exit 0 "
           "when the point succeeded.\n"
        << kLogFlagsHelp;
    return kOk;
  }
  if (args.size() != 2) throw UsageError("point takes a sweep folder and a point index");
  const fs::path dir(args[0]);
  const std::string& text = args[1];
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) {
    const std::size_t n = rsoc::platform::point_count(rsoc::platform::load_sweep(dir));
    throw UsageError("point index " + text + ": expected a whole number from 0 to " + std::to_string(n - 1) +
                     " (the sweep in " + dir.string() + " has " + std::to_string(n) + " points)");
  }
  const std::size_t index = std::stoull(text);
  rsoc::analysis::SweepPoint point;
  try {
    point = rsoc::platform::run_point(dir, index);
  } catch (const rsoc::platform::Interrupted& e) {
    throw rsoc::platform::Interrupted(
        e.signal(), "point " + text + " not recorded: it runs again when the sweep is resumed");
  }
  if (point.status != "ok") {
    std::cerr << "rsoc: point " << index << " failed: " << point.error << "\n";
    return kSimulationFailure;
  }
  logging::note() << "rsoc: point " << index << " ok\n";
  return kOk;
}

int cmd_merge(const std::vector<std::string>& all) {
  const std::vector<std::string> args = without_log_flags(all);
  if (args.size() == 1 && (args[0] == "-h" || args[0] == "--help")) {
    std::cout << "rsoc merge DIR [-q|-v]\n\nBuilds DIR/sweep.csv from the points of the sweep in DIR that "
                 "have finished;\npoints without an outcome are listed with status missing (exit 1). For a "
                 "sensitivity study,\nalso DIR/sensitivity.csv once every point has succeeded.\n"
              << kLogFlagsHelp;
    return kOk;
  }
  if (args.size() != 1) throw UsageError("merge takes one sweep folder");
  const std::size_t missing = rsoc::platform::merge_sweep(fs::path(args[0]));
  (missing ? std::cerr : logging::note())
      << "rsoc: " << (fs::path(args[0]) / "sweep.csv").string()
      << (missing ? " (" + std::to_string(missing) + " points missing)" : std::string()) << "\n";
  if (rsoc::platform::load_sweep(fs::path(args[0])).sensitivity) {
    std::cout << rsoc::analysis::sensitivity_text(finish_sensitivity(fs::path(args[0])));
    return kOk;
  }
  return missing ? kSimulationFailure : kOk;
}

// Every experiment of `systems` in its own process, `jobs` at a time, each in <system>/<name>/ of `out`; then
// reproduce.csv. A failed experiment fails the reproduction: with 2 when one exited with 2 (a scenario or an
// output error), else 1.
int reproduce(const std::vector<std::string>& systems, const fs::path& scenarios, const fs::path& out,
              unsigned jobs, Format format) {
  rsoc::analysis::OutputDir dir(out);
  const fs::path work = dir.file("");
  std::vector<std::pair<std::string, std::string>> experiments;
  for (const auto& s : systems)
    for (const auto& e : rsoc::platform::reproduction_experiments(s)) experiments.emplace_back(s, e);
  // Started longest first (the pool stays busy to the end); the figures are gathered in report order below.
  std::vector<std::pair<std::string, std::string>> start_order = experiments;
  std::stable_sort(start_order.begin(), start_order.end(), [](const auto& a, const auto& b) {
    return rsoc::platform::reproduction_cost(a.first, a.second) >
           rsoc::platform::reproduction_cost(b.first, b.second);
  });
  rsoc::tools::TaskProgress progress(experiments.size(), "experiments", "reproducing");
  rsoc::tools::ChildPool pool(jobs);
  std::string failures;
  int code = kOk;
  std::size_t next = 0;
  while (next < start_order.size() || !pool.empty()) {
    while (next < start_order.size() && pool.has_room()) {
      const auto& [s, e] = start_order[next];
      std::error_code ec;
      fs::create_directories(work / s, ec);
      if (ec) throw rsoc::analysis::write_error(work / s, ec.message());
      const std::vector<std::string> child{"reproduce",       "--run-experiment",      s + "/" + e,
                                           "--out",           (work / s / e).string(), "--scenarios",
                                           scenarios.string()};
      progress.started(s + " " + e, child, work / s / (e + ".log"));
      pool.start(next++, child, work / s / (e + ".log"));
    }
    const auto [index, status] = pool.wait();
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    progress.ended(start_order[index].first + " " + start_order[index].second, ok);
    if (ok) continue;
    const auto& [s, e] = start_order[index];
    std::ifstream log(work / s / (e + ".log"));
    std::stringstream text;
    text << log.rdbuf();
    failures +=
        s + " " + e + " " + rsoc::tools::ending(status) + ":\n" + rsoc::analysis::shown_in(text.str());
    code = std::max(code, WIFEXITED(status) && WEXITSTATUS(status) == kUsage ? kUsage : kSimulationFailure);
  }
  if (!failures.empty()) throw Failure(code, "reproduction failed; " + failures);
  std::vector<rsoc::platform::ReproducedFigure> figures;
  for (const auto& [s, e] : experiments) {
    const auto these = rsoc::platform::read_figures(work / s / e / "figures.csv");
    figures.insert(figures.end(), these.begin(), these.end());
  }
  const auto derived = rsoc::platform::derived_figures(work, figures);
  figures.insert(figures.end(), derived.begin(), derived.end());
  rsoc::platform::write_reproduce_csv(dir.file("reproduce.csv"), figures);
  rsoc::platform::throw_if_interrupted();
  if (const std::string gone = dir.commit(); !gone.empty())
    rsoc::platform::logging::note() << "rsoc: " << gone << "\n";
  if (format == Format::kJson) {
    nlohmann::ordered_json doc;
    doc["command"] = "reproduce";
    doc["out"] = out.string();
    doc["systems"] = systems;
    doc["figures"] = nlohmann::ordered_json::array();
    for (const auto& f : figures) {
      std::optional<double> error_pct;
      if (f.published && *f.published != 0) error_pct = (f.simulated - *f.published) / *f.published * 100;
      doc["figures"].push_back({{"system", f.system},
                                {"figure", f.figure},
                                {"kind", f.kind},
                                {"published", maybe(f.published)},
                                {"simulated", f.simulated},
                                {"error_pct", maybe(error_pct)}});
    }
    print_json(doc);
  } else {
    std::cout << rsoc::platform::reproduce_table(figures) << "\n" << rsoc::platform::reproduce_summary(figures);
  }
  report_files(out);
  logging::note() << "rsoc: " << figures.size() << " figures; results in " << out.string() << "\n";
  return kOk;
}

int cmd_reproduce(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc reproduce --out DIR [options]\n\nRuns every shipped reference system (each experiment in its own "
      "process, --jobs at a\ntime) and writes DIR/reproduce.csv: system, figure, kind, published, simulated, "
      "error_pct.\nkind says how far a figure can be trusted: calibrated (a model input was fitted to it),\n"
      "predicted (no input was fitted to it) or derived (it follows from calibrated inputs by\narithmetic "
      "alone). Each system's own results are in DIR/<system>/. On a terminal, a line\nsays how many "
      "experiments are done, which are running and the time elapsed.\n\noptions");
  opts.add_options()("help,h", "this help")("out,o", po::value<std::string>(), "output folder (required)")(
      "system", po::value<std::vector<std::string>>()->composing(),
      "only this system, by its name or its scenario's: soc (os_aes_des), hsm (hsm_rsa2048), cell "
      "(cell_rsa4096), desrnd (desrnd_3des); repeatable")(
      "scenarios", po::value<std::string>(), "folder of the shipped scenarios (default: the source tree's)")(
      "jobs,j", po::value<std::string>(),
      "experiments run at once, each its own process (default: the number "
      "of cores); the results are the same whatever it is")(
      "run-experiment", po::value<std::string>(),
      "(internal) run one experiment (SYSTEM/NAME) here and write its figures to --out");
  add_format_option(opts);
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  const Format format = output_format(vm);
  if (!vm.count("out")) throw UsageError("reproduce needs --out DIR");
  if (vm.count("scenario"))
    throw UsageError("reproduce takes no scenario: it runs the shipped reference ones");
  const fs::path scenarios = rsoc::platform::scenario_dir(
      vm.count("scenarios") ? std::optional<fs::path>(vm["scenarios"].as<std::string>()) : std::nullopt);
  const fs::path out(vm["out"].as<std::string>());
  if (vm.count("run-experiment")) {  // a child: one experiment, in this process
    const std::string which = vm["run-experiment"].as<std::string>();
    const auto slash = which.find('/');
    if (slash == std::string::npos) throw UsageError("--run-experiment takes SYSTEM/NAME");
    const auto figures =
        rsoc::platform::reproduce_experiment(which.substr(0, slash), which.substr(slash + 1), scenarios, out);
    rsoc::platform::write_figures(out / "figures.csv", figures);
    logging::note() << "rsoc: " << which << ": " << figures.size() << " figures in " << out.string() << "\n";
    return kOk;
  }
  const auto known = rsoc::platform::reproduction_systems();
  std::vector<std::string> systems = known;
  if (vm.count("system")) {
    systems.clear();
    for (const auto& name : vm["system"].as<std::vector<std::string>>()) {
      const auto system = rsoc::platform::reproduction_system(name);
      if (!system)
        throw UsageError("--system " + name + ": not a reference system (known: " + [&] {
          std::string k;
          for (const auto& n : known)
            k += (k.empty() ? "" : ", ") + n + " (" + rsoc::platform::reproduction_scenario(n) + ")";
          return k;
        }() + ")");
      if (std::find(systems.begin(), systems.end(), *system) != systems.end())
        throw UsageError("--system " + name + ": " + *system + " is given twice");
      systems.push_back(*system);
    }
  }
  const std::uint64_t jobs = vm.count("jobs")
                                 ? whole_number("jobs", vm["jobs"].as<std::string>(), 1, kMaxJobs)
                                 : std::max(1u, std::thread::hardware_concurrency());
  return writing(out,
                 [&] { return reproduce(systems, scenarios, out, static_cast<unsigned>(jobs), format); });
}

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
      "max-blocks", po::value<std::string>(), "the crossover is searched up to this block count (default "
      "1000000; a request holds at most 1 GiB)")(
      "table", po::value<std::string>(), "every block count from 1 to N in crossover.csv, for plots (default "
      "200; 0: only those the search simulates)")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a scenario value (as in run)")(
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

// Columns a UTF-8 text takes (one per code point).
std::size_t columns(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The first sentence of `text` (up to its first '.' that ends the text or is followed by a space), on one
// line and cut at a word to at most `width` columns, "..." saying so.
std::string first_sentence(std::string text, std::size_t width) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  for (std::size_t dot = text.find('.'); dot != std::string::npos; dot = text.find('.', dot + 1))
    if (dot + 1 == text.size() || text[dot + 1] == ' ') {
      text.erase(dot + 1);
      break;
    }
  if (columns(text) <= width) return text;
  // The longest prefix of whole words that leaves room for "...".
  std::size_t cut = 0, used = 0, last_space = std::string::npos;
  for (; cut < text.size(); ++cut) {
    const bool starts = (static_cast<unsigned char>(text[cut]) & 0xC0) != 0x80;
    if (starts && used + 3 == width) break;
    if (starts) ++used;
    if (text[cut] == ' ') last_space = cut;
  }
  if (last_space != std::string::npos && last_space > 0) cut = last_space;
  while (cut > 0 && text[cut - 1] == ' ') --cut;
  return text.substr(0, cut) + "...";
}

// One problem of a scenario file without the file's name: "line 3, column 5: malformed JSON: ...",
// "/description: expected a string".
std::string problem_text(const ScenarioError& e) {
  std::string text;
  for (const auto& issue : e.issues()) {
    std::string one;
    if (issue.line > 0)
      one = "line " + std::to_string(issue.line) + ", column " + std::to_string(issue.column) + ": ";
    if (!issue.pointer.empty()) one += issue.pointer + ": ";
    text += (text.empty() ? "" : "; ") + one + issue.message;
  }
  return text;
}

int cmd_list(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc list [options]\n\nLists the shipped scenarios (the folder scenarios/ of the source tree this\n"
      "rsoc was built from, as reproduce finds it), one per line: the name (the file's,\nwithout .json) and "
      "the first sentence of its description, cut to the terminal's\nwidth (100 columns when stdout is not a "
      "terminal). A file that is not valid JSON is\nlisted as \"(cannot be read: REASON)\" and reported on "
      "stderr; the others are still\nlisted, and the exit code is 2.\n\noptions");
  opts.add_options()("help,h", "this help")("scenarios", po::value<std::string>(),
                                            "list the scenarios of this folder instead");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  if (vm.count("scenario")) throw UsageError("list takes no scenario (--scenarios DIR names a folder)");
  const bool given = vm.count("scenarios") > 0;
  const fs::path folder = rsoc::platform::scenario_dir(
      given ? std::optional<fs::path>(vm["scenarios"].as<std::string>()) : std::nullopt);
  const std::string named = given ? "--scenarios " + folder.string() : folder.string();
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->path().extension() == ".json" && fs::is_regular_file(it->path(), type_ec))
      files.push_back(it->path());
  }
  if (ec)
    throw UsageError(named + ": cannot list: " + ec.message() +
                     (given ? "" : " (the shipped scenarios' folder; --scenarios DIR names another)"));
  if (files.empty()) throw UsageError(named + ": no scenario files (*.json)");
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    return a.filename().string() < b.filename().string();
  });
  std::size_t name_width = 0;
  for (const auto& f : files) name_width = std::max(name_width, columns(f.stem().string()));
  std::size_t width = 100;
  if (::isatty(STDOUT_FILENO)) {
    struct winsize size {};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) width = size.ws_col;
  }
  const std::size_t text_width =
      std::max<std::size_t>(width > name_width + 2 ? width - name_width - 2 : 0, 20);
  logging::note() << "rsoc: scenarios in " << folder.string() << "\n";
  int code = kOk;
  for (const auto& f : files) {
    std::string description;
    try {
      const nlohmann::json doc = rsoc::platform::read_json_file(f.string());
      if (!doc.is_object()) throw ScenarioError(f.string(), "", "expected a JSON object (a scenario)");
      const auto it = doc.find("description");
      if (it == doc.end()) {
        description = "(no description)";
      } else if (!it->is_string()) {
        throw ScenarioError(f.string(), "/description", "expected a string");
      } else {
        description = first_sentence(it->get<std::string>(), text_width);
      }
    } catch (const ScenarioError& e) {
      description = "(cannot be read: " + problem_text(e) + ")";
      std::cerr << e.what() << "\n";
      code = kUsage;
    }
    const std::string name = f.stem().string();
    std::cout << name << std::string(name_width - columns(name) + 2, ' ') << description << "\n";
  }
  return code;
}

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

int cmd_verify(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc verify des --pairs N [options]\n\nChecks DES and 3DES computed on the desrnd CPU extension unit "
      "(the routines the\nsoftware runs: key halves C, D and data halves L, R in extension registers, one or "
      "two\nrounds per instruction) against OpenSSL libcrypto, in both directions, for N random\nkey/data "
      "pairs; with --vectors, also the NIST SP 800-17 known-answer tables (by default the\ncopy in the "
      "source tree this rsoc was built from, tests/data). Prints a summary; exit 0\nwhen everything agrees, "
      "1 (with key, data, expected and got) when not, 2 when the\nvectors file cannot be read.\n\noptions");
  opts.add_options()("help,h", "this help")("pairs,n", po::value<std::string>(),
                                            "random key/data pairs to check (required, at least 1)")(
      "seed", po::value<std::string>()->default_value("1"), "seed of the pair generator (std::mt19937_64)")(
      "rounds-per-instruction", po::value<std::string>()->default_value("both"),
      "unit configuration checked: 1, 2 or both")(
      "vectors", po::value<std::string>()->value_name("FILE")->implicit_value(RSOC_DES_VECTORS),
      "also check the SP 800-17 tables (`table index key plaintext ciphertext` per line); without FILE, "
      "the build's copy");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  const std::vector<std::string> what =
      vm.count("scenario") ? vm["scenario"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (what.empty()) throw UsageError("verify needs an algorithm (algorithms: des)");
  if (what.size() > 1) throw UsageError("verify takes one algorithm, got " + std::to_string(what.size()));
  if (what.front() != "des")
    throw UsageError("verify: unknown algorithm \"" + what.front() + "\" (algorithms: des)");
  if (!vm.count("pairs")) throw UsageError("verify des needs --pairs N");
  rsoc::crypto::DesrndVerifyOptions options;
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  options.pairs = whole_number("pairs", vm["pairs"].as<std::string>(), 1, kMax);
  options.seed = whole_number("seed", vm["seed"].as<std::string>(), 0, kMax);
  const std::string rpi = vm["rounds-per-instruction"].as<std::string>();
  if (rpi == "1" || rpi == "2")
    options.rounds_per_instruction = {static_cast<unsigned>(std::stoul(rpi))};
  else if (rpi != "both")
    throw UsageError("--rounds-per-instruction " + rpi + ": expected 1, 2 or both");
  std::vector<rsoc::crypto::DesVector> vectors;
  if (vm.count("vectors")) {
    try {
      vectors = rsoc::crypto::load_des_vectors(vm["vectors"].as<std::string>());
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("--vectors: ") + e.what());
    }
  }

  rsoc::tools::OpenSslDesReference reference;
  const auto mismatch = [](const rsoc::crypto::DesrndMismatch& m) {
    std::cout << "result: MISMATCH\n" << rsoc::crypto::describe(m) << "\n";
    std::cerr << "rsoc: verify des: " << m.variant << " disagrees with the reference at " << m.where << "\n";
    return kSimulationFailure;
  };
  std::cout << "desrnd DES/3DES verification against " << reference.name() << "\n";
  if (vectors.empty()) {
    std::cout << "SP 800-17 vectors: not checked (--vectors [FILE])\n";
  } else {
    const auto kat = rsoc::crypto::verify_des_vectors_on_desrnd(vectors, options.rounds_per_instruction);
    std::cout << "SP 800-17 vectors: " << kat.cases << " of " << vectors.size() << " (" << kat.comparisons
              << " blocks)\n";
    if (kat.mismatch) return mismatch(*kat.mismatch);
  }

  // A progress line each time another 5% of the pairs is done, and at the end.
  std::uint64_t next_percent = 5;
  const auto progress = [&](std::uint64_t done, std::uint64_t total) {
    const std::uint64_t percent = done * 100 / total;
    if (done != total && percent < next_percent) return;
    logging::note() << "rsoc: verify des: " << done << " of " << total << " pairs (" << percent << "%)\n";
    next_percent = percent / 5 * 5 + 5;
  };
  const auto result = rsoc::crypto::verify_des_on_desrnd(options, reference, progress);
  std::string variants;
  for (const auto& v : result.variants) variants += (variants.empty() ? "" : "; ") + v;
  std::cout << "pairs checked: " << result.cases << " of " << options.pairs << " (seed " << options.seed
            << ")\n"
            << "variants: " << result.variants.size() << " (" << variants << ")\n"
            << "blocks compared: " << result.comparisons << "\n";
  if (result.mismatch) return mismatch(*result.mismatch);
  std::cout << "result: all agree\n";
  return kOk;
}

}  // namespace

// The one front door of SystemC reports: displayed on stderr (results go to files), everything else as
// SystemC would (throwing errors, stopping on fatals). Infos are kernel chatter and stay silent; warnings
// too when rsoc is quiet.
void report_to_stderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  const bool shown = report.get_severity() >= sc_core::SC_ERROR || rsoc::platform::logging::notes();
  if ((actions & sc_core::SC_DISPLAY) && shown) {
    static const char* const severity[] = {"info", "warning", "error", "fatal"};
    std::cerr << "rsoc: " << severity[report.get_severity()] << ": " << report.get_msg_type() << ": "
              << report.get_msg() << "\n";
  }
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

namespace {

// The commands: the one table that dispatches them, lists them in the help (in its order) and in the message
// about an unknown one (in the order below), and says which stop cleanly on SIGINT and SIGTERM
// (platform/interrupt.h: those that write results; the others end at once, as any program does).
struct Command {
  const char* name;
  const char* usage;    // as the help shows it
  const char* summary;  // its line in the help
  bool writes_results;
  int (*run)(const std::vector<std::string>& args);
};
const Command kCommands[] = {
    {"run", "run [SCENARIO]",
     "simulate a scenario (the embedded default when none is given) and write results", true, cmd_run},
    {"crossover", "crossover [SCENARIO]",
     "where hardware overtakes software: latency per block count, three modes", true, cmd_crossover},
    {"sweep", "sweep SCENARIO", "run the scenario over a grid of parameter values, one process per point",
     true, cmd_sweep},
    {"sensitivity", "sensitivity SCENARIO",
     "how far each figure moves with each assumption, varied from LOW to HIGH", true, cmd_sensitivity},
    {"point", "point DIR INDEX", "run one point of a prepared sweep (what job lists and job arrays call)",
     true, cmd_point},
    {"merge", "merge DIR", "build DIR/sweep.csv from the finished points of a sweep (and sensitivity.csv)",
     true, cmd_merge},
    {"reproduce", "reproduce", "run every shipped reference system and compare with the published figures",
     true, cmd_reproduce},
    {"list", "list", "the shipped scenarios, each with the first sentence of its description", false,
     cmd_list},
    {"show", "show [SCENARIO]", "print the resolved scenario (every default filled in) without simulating",
     false, cmd_show},
    {"validate", "validate SCENARIO...", "check scenario files and report every problem", false,
     cmd_validate},
    {"schema", "schema", "print every scenario key with its type, unit, default and range", false,
     cmd_schema},
    {"verify", "verify des", "check DES/3DES on the desrnd extension unit against OpenSSL on random pairs",
     false, cmd_verify},
};
// The order of the help: what most users run first.
const char* const kHelpOrder[] = {"run",         "validate", "show",  "list",      "crossover", "sweep",
                                  "sensitivity", "point",    "merge", "reproduce", "schema",    "verify"};

const Command* find_command(const std::string& name) {
  for (const Command& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

std::string tool_help() {
  std::string help = std::string(kToolHelpHead) + "commands:\n";
  for (const char* name : kHelpOrder) {
    const Command& c = *find_command(name);
    std::string usage = c.usage;
    usage.resize(std::max<std::size_t>(usage.size() + 1, 21), ' ');
    help += "  " + usage + c.summary + "\n";
  }
  return help + "\n" + kToolHelpOptions;
}

int dispatch(const std::string& command, const std::vector<std::string>& args) {
  if (const Command* c = find_command(command)) return c->run(args);
  std::string names;
  for (const Command& c : kCommands) names += std::string(names.empty() ? "" : ", ") + c.name;
  throw UsageError("unknown command \"" + command + "\" (commands: " + names + "; see rsoc --help)");
}

// Runs the command; a failure is reported on stderr and gives the exit code.
int run_command(const std::vector<std::string>& all) {
  try {
    // -q and -v before the command, as after it.
    std::size_t command = 0;
    for (; command < all.size(); ++command) {
      if (all[command] == "-q" || all[command] == "--quiet") {
        choose_level(logging::Level::kQuiet);
      } else if (all[command] == "-v" || all[command] == "--verbose") {
        choose_level(logging::Level::kVerbose);
      } else {
        break;
      }
    }
    if (command == all.size() || all[command] == "-h" || all[command] == "--help" || all[command] == "help") {
      std::cout << tool_help();
      return command == all.size() ? kUsage : kOk;
    }
    if (all[command] == "--version") {
      std::cout << "rsoc " << rsoc::kVersion << " (SystemC " << sc_core::sc_release() << ")\n";
      return kOk;
    }
    // RSOC_LOG is checked whatever the flags say; they take precedence over it.
    std::optional<logging::Level> environment;
    try {
      environment = logging::from_environment();
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (environment && !g_flag_level) logging::set_level(*environment);
    if (const Command* c = find_command(all[command]); c && c->writes_results)
      rsoc::platform::install_interrupt_handlers();
    return dispatch(all[command], std::vector<std::string>(all.begin() + command + 1, all.end()));
  } catch (const rsoc::platform::Interrupted& e) {
    std::cerr << bounded_words("rsoc: " + std::string(e.what()) + ": " + e.kept()) << "\n";
    return 128 + e.signal();
  } catch (const UsageError& e) {
    std::cerr << bounded_words("rsoc: " + std::string(e.what())) << "\n";
    return kUsage;
  } catch (const ScenarioError& e) {
    std::cerr << bounded_words(e.what()) << "\n";
    return kUsage;
  } catch (const rsoc::analysis::OutputDirError& e) {
    std::cerr << bounded_words("rsoc: " + std::string(e.what())) << "\n";
    return kUsage;
  } catch (const rsoc::platform::SweepError& e) {
    std::cerr << bounded_words("rsoc: " + std::string(e.what())) << "\n";
    return kUsage;
  } catch (const Failure& e) {
    std::cerr << bounded_words("rsoc: " + std::string(e.what())) << "\n";
    return e.code();
  } catch (const rsoc::platform::SimulationError& e) {
    std::cerr << bounded_words("rsoc: " + std::string(e.what())) << "\n";
    return kSimulationFailure;
  } catch (const std::exception& e) {
    std::cerr << bounded_words("rsoc: simulation failure: " + std::string(e.what())) << "\n";
    return kSimulationFailure;
  }
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_handler(report_to_stderr);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  // A file size limit fails a write (EFBIG, reported as a full disk is) instead of killing rsoc.
  std::signal(SIGXFSZ, SIG_IGN);
  const auto start = std::chrono::steady_clock::now();
  int code = run_command(std::vector<std::string>(argv + 1, argv + argc));
  char wall[48];
  std::snprintf(wall, sizeof wall, "rsoc: %.2f s wall time\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  rsoc::platform::logging::detail() << wall;
  // The tables on stdout are output too: a write that failed there (a full disk under a redirection) fails
  // the command as a result file would.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "rsoc: standard output: cannot write: " << std::strerror(errno) << "\n";
    if (code == kOk) code = kUsage;
  }
  if (const int signal = rsoc::platform::interrupt_signal(); signal != 0 && code < 128) {
    if (code == kOk)
      std::cerr << "rsoc: interrupted by " << rsoc::platform::signal_name(signal)
                << " after its work was done: everything it wrote is kept\n";
    return 128 + signal;
  }
  return code;
}

// SystemC prints its banner while it starts, before sc_main: silence it first (results go to files, logs to
// stderr, and the banner is neither).
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
