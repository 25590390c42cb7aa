#include "platform/crossover.h"

#include <chrono>
#include <random>
#include <sstream>

#include "analysis/csv.h"
#include "analysis/output_file.h"
#include "platform/interrupt.h"
#include "platform/log.h"
#include "platform/scenario_error.h"
#include "platform/schema.h"
#include "platform/simulation.h"
#include "rsoc/version.h"

namespace rsoc::platform {

using runtime::Functionality;

namespace {

double seconds(const runtime::RequestRecord& r) {
  return static_cast<double>(r.end_ps - r.issue_ps) * 1e-12;
}

// The platform's energy serving `r` alone (joules): what it spent, and the floor power over its latency.
std::optional<double> joules(const runtime::RequestRecord& r, const std::optional<EnergySpec>& e) {
  if (!e || !r.energy) return std::nullopt;
  return r.energy->total_nj() * 1e-9 + e->floor_mw() * 1e-3 * seconds(r);
}

}  // namespace

std::vector<Functionality> check_functionalities(const ScenarioParams& p,
                                                 const std::vector<std::string>& names) {
  std::vector<Functionality> out;
  IssueList issues;
  for (const std::string& name : names) {
    if (const auto f = p.functionalities->find(name))
      out.push_back(*f);
    else
      issues.add(
          ScenarioIssue{"--functionality " + name, "", not_one_of_message(name, p.functionalities->names())});
  }
  issues.throw_if_any();
  return out;
}

CrossoverResult run_crossover(const Scenario& scenario, const CrossoverOptions& options) {
  const ScenarioParams& p = scenario.params;
  const bool all = options.functionalities.empty();
  const std::vector<Functionality> fs =
      all ? p.functionalities->all() : check_functionalities(p, options.functionalities);

  CrossoverResult result;
  Simulation sim(p, nullptr);
  std::vector<Functionality> chosen;
  IssueList issues(scenario.file);
  for (Functionality f : fs) {
    const bool sw = sim.costs().has_software(f), hw = sim.costs().has_hardware(f);
    if (sw && hw) {
      chosen.push_back(f);
    } else if (!all) {
      issues.add("",
                 std::string("crossover of ") + runtime::info(f).name + " needs " +
                     (sw ? "a core that implements it" : "/software/" + std::string(runtime::info(f).name)));
    }
  }
  if (chosen.empty() && issues.empty())
    issues.add("", "no functionality has both a software and a hardware implementation");
  issues.throw_if_any();

  const int priority = p.apps.empty() ? 10 : p.apps.front().priority;
  const std::vector<unsigned> where =
      p.apps.empty() ? std::vector<unsigned>{} : sim.affinity(p.apps.front().placement);
  runtime::Manager& manager = sim.manager();
  sim.spawn_background();
  std::string failure;  // the first request that failed: no table is better than a wrong one
  sim.scheduler().spawn(
      "crossover", priority,
      [&](runtime::Process& proc) {
        std::mt19937_64 rng(p.seed);
        for (Functionality f : chosen) {
          const auto& fi = runtime::info(f);
          const std::uint64_t unit = runtime::unit_bytes(p.runtime.unit_bytes, f);
          std::vector<std::uint8_t> key(fi.key_bytes);
          for (auto& b : key) b = static_cast<std::uint8_t>(rng());
          runtime::shape_key(f, key);
          for (std::uint64_t n = 1; n <= options.max_blocks && failure.empty(); ++n) {
            std::vector<std::uint8_t> data(n * unit);
            runtime::draw_data(rng(), data);
            runtime::shape_data(f, data);
            CrossoverRow row{f, n, unit, 0, 0, 0, std::nullopt, std::nullopt, std::nullopt};
            auto measure = [&](bool hardware, const char* mode, double& s, std::optional<double>& j) {
              const auto record =
                  manager.request(proc, "crossover", f, key, data, true, std::nullopt, hardware).record;
              if (!record.ok && failure.empty())
                failure = std::string(fi.name) + ", " + std::to_string(n) + " blocks, " + mode + ": " +
                          record.error;
              s = seconds(record);
              j = joules(record, p.energy);
            };
            measure(false, "software", row.sw_s, row.sw_j);
            manager.unload_idle();
            measure(true, "hardware with reconfiguration", row.hw_cold_s, row.hw_cold_j);
            measure(true, "hardware cached", row.hw_cached_s, row.hw_cached_j);
            result.rows.push_back(row);
            result.experiments += 3;
            result.blocks += 3 * n;
            result.cipher_blocks += 3 * n * (unit / fi.block_bytes);
          }
        }
        sim.finish();
      },
      sc_core::SC_ZERO_TIME, where);
  const auto t0 = std::chrono::steady_clock::now();
  sim.run();
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.simulated_s = sc_core::sc_time_stamp().to_seconds();
  result.energy = p.energy.has_value();
  if (!failure.empty()) throw SimulationError("crossover experiment failed (" + failure + ")");
  for (Functionality f : chosen) {
    CrossoverSummary s{f, std::nullopt, sim.costs().crossover_blocks(f, options.max_blocks), std::nullopt};
    for (const auto& row : result.rows) {
      if (row.functionality != f) continue;
      if (!s.simulated && row.hw_cold_s < row.sw_s) s.simulated = row.blocks;
      if (!s.energy && row.hw_cold_j && *row.hw_cold_j < *row.sw_j) s.energy = row.blocks;
    }
    result.summary.push_back(s);
  }
  return result;
}

std::string crossover_table(const CrossoverResult& result) {
  std::ostringstream t;
  auto text = [](const std::optional<std::uint64_t>& v) {
    return v ? std::to_string(*v) : std::string("none");
  };
  t << "functionality  crossover_blocks  analytic_crossover_blocks"
    << (result.energy ? "  energy_crossover_blocks" : "") << "\n";
  for (const auto& s : result.summary) {
    char line[160];
    std::snprintf(line, sizeof line, "%-14s %16s  %25s", runtime::info(s.functionality).name,
                  text(s.simulated).c_str(), text(s.analytic).c_str());
    t << line;
    if (result.energy) {
      std::snprintf(line, sizeof line, "  %23s", text(s.energy).c_str());
      t << line;
    }
    t << "\n";
  }
  return t.str();
}

void write_crossover(const CrossoverResult& result, const Scenario& scenario, analysis::OutputDir& out) {
  analysis::write_text_file(out.file("resolved_scenario.json"), scenario.resolved.dump(2) + "\n");
  const std::vector<std::string> provenance_columns{"rsoc_version", "scenario_sha256", "seed"};
  auto provenance = [&](analysis::CsvWriter& csv) {
    csv.cell(std::string(kVersion)).cell(scenario.sha256).cell(scenario.params.seed);
  };
  {
    analysis::OutputFile f(out.file("crossover.csv"));
    std::vector<std::string> columns{"functionality",  "blocks",       "unit_bytes", "sw_ms",
                                     "hw_cold_ms",     "hw_cached_ms", "sw_kBps",    "hw_cold_kBps",
                                     "hw_cached_kBps", "sw_uj",        "hw_cold_uj", "hw_cached_uj"};
    columns.insert(columns.end(), provenance_columns.begin(), provenance_columns.end());
    analysis::CsvWriter csv(f, columns);
    for (const auto& r : result.rows) {
      const double bytes = static_cast<double>(r.blocks * r.unit_bytes);
      csv.cell(runtime::info(r.functionality).name).cell(r.blocks).cell(r.unit_bytes);
      csv.cell(r.sw_s * 1e3, 6).cell(r.hw_cold_s * 1e3, 6).cell(r.hw_cached_s * 1e3, 6);
      csv.cell(bytes / r.sw_s / 1e3, 3)
          .cell(bytes / r.hw_cold_s / 1e3, 3)
          .cell(bytes / r.hw_cached_s / 1e3, 3);
      for (const std::optional<double>& j : {r.sw_j, r.hw_cold_j, r.hw_cached_j}) {
        if (j) {
          csv.cell(*j * 1e6, 6);
        } else {
          csv.cell("");  // no energy model
        }
      }
      provenance(csv);
      csv.end_row();
    }
    f.close();
  }
  {
    analysis::OutputFile f(out.file("crossover_summary.csv"));
    std::vector<std::string> columns{"functionality", "crossover_blocks", "analytic_crossover_blocks",
                                     "energy_crossover_blocks"};
    columns.insert(columns.end(), provenance_columns.begin(), provenance_columns.end());
    analysis::CsvWriter csv(f, columns);
    for (const auto& s : result.summary) {
      csv.cell(runtime::info(s.functionality).name);
      csv.cell(s.simulated ? std::to_string(*s.simulated) : std::string());
      csv.cell(s.analytic ? std::to_string(*s.analytic) : std::string());
      csv.cell(s.energy ? std::to_string(*s.energy) : std::string());
      provenance(csv);
      csv.end_row();
    }
    f.close();
  }
  nlohmann::json host;
  host["wall_seconds_simulating"] = result.wall_s;
  host["experiments"] = result.experiments;
  host["blocks"] = result.blocks;
  host["cipher_blocks"] = result.cipher_blocks;
  host["rsoc_version"] = kVersion;
  host["scenario_file"] = printable_text(scenario.file);
  analysis::write_text_file(out.file("host.json"), host.dump(2) + "\n");
  throw_if_interrupted();
  if (const std::string gone = out.commit(); !gone.empty()) logging::note() << "rsoc: " << gone << "\n";
}

}  // namespace rsoc::platform
