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

namespace {

void write_json(const std::filesystem::path& path, nlohmann::json doc) {
  analysis::round_floats(doc);
  analysis::write_text_file(path, doc.dump(2) + "\n");
}

// What the run records as it goes: every request into requests.csv and breakdown.csv (when the scenario's
// outputs ask), and the trace and the VCD.
struct Records {
  Records(const ScenarioParams& p, analysis::OutputDir& out, const analysis::Provenance& provenance)
      : log(provenance), breakdown(provenance) {
    if (p.requests_csv) log.open_csv(out.file("requests.csv").string());
    if (p.breakdown_csv) breakdown.open_csv(out.file("breakdown.csv").string());
  }
  void add(const runtime::RequestRecord& r) {
    log.add(r);
    breakdown.add(r);
    if (timeline) timeline->request(r);
  }
  analysis::RequestLog log;
  analysis::BreakdownLog breakdown;
  std::unique_ptr<Timeline> timeline;  // outputs.trace, outputs.vcd: outlives the simulation reporting to it
};

// Runs the simulation to its end. A long run says how far it is, on a terminal (unless quiet): requests done
// of those the workload issues (when it says how many) and the time left at the pace so far.
void simulate(Simulation& sim, const ScenarioParams& p, const Records& records,
              std::chrono::steady_clock::time_point wall_start) {
  sim.spawn_background();
  sim.spawn_apps();
  std::uint64_t expected = p.hsm ? p.hsm->params.clients * p.hsm->params.signatures_per_client : 0;
  for (const auto& app : p.apps) expected += app.requests;
  if (std::any_of(p.apps.begin(), p.apps.end(), [](const AppSpec& a) { return a.duration.has_value(); }))
    expected = 0;
  const bool tty = ::isatty(STDERR_FILENO) != 0 && logging::notes();
  bool progressed = false;
  sim.run([&](const sc_core::sc_time& now) {
    if (!tty) return;
    const std::uint64_t done = records.log.completed() + records.log.failed();
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
}

// Closes the records and writes summary.csv and stats.json; returns every statistics group.
std::vector<analysis::StatGroup> collect(Simulation& sim, const ScenarioParams& p, Records& records,
                                         analysis::OutputDir& out, const analysis::Provenance& provenance,
                                         double end_ms) {
  if (records.timeline)
    for (const std::string& warning : records.timeline->finish())
      logging::note() << "rsoc: warning: " << warning << std::endl;
  records.log.close_csv();
  records.log.write_summary(out.file("summary.csv").string());
  records.breakdown.close_csv();
  std::vector<analysis::StatGroup> stats = sim.stats(end_ms);
  stats.push_back(records.breakdown.stats());
  std::vector<std::pair<std::string, unsigned>> cpus;
  for (const auto& c : p.cpus) cpus.emplace_back(c.name, c.params.hw_threads);
  for (auto& g : records.breakdown.cpu_stats(cpus)) stats.push_back(std::move(g));
  if (p.stats_json) write_json(out.file("stats.json"), analysis::stats_json(stats, end_ms, provenance));
  return stats;
}

}  // namespace

RunSummary run_session(const Scenario& scenario, const std::filesystem::path& out_path) {
  const auto wall_start = std::chrono::steady_clock::now();
  const ScenarioParams& p = scenario.params;
  analysis::OutputDir out(out_path);
  const analysis::Provenance provenance{kVersion, scenario.sha256, p.seed};
  write_json(out.file("resolved_scenario.json"), scenario.resolved);
  Records records(p, out, provenance);
  Simulation sim(p, [&records](const runtime::RequestRecord& r) { records.add(r); });
  if (p.trace || p.vcd) records.timeline = std::make_unique<Timeline>(p, sim, out, provenance);
  simulate(sim, p, records, wall_start);
  const double end_ms = models::to_ms(sc_core::sc_time_stamp());
  const std::vector<analysis::StatGroup> stats = collect(sim, p, records, out, provenance, end_ms);

  nlohmann::json host;
  host["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  host["rsoc_version"] = kVersion;
  host["systemc_version"] = sc_core::sc_version();
  host["scenario_file"] = printable_text(scenario.file);
  write_json(out.file("host.json"), host);
  throw_if_interrupted();
  if (const std::string gone = out.commit(); !gone.empty()) logging::note() << "rsoc: " << gone << "\n";

  const runtime::SlotBroker& slots = sim.manager().slots();
  const runtime::OptimalReplacement optimal = slots.optimal_replacement();
  analysis::RunRecord run;
  run.end_ms = end_ms;
  run.log = &records.log;
  run.stats = &stats;
  run.totals = &records.breakdown.totals();
  run.reconfigurations = slots.cache_misses();
  run.reconfigurations_optimal = optimal.configurations;
  run.optimal_exact = optimal.exact;
  run.replacement = runtime::kReplacementNames.name(p.runtime.replacement);
  run.caching = p.runtime.caching;
  run.energy = p.energy.has_value();
  run.faults = p.faults.has_value();
  return analysis::summarise(run);
}

}  // namespace rsoc::platform
