// rsoc point: one point of a prepared sweep.

#include <csignal>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "analysis/output_file.h"
#include "analysis/sweep_table.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/interrupt.h"
#include "platform/log.h"
#include "platform/session.h"
#include "platform/sweep.h"
#include "tools/cli.h"

namespace rsoc::cli {

namespace {

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

}  // namespace

extern const Command kPointCommand = {
    "point", "point DIR INDEX", "run one point of a prepared sweep (what job lists and job arrays call)",
    true, cmd_point};

}  // namespace rsoc::cli
