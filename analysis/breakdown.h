#pragma once
// Where the time went. breakdown.csv: one row per request, its latency (issue to end, as requests.csv) split
// into the TimeUse parts the runtime attributed (rules: class Process in runtime/scheduler.h, and
// scenarios/README.md), each an exact decimal of milliseconds (9 decimals: whole picoseconds), so the parts
// of a row sum to its latency_ms exactly. The totals over all requests become the stats.json group `latency`.
// where_time_went() is the line `rsoc run` ends with: the busiest resource and the largest share of latency.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/csv.h"
#include "analysis/output_file.h"
#include "analysis/provenance.h"
#include "analysis/stats.h"
#include "runtime/request_record.h"

namespace rsoc::analysis {

class BreakdownLog {
 public:
  explicit BreakdownLog(Provenance provenance) : provenance_(std::move(provenance)) {}
  // Streams rows to `path` (optional: without it only the totals are kept).
  void open_csv(const std::string& path);
  void add(const runtime::RequestRecord& record);
  // Closes the CSV; throws OutputDirError when any row could not be written.
  void close_csv();

  // Sums over every request added.
  const runtime::LatencyBreakdown& totals() const { return totals_; }
  std::uint64_t latency_total_ps() const { return latency_total_ps_; }
  // The totals as the stats.json group "latency": <part>_ms and <part>_share of all request time.
  StatGroup stats() const;
  // Per CPU, the time the requests' processes held its hardware threads (RequestRecord::held_ps), as the
  // stats.json groups "latency.<cpu>": held_ms and held_share of all request time. `cpus`: each CPU's name
  // and hardware threads, in the order of the OS scheduler's threads.
  std::vector<StatGroup> cpu_stats(const std::vector<std::pair<std::string, unsigned>>& cpus) const;

 private:
  Provenance provenance_;
  std::unique_ptr<OutputFile> file_;
  std::unique_ptr<CsvWriter> csv_;
  runtime::LatencyBreakdown totals_;
  std::uint64_t latency_total_ps_ = 0;
  std::vector<std::uint64_t> held_ps_;  // by scheduler thread, summed over the requests
};

struct Busiest {
  std::string resource;
  double utilization = 0;  // ratio
};
// The resource with the highest utilization: a group's `utilization` stat (CPU threads, buses, DMA engines,
// the configuration port) or `core_utilization` (slots). Scheduler groups restate their CPU thread's time as
// the OS sees it and are left out. On a tie, the first in `groups` (stats.json order) wins. Nothing when no
// group has a utilization.
std::optional<Busiest> busiest_resource(const std::vector<StatGroup>& groups);

// "busiest resource: cpu.thread0 (87.3 % busy); largest share of latency: reconfiguration (61.2 % of all
// request time)". The largest part is the first of equals in column order. With several CPUs (groups of kind
// "cpu"), each CPU's utilization follows the busiest resource: "busiest resource: b.thread0 (99.0 % busy;
// CPUs a 50.0 %, b 99.0 %); ...".
std::string where_time_went(const std::vector<StatGroup>& groups, const runtime::LatencyBreakdown& totals);

}  // namespace rsoc::analysis
