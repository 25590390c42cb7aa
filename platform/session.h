#pragma once
// A simulation session: builds the platform described by a Scenario (models, bindings, bitstream images, the
// OS runtime and the applications), runs it to completion, and writes the results into an output folder.
// One process runs one session: SystemC cannot be elaborated twice.

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analysis/request_log.h"
#include "platform/scenario.h"
#include "platform/simulation.h"

namespace rsoc::platform {

// An energy given in mJ, as people read it: "164.3 J", "14.68 mJ", "3.695 µJ" (four significant digits).
std::string energy_text(double mj);

struct RunSummary {
  std::uint64_t requests = 0, failed = 0;
  double simulated_ms = 0;
  double requests_per_s = 0;  // completed and failed requests over the simulated seconds (0 when none passed)
  // One line: the busiest resource and the largest share of latency.
  std::string verdict;
  // With section faults, one line: requests recovered, failed, and delivered wrong unnoticed ("" without).
  std::string faults;
  // When hardware requests configured a slot, one line: the configurations the replacement policy needed and
  // the fewest any policy could have (runtime/optimal_replacement.h); "" otherwise.
  std::string replacement;
  // With an energy model, one line: the run's energy, its mean power, and what the requests spent; ""
  // otherwise.
  std::string energy;
  std::string table;  // a short human-readable summary
  // The rows of summary.csv: per functionality and decision, counts, latencies and throughput.
  std::vector<analysis::RequestLog::SummaryRow> rows;
  // The run's figures as named numbers (a sweep's metric columns): requests, failed, simulated_ms,
  // requests_per_s, (with faults: recovered, silent_corruptions, silent_share), reconfigurations,
  // reconfigurations_optimal, then per functionality and decision "<f>.<decision>.<figure>" for the figures
  // of summary.csv.
  std::vector<std::pair<std::string, double>> metrics;
};

// Runs `scenario` and writes requests.csv, breakdown.csv, summary.csv, stats.json, resolved_scenario.json
// (and host.json with wall-clock facts; trace.json and timeline.vcd when the scenario's outputs ask) into
// `out`, atomically. Throws SimulationError (elaboration or simulation failure) or analysis::OutputDirError.
RunSummary run_session(const Scenario& scenario, const std::filesystem::path& out);

}  // namespace rsoc::platform
