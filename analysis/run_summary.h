#pragma once
// The summary of a finished run, as `rsoc run` prints it and sweeps tabulate it: the lines of prose (where
// the time went, faults, replacement against the optimal bound, energy), the table by functionality and
// decision, and the run's figures as named numbers. Made from what the run recorded (summarise()); plain
// C++, it never drives the simulation.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/request_log.h"
#include "analysis/stats.h"
#include "runtime/request_record.h"

namespace rsoc::analysis {

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
  std::vector<RequestLog::SummaryRow> rows;
  // The run's figures as named numbers (a sweep's metric columns): requests, failed, simulated_ms,
  // requests_per_s, (with faults: recovered, silent_corruptions, silent_share), reconfigurations,
  // reconfigurations_optimal, then per functionality and decision "<f>.<decision>.<figure>" for the figures
  // of summary.csv.
  std::vector<std::pair<std::string, double>> metrics;
};

// What a run recorded, for its summary.
struct RunRecord {
  double end_ms = 0;                                  // simulated time
  const RequestLog* log = nullptr;                    // every request
  const std::vector<StatGroup>* stats = nullptr;      // every statistics group (the manager's included)
  const runtime::LatencyBreakdown* totals = nullptr;  // the requests' latency by use, summed
  // Hardware requests that configured a slot, the fewest any replacement could have needed, and whether
  // that is a proven bound (Belady's MIN); the replacement policy's name and whether cores stay (caching).
  std::uint64_t reconfigurations = 0, reconfigurations_optimal = 0;
  bool optimal_exact = false;
  std::string replacement;
  bool caching = true;
  bool energy = false;  // the scenario has an energy model
  bool faults = false;  // the scenario injects faults
};
RunSummary summarise(const RunRecord& run);

// An energy given in mJ, as people read it: "164.3 J", "14.68 mJ", "3.695 µJ" (four significant digits).
std::string energy_text(double mj);

}  // namespace rsoc::analysis
