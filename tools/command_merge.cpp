// rsoc merge: the table of a sweep from its finished points.

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "analysis/output_file.h"
#include "analysis/sensitivity_table.h"
#include "platform/log.h"
#include "platform/session.h"
#include "platform/sweep.h"
#include "tools/cli.h"
#include "tools/sweep_command.h"

namespace rsoc::cli {

namespace {

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

}  // namespace

extern const Command kMergeCommand = {
    "merge", "merge DIR", "build DIR/sweep.csv from the finished points of a sweep (and sensitivity.csv)",
    true, cmd_merge};

}  // namespace rsoc::cli
