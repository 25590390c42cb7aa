#include "analysis/breakdown.h"

#include <cstdio>
#include <stdexcept>

namespace rsoc::analysis {

using runtime::kRequestTimeUses;

namespace {
// How each part is named: its breakdown.csv column (and stats.json stat, with _ms or _share), and in words.
struct TimeUseNames {
  const char* column;  // without the unit: "cpu_compute"
  const char* label;   // "CPU compute"
};
const TimeUseNames kNames[kRequestTimeUses] = {
    {"cpu_compute", "CPU compute"},      {"cpu_io", "CPU I/O"},
    {"cpu_wait", "waiting for the CPU"}, {"bus_transfer", "bus transfers"},
    {"slot_wait", "waiting for a slot"}, {"reconfig", "reconfiguration"},
    {"core_compute", "core compute"},    {"host", "host"},
    {"recovery", "fault recovery"},
};
const char* const kDescriptions[kRequestTimeUses] = {
    "the requesting processes computing on the CPU (software, driver and poll-loop cycles)",
    "the CPU stalled on the requests' own device accesses (MMIO, NWAIT polls, byte swaps), not waiting for a "
    "core",
    "waiting for the CPU: queued before the start, preempted, yielding, context switches",
    "DMA engines moving the requests' data while their processes sleep",
    "waiting for a slot, the configuration port or a shared DMA engine",
    "configuring slots",
    "waiting for cores to finish (status reads that found them busy, DMA transfers waiting for them)",
    "the requesters' own work outside the SoC (HSM clients: host software, framing, the serial link's "
    "driver)",
    "recovering from injected faults: failed configuration attempts, work done again",
};
}  // namespace

void BreakdownLog::open_csv(const std::string& path) {
  file_ = std::make_unique<OutputFile>(path);
  std::vector<std::string> columns{"id", "app", "functionality", "blocks", "bytes", "decision", "latency_ms"};
  for (const auto& n : kNames) columns.push_back(std::string(n.column) + "_ms");
  columns.push_back("reconfig_hidden_ms");  // not a part of the latency: what a prefetch hid from it
  for (const char* c : {"rsoc_version", "scenario_sha256", "seed"}) columns.push_back(c);
  csv_ = std::make_unique<CsvWriter>(*file_, std::move(columns));
}

void BreakdownLog::add(const runtime::RequestRecord& r) {
  const std::uint64_t latency = r.end_ps - r.issue_ps;
  for (std::size_t i = 0; i < kRequestTimeUses; ++i) totals_.ps[i] += r.breakdown.ps[i];
  latency_total_ps_ += latency;
  if (held_ps_.size() < r.held_ps.size()) held_ps_.resize(r.held_ps.size());
  for (std::size_t t = 0; t < r.held_ps.size(); ++t) held_ps_[t] += r.held_ps[t];
  if (!csv_) return;
  csv_->cell(r.id).cell(r.app).cell(r.functionality).cell(r.blocks).cell(r.bytes).cell(r.decision);
  csv_->cell(exact_ms(latency));
  for (std::uint64_t part : r.breakdown.ps) csv_->cell(exact_ms(part));
  csv_->cell(exact_ms(r.reconfig_hidden_ps));
  csv_->cell(provenance_.version).cell(provenance_.scenario_sha256).cell(provenance_.seed);
  csv_->end_row();
}

void BreakdownLog::close_csv() {
  if (!csv_) return;
  csv_.reset();
  file_->close();
}

StatGroup BreakdownLog::stats() const {
  StatGroup g{"latency", "latency_breakdown", {}};
  const double all = static_cast<double>(latency_total_ps_);
  g.add("requests_ms", static_cast<double>(latency_total_ps_) * 1e-9, "ms",
        "latency summed over all requests (issue to end)");
  for (std::size_t i = 0; i < kRequestTimeUses; ++i)
    g.add(std::string(kNames[i].column) + "_ms", static_cast<double>(totals_.ps[i]) * 1e-9, "ms",
          std::string("summed over all requests: ") + kDescriptions[i]);
  for (std::size_t i = 0; i < kRequestTimeUses; ++i)
    g.add(std::string(kNames[i].column) + "_share", all > 0 ? static_cast<double>(totals_.ps[i]) / all : 0.0,
          "ratio", std::string("share of all request time: ") + kNames[i].label);
  return g;
}

std::vector<StatGroup> BreakdownLog::cpu_stats(
    const std::vector<std::pair<std::string, unsigned>>& cpus) const {
  std::vector<StatGroup> out;
  const double all = static_cast<double>(latency_total_ps_);
  std::size_t t = 0;
  for (const auto& [name, threads] : cpus) {
    std::uint64_t held = 0;
    for (unsigned i = 0; i < threads; ++i, ++t)
      if (t < held_ps_.size()) held += held_ps_[t];
    StatGroup g{"latency." + name, "latency_cpu", {}};
    g.add(
         "held_ms", static_cast<double>(held) * 1e-9, "ms",
         "summed over all requests: time their processes held this CPU's hardware threads (computing, device "
         "accesses, status reads)")
        .add("held_share", all > 0 ? static_cast<double>(held) / all : 0.0, "ratio",
             "share of all request time the requests held this CPU");
    out.push_back(g);
  }
  return out;
}

std::optional<Busiest> busiest_resource(const std::vector<StatGroup>& groups) {
  std::optional<Busiest> best;
  for (const auto& g : groups) {
    if (g.kind == "scheduler") continue;
    for (const auto& s : g.stats)
      if ((s.name == "utilization" || s.name == "core_utilization") && (!best || s.value > best->utilization))
        best = Busiest{g.resource, s.value};
  }
  return best;
}

std::string where_time_went(const std::vector<StatGroup>& groups, const runtime::LatencyBreakdown& totals) {
  std::string line = "busiest resource: ";
  char number[64];
  if (const auto busiest = busiest_resource(groups)) {
    std::snprintf(number, sizeof number, " (%.1f %% busy)", busiest->utilization * 100.0);
    line += busiest->resource + number;
    std::string cpus;
    std::size_t n = 0;
    for (const auto& g : groups) {
      if (g.kind != "cpu") continue;
      for (const auto& s : g.stats)
        if (s.name == "utilization") {
          std::snprintf(number, sizeof number, " %.1f %%", s.value * 100.0);
          cpus += (n++ ? ", " : "") + g.resource + number;
        }
    }
    if (n > 1) line.insert(line.size() - 1, "; CPUs " + cpus);
  } else {
    line += "none (no resource reports a utilization)";
  }
  line += "; largest share of latency: ";
  const std::uint64_t all = totals.total();
  if (all == 0) return line + "none (no request time)";
  std::size_t largest = 0;
  for (std::size_t i = 1; i < kRequestTimeUses; ++i)
    if (totals.ps[i] > totals.ps[largest]) largest = i;
  std::snprintf(number, sizeof number, " (%.1f %% of all request time)",
                static_cast<double>(totals.ps[largest]) / static_cast<double>(all) * 100.0);
  return line + kNames[largest].label + number;
}

}  // namespace rsoc::analysis
