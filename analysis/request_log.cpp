#include "analysis/request_log.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rsoc::analysis {

namespace {
double kbps(std::uint64_t bytes, std::uint64_t ps) {
  return ps == 0 ? 0.0 : static_cast<double>(bytes) / (static_cast<double>(ps) * 1e-12) / 1000.0;
}
}  // namespace

void LatencyCounts::add(std::uint64_t ps) {
  ++count_;
  pending_.push_back(ps);
  if (pending_.size() >= kBuffer) merge();
}

void LatencyCounts::merge() const {
  if (pending_.empty()) return;
  std::sort(pending_.begin(), pending_.end());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> merged;
  merged.reserve(counts_.size() + pending_.size());
  auto held = counts_.begin();
  auto put = [&](std::uint64_t value, std::uint64_t n) {
    if (!merged.empty() && merged.back().first == value)
      merged.back().second += n;
    else
      merged.emplace_back(value, n);
  };
  for (const std::uint64_t v : pending_) {
    for (; held != counts_.end() && held->first <= v; ++held) put(held->first, held->second);
    put(v, 1);
  }
  for (; held != counts_.end(); ++held) put(held->first, held->second);
  merged.shrink_to_fit();
  counts_.swap(merged);
  pending_.clear();
}

std::size_t LatencyCounts::distinct() const {
  merge();
  return counts_.size();
}

std::uint64_t LatencyCounts::percentile(double p) const {
  if (count_ == 0) return 0;
  merge();
  const auto rank = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(p / 100.0 * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (const auto& [value, n] : counts_) {
    seen += n;
    if (seen >= rank) return value;
  }
  return counts_.back().first;
}

void RequestLog::open_csv(const std::string& path) {
  file_ = std::make_unique<OutputFile>(path);
  csv_ = std::make_unique<CsvWriter>(*file_, std::vector<std::string>{"id",
                                                                      "app",
                                                                      "functionality",
                                                                      "blocks",
                                                                      "bytes",
                                                                      "decision",
                                                                      "reason",
                                                                      "slot",
                                                                      "reconfigured",
                                                                      "reconfig_ms",
                                                                      "queue_ms",
                                                                      "exec_ms",
                                                                      "latency_ms",
                                                                      "throughput_kBps",
                                                                      "start_ms",
                                                                      "end_ms",
                                                                      "ok",
                                                                      "error",
                                                                      "verified",
                                                                      "outcome",
                                                                      "faults",
                                                                      "retries",
                                                                      "fallback",
                                                                      "wrong_output",
                                                                      "reconfig_hidden_ms",
                                                                      "energy_uj",
                                                                      "rsoc_version",
                                                                      "scenario_sha256",
                                                                      "seed"});
}

void RequestLog::add(const runtime::RequestRecord& r) {
  const std::uint64_t latency = r.end_ps - r.issue_ps;
  if (csv_) {
    csv_->cell(r.id)
        .cell(r.app)
        .cell(r.functionality)
        .cell(r.blocks)
        .cell(r.bytes)
        .cell(r.decision)
        .cell(r.reason);
    csv_->cell(r.slot).cell(r.reconfigured);
    csv_->cell(ps_to_ms(r.reconfig_ps), 6)
        .cell(ps_to_ms(r.start_ps - r.issue_ps), 6)
        .cell(ps_to_ms(r.exec_ps), 6);
    csv_->cell(ps_to_ms(latency), 6).cell(kbps(r.bytes, latency), 3);
    csv_->cell(ps_to_ms(r.start_ps), 6).cell(ps_to_ms(r.end_ps), 6).cell(r.ok).cell(r.error).cell(r.verified);
    csv_->cell(r.outcome()).cell(r.faults).cell(r.retries).cell(r.fallback).cell(r.wrong_output);
    csv_->cell(ps_to_ms(r.reconfig_hidden_ps), 6);
    if (r.energy) {
      csv_->cell(r.energy->total_nj() * 1e-3, 6);
    } else {
      csv_->cell("");  // no energy model
    }
    csv_->cell(provenance_.version).cell(provenance_.scenario_sha256).cell(provenance_.seed);
    csv_->end_row();
  }
  Group& g = groups_[{r.functionality, r.decision}];
  ++g.count;
  g.blocks += r.blocks;
  g.bytes += r.bytes;
  g.reconfigurations += r.reconfigured ? 1 : 0;
  g.latency_ps.add(latency);
  g.latency_total_ps += latency;
  if (r.energy) {
    g.energy_total_nj = g.energy_total_nj.value_or(0) + r.energy->total_nj();
    energy_nj_ = energy_nj_.value_or(0) + r.energy->total_nj();
  }
  if (r.wrong_output) ++wrong_outputs_;
  if (r.ok && r.faults) ++recovered_;
  if (r.ok) {
    ++completed_;
  } else {
    ++g.failed;
    ++failed_;
  }
}

std::vector<RequestLog::SummaryRow> RequestLog::summary() const {
  std::vector<SummaryRow> rows;
  for (const auto& [key, g] : groups_) {
    SummaryRow r{key.first,          key.second, g.count, g.failed, g.blocks, g.bytes,
                 g.reconfigurations, 0,          0,       0,        0,        {}};
    r.latency_mean_ms = ps_to_ms(g.latency_total_ps) / static_cast<double>(g.count);
    r.latency_p50_ms = ps_to_ms(g.latency_ps.percentile(50));
    r.latency_p99_ms = ps_to_ms(g.latency_ps.percentile(99));
    r.throughput_kBps = kbps(g.bytes, g.latency_total_ps);
    if (g.energy_total_nj) r.energy_mean_uj = *g.energy_total_nj * 1e-3 / static_cast<double>(g.count);
    rows.push_back(r);
  }
  return rows;
}

void RequestLog::close_csv() {
  if (!file_) return;
  csv_.reset();
  file_->close();
}

void RequestLog::write_summary(const std::string& path) const {
  OutputFile out(path);
  CsvWriter csv(out, {"functionality", "decision", "count", "failed", "blocks", "bytes", "reconfigurations",
                      "latency_mean_ms", "latency_p50_ms", "latency_p99_ms", "throughput_kBps",
                      "energy_mean_uj", "rsoc_version", "scenario_sha256", "seed"});
  for (const SummaryRow& r : summary()) {
    csv.cell(r.functionality).cell(r.decision).cell(r.count).cell(r.failed).cell(r.blocks).cell(r.bytes);
    csv.cell(r.reconfigurations);
    csv.cell(r.latency_mean_ms, 6).cell(r.latency_p50_ms, 6).cell(r.latency_p99_ms, 6);
    csv.cell(r.throughput_kBps, 3);
    if (r.energy_mean_uj) {
      csv.cell(*r.energy_mean_uj, 6);
    } else {
      csv.cell("");  // no energy model
    }
    csv.cell(provenance_.version).cell(provenance_.scenario_sha256).cell(provenance_.seed);
    csv.end_row();
  }
  out.close();
}

}  // namespace rsoc::analysis
