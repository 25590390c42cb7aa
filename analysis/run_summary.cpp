#include "analysis/run_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "analysis/breakdown.h"

namespace rsoc::analysis {

std::string energy_text(double mj) {
  const double magnitude = std::fabs(mj);
  char text[64];
  if (magnitude >= 1e4) {
    std::snprintf(text, sizeof text, "%.4g J", mj * 1e-3);
  } else if (magnitude >= 1 || magnitude == 0) {
    std::snprintf(text, sizeof text, "%.4g mJ", mj);
  } else {
    std::snprintf(text, sizeof text, "%.4g µJ", mj * 1e3);
  }
  return text;
}

namespace {

// The configurations against the optimal bound, and the prefetches beside them.
void add_replacement(const RunRecord& run, RunSummary& summary) {
  summary.metrics.insert(summary.metrics.end(),
                         {{"reconfigurations", static_cast<double>(run.reconfigurations)},
                          {"reconfigurations_optimal", static_cast<double>(run.reconfigurations_optimal)}});
  // Prefetches configure slots too, outside the requests' count (none without a predictor).
  const std::vector<StatGroup>& stats = *run.stats;
  const double prefetches = find_stat(stats, "manager", "prefetches").value_or(-1);
  const double useful = find_stat(stats, "manager", "prefetches_useful").value_or(0);
  summary.metrics.insert(
      summary.metrics.end(),
      {{"prefetches", std::max(prefetches, 0.0)},
       {"prefetches_useful", useful},
       {"reconfiguration_hidden_ms", find_stat(stats, "manager", "reconfiguration_hidden_ms").value_or(0)}});
  if (run.reconfigurations == 0 && prefetches <= 0) return;
  std::ostringstream line;
  line << "reconfigurations: " << run.reconfigurations << " (" << run.replacement
       << (run.caching ? "" : ", no caching")
       << "); the fewest any replacement could have needed: " << run.reconfigurations_optimal
       << (run.optimal_exact ? " (Belady's MIN)" : " (MIN's rule; slots differ: not a bound)");
  if (prefetches >= 0) line << "; besides, " << prefetches << " prefetches (" << useful << " useful)";
  summary.replacement = line.str();
}

// The run's energy, its mean power and the requests' share.
void add_energy(const RunRecord& run, RunSummary& summary) {
  const double total_mj = find_stat(*run.stats, "energy", "total_mj").value_or(0);
  const double floor_mj = find_stat(*run.stats, "energy", "floor_mj").value_or(0);
  const double requests_mj = run.log->energy_nj().value_or(0) * 1e-6;
  const double mean_mw = run.end_ms > 0 ? total_mj / run.end_ms * 1e3 : 0.0;
  char mean[64];
  if (mean_mw >= 1e4) {
    std::snprintf(mean, sizeof mean, "%.4g W", mean_mw * 1e-3);
  } else {
    std::snprintf(mean, sizeof mean, "%.4g mW", mean_mw);
  }
  summary.energy = "energy: " + energy_text(total_mj) + " (mean " + mean + "): " + energy_text(floor_mj) +
                   " with nothing busy, " + energy_text(total_mj - floor_mj) +
                   " working, of which the requests " + energy_text(requests_mj);
  summary.metrics.insert(
      summary.metrics.end(),
      {{"energy_mj", total_mj},
       {"energy_per_request_uj",
        summary.requests ? requests_mj * 1e3 / static_cast<double>(summary.requests) : 0.0}});
}

// The table by functionality and decision, and its figures as metrics.
void add_table(const RunRecord& run, RunSummary& summary) {
  std::ostringstream t;
  t << "functionality  decision   count  failed  latency_mean_ms  throughput_kBps\n";
  for (const auto& r : run.log->summary()) {
    char line[160];
    std::snprintf(line, sizeof line, "%-14s %-10s %5llu  %6llu  %15.3f  %15.1f\n", r.functionality.c_str(),
                  r.decision.c_str(), static_cast<unsigned long long>(r.count),
                  static_cast<unsigned long long>(r.failed), r.latency_mean_ms, r.throughput_kBps);
    t << line;
    const std::string group = r.functionality + "." + r.decision + ".";
    summary.metrics.insert(summary.metrics.end(),
                           {{group + "count", static_cast<double>(r.count)},
                            {group + "failed", static_cast<double>(r.failed)},
                            {group + "blocks", static_cast<double>(r.blocks)},
                            {group + "reconfigurations", static_cast<double>(r.reconfigurations)},
                            {group + "latency_mean_ms", r.latency_mean_ms},
                            {group + "latency_p50_ms", r.latency_p50_ms},
                            {group + "latency_p99_ms", r.latency_p99_ms},
                            {group + "throughput_kBps", r.throughput_kBps}});
    if (r.energy_mean_uj) summary.metrics.emplace_back(group + "energy_mean_uj", *r.energy_mean_uj);
  }
  summary.table = t.str();
  summary.rows = run.log->summary();
}

// Requests recovered, failed and wrong unnoticed (after the first four metrics).
void add_faults(const RunRecord& run, RunSummary& summary) {
  const RequestLog& log = *run.log;
  const double share = summary.requests ? static_cast<double>(log.wrong_outputs()) / summary.requests : 0.0;
  char line[256];
  std::snprintf(line, sizeof line,
                "faults: %llu %s recovered, %llu failed, %llu delivered wrong output unnoticed (%.2f %%)",
                static_cast<unsigned long long>(log.recovered()),
                log.recovered() == 1 ? "request" : "requests",
                static_cast<unsigned long long>(summary.failed),
                static_cast<unsigned long long>(log.wrong_outputs()), share * 100.0);
  summary.faults = line;
  summary.metrics.insert(summary.metrics.begin() + 4,
                         {{"recovered", static_cast<double>(log.recovered())},
                          {"silent_corruptions", static_cast<double>(log.wrong_outputs())},
                          {"silent_share", share}});
}

}  // namespace

RunSummary summarise(const RunRecord& run) {
  RunSummary summary;
  summary.requests = run.log->completed() + run.log->failed();
  summary.failed = run.log->failed();
  summary.simulated_ms = run.end_ms;
  summary.requests_per_s = run.end_ms > 0 ? static_cast<double>(summary.requests) / (run.end_ms / 1e3) : 0;
  summary.metrics = {{"requests", static_cast<double>(summary.requests)},
                     {"failed", static_cast<double>(summary.failed)},
                     {"simulated_ms", run.end_ms},
                     {"requests_per_s", summary.requests_per_s}};
  add_replacement(run, summary);
  if (run.energy) add_energy(run, summary);
  add_table(run, summary);
  summary.verdict = where_time_went(*run.stats, *run.totals);
  if (run.faults) add_faults(run, summary);
  return summary;
}

}  // namespace rsoc::analysis
