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

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "analysis/output_dir.h"
#include "platform/interrupt.h"
#include "platform/log.h"
#include "platform/simulation.h"
#include "platform/sweep.h"
#include "rsoc/version.h"
#include "tools/cli.h"

using namespace rsoc::cli;

namespace {

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

// The commands (each in its file, tools/command_<name>.cpp): the one table that dispatches them, lists them
// in the help (in its order) and in the message about an unknown one (in the order below), and says which
// stop cleanly on SIGINT and SIGTERM.
const Command* const kCommands[] = {&kRunCommand,         &kCrossoverCommand, &kSweepCommand,
                                    &kSensitivityCommand, &kPointCommand,     &kMergeCommand,
                                    &kReproduceCommand,   &kListCommand,      &kShowCommand,
                                    &kValidateCommand,    &kSchemaCommand,    &kVerifyCommand};
// The order of the help: what most users run first.
const char* const kHelpOrder[] = {"run",         "validate", "show",  "list",      "crossover", "sweep",
                                  "sensitivity", "point",    "merge", "reproduce", "schema",    "verify"};

const Command* find_command(const std::string& name) {
  for (const Command* c : kCommands)
    if (name == c->name) return c;
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
  for (const Command* c : kCommands) names += std::string(names.empty() ? "" : ", ") + c->name;
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
