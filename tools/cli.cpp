// What every command of the command line shares (tools/cli.h).

#include "tools/cli.h"

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/json_numbers.h"
#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/log.h"
#include "platform/scenario.h"
#include "platform/session.h"
#include "tools/openssl_des_reference.h"

namespace rsoc::cli {

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
                                  rsoc::platform::LoadOptions options) {
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

// The name of the scenario named on the command line (its file's stem), or the reference's.
std::string scenario_stem(const po::variables_map& vm) {
  if (!vm.count("scenario")) return "os_aes_des";
  return fs::path(vm["scenario"].as<std::vector<std::string>>().front()).stem().string();
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

}  // namespace rsoc::cli
