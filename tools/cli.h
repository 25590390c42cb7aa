#pragma once
// What every command of `rsoc` shares: the exit codes and the errors that give them, the options every
// command takes (-q/-v, --format), loading the scenario a command line names with its overrides, and the
// command table's entry. Each command is its own file, tools/command_<name>.cpp, ending with its Command
// entry; tools/main.cpp lists the entries and dispatches.

#include <boost/program_options.hpp>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "platform/interrupt.h"
#include "platform/log.h"
#include "platform/scenario.h"

namespace rsoc::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;
namespace logging = rsoc::platform::logging;
using rsoc::platform::bounded_words;
using rsoc::platform::ScenarioError;

constexpr int kOk = 0, kSimulationFailure = 1, kUsage = 2;

// A command line rsoc does not understand: exit 2.
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

// A command: its name, its line in the help and whether it stops cleanly on SIGINT and SIGTERM
// (platform/interrupt.h: those that write results; the others end at once, as any program does).
struct Command {
  const char* name;
  const char* usage;    // as the help shows it
  const char* summary;  // its line in the help
  bool writes_results;
  int (*run)(const std::vector<std::string>& args);
};

// The level -q/--quiet or -v/--verbose chose (before or after the command), which RSOC_LOG gives way to.
extern std::optional<logging::Level> g_flag_level;
// Sets the level a flag chose; the two flags together are refused.
void choose_level(logging::Level level);
// -q/--quiet and -v/--verbose, which every command takes.
void add_log_options(po::options_description& opts);
// Parses a command's arguments; positional arguments are scenario files. Prints the command's help and
// returns nothing for --help; throws UsageError for anything it does not understand. -q and -v set the
// level of the messages on stderr.
std::optional<po::variables_map> parse_command(const std::vector<std::string>& args,
                                               po::options_description visible);
// The arguments of a command that takes no options but -q/-v (point, merge), which set the level.
std::vector<std::string> without_log_flags(const std::vector<std::string>& args);
// The help lines of -q and -v, for those commands.
extern const char* const kLogFlagsHelp;

// A whole number from `min` to `max` given to --`option`.
std::uint64_t whole_number(const std::string& option, const std::string& text, std::uint64_t min,
                           std::uint64_t max);
// --jobs: at most as many as a sweep has points.
constexpr std::uint64_t kMaxJobs = 1000000;

// An override set by a flag, named after it in messages.
void add_override(rsoc::platform::LoadOptions& options, std::string assignment, std::string source);
// The scenario named on the command line, or the embedded default, with `options` (the keys other flags set),
// then --set and --seed applied, each named after its flag in messages.
rsoc::platform::Scenario load_for(const po::variables_map& vm, const char* command,
                                  rsoc::platform::LoadOptions options = {});
// --trace / --trace-window (or --vcd / --vcd-window) as the keys of outputs.trace (outputs.vcd) they set.
void timeline_overrides(const po::variables_map& vm, const std::string& output,
                        rsoc::platform::LoadOptions& options);
// The name of the scenario named on the command line (its file's stem), or the reference's.
std::string scenario_stem(const po::variables_map& vm);

// Verbose: what identifies the scenario a command runs.
void describe_scenario(const rsoc::platform::Scenario& scenario);
// Verbose: every file of the result folder `out`, as its manifest lists them.
void report_files(const fs::path& out);

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
void add_format_option(po::options_description& opts);
Format output_format(const po::variables_map& vm);
void print_json(nlohmann::ordered_json doc);

// A value that may be missing: null in JSON.
template <class T>
nlohmann::ordered_json maybe(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

// The commands, each defined in its file.
extern const Command kRunCommand, kCrossoverCommand, kSweepCommand, kSensitivityCommand, kPointCommand,
    kMergeCommand, kReproduceCommand, kListCommand, kShowCommand, kValidateCommand, kSchemaCommand,
    kVerifyCommand;

}  // namespace rsoc::cli
