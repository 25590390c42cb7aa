#include "platform/session.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <systemc>

#include "analysis/breakdown.h"
#include "analysis/json_numbers.h"
#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "analysis/request_log.h"
#include "analysis/stats.h"
#include "models/kernel_time.h"
#include "platform/interrupt.h"
#include "platform/log.h"
#include "platform/scenario_error.h"
#include "platform/simulation.h"
#include "platform/timeline.h"
#include "rsoc/version.h"

namespace rsoc::platform {

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

void write_json(const std::filesystem::path& path, nlohmann::json doc) {
  analysis::round_floats(doc);
  analysis::write_text_file(path, doc.dump(2) + "\n");
}

}  // namespace

RunSummary run_session(const Scenario& scenario, const std::filesystem::path& out_path) {
  const auto wall_start = std::chrono::steady_clock::now();
  const ScenarioParams& p = scenario.params;
  analysis::OutputDir out(out_path);
  const analysis::Provenance provenance{kVersion, scenario.sha256, p.seed};
  write_json(out.file("resolved_scenario.json"), scenario.resolved);

  analysis::RequestLog log(provenance);
  if (p.requests_csv) log.open_csv(out.file("requests.csv").string());
  analysis::BreakdownLog breakdown(provenance);
  if (p.breakdown_csv) breakdown.open_csv(out.file("breakdown.csv").string());

  std::unique_ptr<Timeline> timeline;  // outputs.trace, outputs.vcd: outlives the simulation reporting to it
  Simulation sim(p, [&log, &breakdown, &timeline](const runtime::RequestRecord& r) {
    log.add(r);
    breakdown.add(r);
    if (timeline) timeline->request(r);
  });
  if (p.trace || p.vcd) timeline = std::make_unique<Timeline>(p, sim, out, provenance);
  sim.spawn_background();
  sim.spawn_apps();
  // A long run says how far it is, on a terminal (unless quiet): requests done of those the workload issues
  // (when it says how many) and the time left at the pace so far.
  std::uint64_t expected = p.hsm ? p.hsm->params.clients * p.hsm->params.signatures_per_client : 0;
  for (const auto& app : p.apps) expected += app.requests;
  if (std::any_of(p.apps.begin(), p.apps.end(), [](const AppSpec& a) { return a.duration.has_value(); }))
    expected = 0;
  const bool tty = ::isatty(STDERR_FILENO) != 0 && logging::notes();
  bool progressed = false;
  sim.run([&](const sc_core::sc_time& now) {
    if (!tty) return;
    const std::uint64_t done = log.completed() + log.failed();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    char line[160];
    if (expected > 0 && done > 0) {
      std::snprintf(
          line, sizeof line, "\rrsoc: %.3f s simulated, %llu of %llu requests, about %.0f s left ",
          now.to_seconds(), static_cast<unsigned long long>(done), static_cast<unsigned long long>(expected),
          wall * static_cast<double>(expected - std::min(done, expected)) / static_cast<double>(done));
    } else {
      std::snprintf(line, sizeof line, "\rrsoc: %.3f s simulated, %llu requests ", now.to_seconds(),
                    static_cast<unsigned long long>(done));
    }
    std::fputs(line, stderr);
    progressed = true;
  });
  if (progressed) std::fputs("\n", stderr);
  if (timeline)
    for (const std::string& warning : timeline->finish())
      logging::note() << "rsoc: warning: " << warning << std::endl;

  const double end_ms = models::to_ms(sc_core::sc_time_stamp());
  log.close_csv();
  log.write_summary(out.file("summary.csv").string());
  breakdown.close_csv();
  std::vector<analysis::StatGroup> stats = sim.stats(end_ms);
  stats.push_back(breakdown.stats());
  {
    std::vector<std::pair<std::string, unsigned>> cpus;
    for (const auto& c : p.cpus) cpus.emplace_back(c.name, c.params.hw_threads);
    for (auto& g : breakdown.cpu_stats(cpus)) stats.push_back(std::move(g));
  }
  if (p.stats_json) write_json(out.file("stats.json"), analysis::stats_json(stats, end_ms, provenance));

  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  nlohmann::json host;
  host["wall_seconds"] = wall_s;
  host["rsoc_version"] = kVersion;
  host["systemc_version"] = sc_core::sc_version();
  host["scenario_file"] = printable_text(scenario.file);
  write_json(out.file("host.json"), host);
  throw_if_interrupted();
  if (const std::string gone = out.commit(); !gone.empty()) logging::note() << "rsoc: " << gone << "\n";

  RunSummary summary;
  summary.requests = log.completed() + log.failed();
  summary.failed = log.failed();
  summary.simulated_ms = end_ms;
  summary.requests_per_s = end_ms > 0 ? static_cast<double>(summary.requests) / (end_ms / 1e3) : 0;
  summary.metrics = {{"requests", static_cast<double>(summary.requests)},
                     {"failed", static_cast<double>(summary.failed)},
                     {"simulated_ms", end_ms},
                     {"requests_per_s", summary.requests_per_s}};
  // The replacement policy's configurations against the optimal bound.
  const runtime::Manager& manager = sim.manager();
  const runtime::OptimalReplacement optimal = manager.slots().optimal_replacement();
  summary.metrics.insert(summary.metrics.end(),
                         {{"reconfigurations", static_cast<double>(manager.slots().cache_misses())},
                          {"reconfigurations_optimal", static_cast<double>(optimal.configurations)}});
  // Prefetches configure slots too, outside the requests' count (none without a predictor).
  const double prefetches = analysis::find_stat(stats, "manager", "prefetches").value_or(-1);
  const double useful = analysis::find_stat(stats, "manager", "prefetches_useful").value_or(0);
  summary.metrics.insert(
      summary.metrics.end(),
      {{"prefetches", std::max(prefetches, 0.0)},
       {"prefetches_useful", useful},
       {"reconfiguration_hidden_ms",
        analysis::find_stat(stats, "manager", "reconfiguration_hidden_ms").value_or(0)}});
  if (manager.slots().cache_misses() > 0 || prefetches > 0) {
    std::ostringstream line;
    line << "reconfigurations: " << manager.slots().cache_misses() << " ("
         << runtime::kReplacementNames.name(p.runtime.replacement)
         << (p.runtime.caching ? "" : ", no caching")
         << "); the fewest any replacement could have needed: " << optimal.configurations
         << (optimal.exact ? " (Belady's MIN)" : " (MIN's rule; slots differ: not a bound)");
    if (prefetches >= 0) line << "; besides, " << prefetches << " prefetches (" << useful << " useful)";
    summary.replacement = line.str();
  }
  if (p.energy) {
    const double total_mj = analysis::find_stat(stats, "energy", "total_mj").value_or(0);
    const double floor_mj = analysis::find_stat(stats, "energy", "floor_mj").value_or(0);
    const double requests_mj = log.energy_nj().value_or(0) * 1e-6;
    const double mean_mw = end_ms > 0 ? total_mj / end_ms * 1e3 : 0.0;
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
  std::ostringstream t;
  t << "functionality  decision   count  failed  latency_mean_ms  throughput_kBps\n";
  for (const auto& r : log.summary()) {
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
  summary.rows = log.summary();
  summary.verdict = analysis::where_time_went(stats, breakdown.totals());
  if (p.faults) {
    const double share = summary.requests ? static_cast<double>(log.wrong_outputs()) / summary.requests : 0.0;
    char line[256];
    std::snprintf(
        line, sizeof line,
        "faults: %llu %s recovered, %llu failed, %llu delivered wrong output unnoticed (%.2f %%)",
        static_cast<unsigned long long>(log.recovered()), log.recovered() == 1 ? "request" : "requests",
        static_cast<unsigned long long>(summary.failed),
        static_cast<unsigned long long>(log.wrong_outputs()), share * 100.0);
    summary.faults = line;
    summary.metrics.insert(summary.metrics.begin() + 4,
                           {{"recovered", static_cast<double>(log.recovered())},
                            {"silent_corruptions", static_cast<double>(log.wrong_outputs())},
                            {"silent_share", share}});
  }
  return summary;
}

}  // namespace rsoc::platform
