#pragma once
// Request results: requests.csv streamed as requests complete (one row each), and the per-functionality and
// per-decision summary (summary.csv), which keeps each distinct latency once, with its count, for exact
// percentiles.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/csv.h"
#include "analysis/output_file.h"
#include "analysis/provenance.h"
#include "runtime/request_record.h"

namespace rsoc::analysis {

inline double ps_to_ms(std::uint64_t ps) {
  return static_cast<double>(ps) * 1e-9;
}

// Latencies as sorted (value, count) pairs: exact nearest-rank percentiles in memory that grows with the
// distinct values, not with the requests (simulated latencies repeat: the reference workload's million
// requests have a few dozen per group). New values wait in a small buffer, merged when it fills.
class LatencyCounts {
 public:
  void add(std::uint64_t ps);
  std::uint64_t count() const { return count_; }
  // Nearest rank: the smallest latency with at least p % of the requests at or below it (0 when empty).
  std::uint64_t percentile(double p) const;
  std::size_t distinct() const;  // values held (after a merge)

 private:
  static constexpr std::size_t kBuffer = 4096;
  void merge() const;
  mutable std::vector<std::pair<std::uint64_t, std::uint64_t>> counts_;  // sorted by value
  mutable std::vector<std::uint64_t> pending_;
  std::uint64_t count_ = 0;
};

class RequestLog {
 public:
  RequestLog(Provenance provenance) : provenance_(std::move(provenance)) {}
  // Streams rows to `path` (optional: without it only the summary is kept).
  void open_csv(const std::string& path);
  void add(const runtime::RequestRecord& record);
  // Closes the CSV; throws OutputDirError when any row could not be written.
  void close_csv();
  void write_summary(const std::string& path) const;
  std::uint64_t completed() const { return completed_; }
  std::uint64_t failed() const { return failed_; }
  std::uint64_t recovered() const { return recovered_; }          // completed after faults
  std::uint64_t wrong_outputs() const { return wrong_outputs_; }  // silent data corruption
  // What the requests spent, summed (with an energy model).
  std::optional<double> energy_nj() const { return energy_nj_; }

  struct Group {
    std::uint64_t count = 0, failed = 0, blocks = 0, bytes = 0, reconfigurations = 0;
    LatencyCounts latency_ps;
    std::uint64_t latency_total_ps = 0;
    std::optional<double> energy_total_nj;  // with an energy model
  };
  const std::map<std::pair<std::string, std::string>, Group>& groups() const { return groups_; }

  // One line of summary.csv: a (functionality, decision) group with its latency statistics.
  struct SummaryRow {
    std::string functionality, decision;
    std::uint64_t count = 0, failed = 0, blocks = 0, bytes = 0, reconfigurations = 0;
    double latency_mean_ms = 0, latency_p50_ms = 0, latency_p99_ms = 0, throughput_kBps = 0;
    std::optional<double> energy_mean_uj;  // what a request spent, on average (with an energy model)
  };
  std::vector<SummaryRow> summary() const;

 private:
  Provenance provenance_;
  std::unique_ptr<OutputFile> file_;
  std::unique_ptr<CsvWriter> csv_;
  std::map<std::pair<std::string, std::string>, Group> groups_;  // (functionality, decision)
  std::uint64_t completed_ = 0, failed_ = 0, recovered_ = 0, wrong_outputs_ = 0;
  std::optional<double> energy_nj_;
};

}  // namespace rsoc::analysis
