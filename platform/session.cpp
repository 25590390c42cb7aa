#include "platform/session.h"

#include <chrono>
#include <fstream>
#include <sstream>
#include <systemc>

#include "analysis/breakdown.h"
#include "analysis/output_dir.h"
#include "analysis/request_log.h"
#include "analysis/stats.h"
#include "platform/simulation.h"
#include "rsoc/version.h"

namespace rsoc::platform {

namespace {

double ms(const sc_core::sc_time& t) {
  return t.to_seconds() * 1e3;
}

void write_json(const std::filesystem::path& path, const nlohmann::json& doc) {
  std::ofstream out(path);
  out << doc.dump(2) << '\n';
  if (!out) throw analysis::OutputDirError(path.string() + ": write failed");
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

  Simulation sim(p, [&log, &breakdown](const runtime::RequestRecord& r) {
    log.add(r);
    breakdown.add(r);
  });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();

  const double end_ms = ms(sc_core::sc_time_stamp());
  log.write_summary(out.file("summary.csv").string());
  breakdown.close_csv();
  std::vector<analysis::StatGroup> stats = sim.stats(end_ms);
  stats.push_back(breakdown.stats());
  if (p.stats_json) write_json(out.file("stats.json"), analysis::stats_json(stats, end_ms, provenance));

  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  nlohmann::json host;
  host["wall_seconds"] = wall_s;
  host["rsoc_version"] = kVersion;
  host["systemc_version"] = sc_core::sc_version();
  host["scenario_file"] = scenario.file;
  write_json(out.file("host.json"), host);
  out.commit();

  RunSummary summary;
  summary.requests = log.completed() + log.failed();
  summary.failed = log.failed();
  summary.simulated_ms = end_ms;
  std::ostringstream t;
  t << "functionality  decision   count  failed  latency_mean_ms  throughput_kBps\n";
  for (const auto& [key, g] : log.groups()) {
    char line[160];
    std::snprintf(line, sizeof line, "%-14s %-10s %5llu  %6llu  %15.3f  %15.1f\n", key.first.c_str(),
                  key.second.c_str(), static_cast<unsigned long long>(g.count),
                  static_cast<unsigned long long>(g.failed),
                  analysis::ps_to_ms(g.latency_total_ps) / static_cast<double>(g.count),
                  g.latency_total_ps
                      ? static_cast<double>(g.bytes) / (static_cast<double>(g.latency_total_ps) * 1e-12) / 1e3
                      : 0.0);
    t << line;
  }
  summary.table = t.str();
  summary.verdict = analysis::where_time_went(stats, breakdown.totals());
  return summary;
}

}  // namespace rsoc::platform
