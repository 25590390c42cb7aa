#include "platform/crossover.h"

#include <chrono>
#include <functional>
#include <map>
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

namespace {

// The rows of one functionality, each block count simulated once, when first asked for.
class Sampler {
 public:
  explicit Sampler(std::function<CrossoverRow(std::uint64_t)> measure) : measure_(std::move(measure)) {}
  const CrossoverRow& at(std::uint64_t n) {
    auto it = rows_.find(n);
    if (it == rows_.end()) it = rows_.emplace(n, measure_(n)).first;
    return it->second;
  }
  const std::map<std::uint64_t, CrossoverRow>& rows() const { return rows_; }

 private:
  std::function<CrossoverRow(std::uint64_t)> measure_;
  std::map<std::uint64_t, CrossoverRow> rows_;
};

// What hardware with reconfiguration needs beyond software (time or energy): below 0, hardware wins.
using Gap = double (*)(const CrossoverRow&);
double time_gap(const CrossoverRow& r) {
  return r.hw_cold_s - r.sw_s;
}
double energy_gap(const CrossoverRow& r) {
  return *r.hw_cold_j - *r.sw_j;
}

// The smallest block count up to `bound` at which hardware wins: every count of the table in turn, then
// galloping and bisection (crossover.h). Nothing once `failed` (a request failed).
std::optional<std::uint64_t> first_win(Sampler& s, std::uint64_t table, std::uint64_t bound, Gap gap,
                                       const std::string& failed) {
  table = std::min(table, bound);
  for (std::uint64_t n = 1; n <= table; ++n) {
    if (gap(s.at(n)) < 0) return n;
    if (!failed.empty()) return std::nullopt;
  }
  // Hardware lost at every count up to lo. The gallop visits the powers of two above the table, whatever its
  // length: where the gap wavers about zero (the daemon's share of a long request), the bracket and so the
  // crossover found do not depend on --table.
  std::uint64_t lo = table, hi = 1;
  while (hi <= table) hi *= 2;
  const auto no_fall = [&](std::uint64_t n) {  // the gap has not fallen over the last two doublings
    const auto& rows = s.rows();
    return n >= 8 && rows.count(n / 2) && rows.count(n / 4) && gap(rows.at(n)) >= gap(rows.at(n / 2)) &&
           gap(rows.at(n / 2)) >= gap(rows.at(n / 4));
  };
  for (;; hi *= 2) {
    if (lo >= bound) return std::nullopt;
    hi = std::min(hi, bound);
    if (gap(s.at(hi)) < 0) break;
    if (!failed.empty() || no_fall(hi)) return std::nullopt;
    lo = hi;
  }
  while (hi - lo > 1 && failed.empty()) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (gap(s.at(mid)) < 0 ? hi : lo) = mid;
  }
  return failed.empty() ? std::optional<std::uint64_t>(hi) : std::nullopt;
}

// Times the winner changes between consecutive block counts simulated.
unsigned crossings(const std::map<std::uint64_t, CrossoverRow>& rows, Gap gap) {
  unsigned changes = 0;
  std::optional<bool> before;
  for (const auto& [n, row] : rows) {
    const bool hardware = gap(row) < 0;
    if (before && *before != hardware) ++changes;
    before = hardware;
  }
  return changes;
}

}  // namespace

namespace {

// Those of `fs` with both a software and a hardware implementation; throws ScenarioError naming each that
// lacks one when the functionalities were asked for by name (not `all`), or when none has both.
std::vector<Functionality> with_both_implementations(const Scenario& scenario, Simulation& sim,
                                                     const std::vector<Functionality>& fs, bool all) {
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
  return chosen;
}

// The experiments of one crossover run, made by its process `proc`: each functionality's table and search.
struct Experiments {
  const ScenarioParams& p;
  const CrossoverOptions& options;
  Simulation& sim;
  runtime::Process& proc;
  std::mt19937_64& rng;
  CrossoverResult& result;
  std::string& failure;  // the first request that failed: no table is better than a wrong one

  void run(Functionality f) {
    const auto& fi = runtime::info(f);
    const std::uint64_t unit = runtime::unit_bytes(p.runtime.unit_bytes, f);
    std::vector<std::uint8_t> key(fi.key_bytes);
    for (auto& b : key) b = static_cast<std::uint8_t>(rng());
    runtime::shape_key(f, key);
    Sampler sampler([&](std::uint64_t n) {
      std::vector<std::uint8_t> data(n * unit);
      runtime::draw_data(rng(), data);
      runtime::shape_data(f, data);
      CrossoverRow row{f, n, unit, 0, 0, 0, std::nullopt, std::nullopt, std::nullopt};
      auto measure = [&](bool hardware, const char* mode, double& s, std::optional<double>& j) {
        const auto record =
            sim.manager().request(proc, "crossover", f, key, data, true, std::nullopt, hardware).record;
        if (!record.ok && failure.empty())
          failure =
              std::string(fi.name) + ", " + std::to_string(n) + " blocks, " + mode + ": " + record.error;
        s = seconds(record);
        j = joules(record, p.energy);
      };
      measure(false, "software", row.sw_s, row.sw_j);
      sim.manager().unload_idle();
      measure(true, "hardware with reconfiguration", row.hw_cold_s, row.hw_cold_j);
      measure(true, "hardware cached", row.hw_cached_s, row.hw_cached_j);
      result.experiments += 3;
      result.blocks += 3 * n;
      result.cipher_blocks += 3 * n * (unit / fi.block_bytes);
      return row;
    });
    CrossoverSummary s{f, std::nullopt, std::nullopt, std::nullopt, 0, 0, 0};
    s.searched_to = std::min(options.max_blocks, kMaxRequestBytes / unit);
    for (std::uint64_t n = 1; n <= std::min(options.table_blocks, s.searched_to) && failure.empty(); ++n)
      sampler.at(n);  // the table, in order
    s.simulated = first_win(sampler, options.table_blocks, s.searched_to, time_gap, failure);
    if (p.energy) s.energy = first_win(sampler, options.table_blocks, s.searched_to, energy_gap, failure);
    s.analytic = sim.costs().crossover_blocks(f, s.searched_to);
    s.crossings = crossings(sampler.rows(), time_gap);
    s.simulated_counts = sampler.rows().size();
    result.summary.push_back(s);
    for (const auto& [n, row] : sampler.rows()) result.rows.push_back(row);
  }
};

}  // namespace

CrossoverResult run_crossover(const Scenario& scenario, const CrossoverOptions& options) {
  const ScenarioParams& p = scenario.params;
  const bool all = options.functionalities.empty();
  const std::vector<Functionality> fs =
      all ? p.functionalities->all() : check_functionalities(p, options.functionalities);

  CrossoverResult result;
  Simulation sim(p, nullptr);
  const std::vector<Functionality> chosen = with_both_implementations(scenario, sim, fs, all);
  const int priority = p.apps.empty() ? 10 : p.apps.front().priority;
  const std::vector<unsigned> where =
      p.apps.empty() ? std::vector<unsigned>{} : sim.affinity(p.apps.front().placement);
  sim.spawn_background();
  std::string failure;
  sim.scheduler().spawn(
      "crossover", priority,
      [&](runtime::Process& proc) {
        std::mt19937_64 rng(p.seed);
        Experiments experiments{p, options, sim, proc, rng, result, failure};
        for (Functionality f : chosen) {
          experiments.run(f);
          if (!failure.empty()) break;
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
  return result;
}

std::string beyond_text(std::uint64_t searched_to) {
  return "> " + std::to_string(searched_to);
}

std::string crossover_table(const CrossoverResult& result) {
  std::ostringstream t;
  t << "functionality  crossover_blocks  analytic_crossover_blocks"
    << (result.energy ? "  energy_crossover_blocks" : "") << "\n";
  for (const auto& s : result.summary) {
    auto text = [&](const std::optional<std::uint64_t>& v) {
      return v ? std::to_string(*v) : beyond_text(s.searched_to);
    };
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
  for (const auto& s : result.summary)
    if (s.crossings > 1)
      t << runtime::info(s.functionality).name << ": software and hardware with reconfiguration cross "
        << s.crossings << " times among the block counts simulated; the crossover is the first\n";
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
    std::vector<std::string> columns{"functionality",           "crossover_blocks",   "analytic_crossover_blocks",
                                     "energy_crossover_blocks", "searched_to_blocks", "crossings"};
    columns.insert(columns.end(), provenance_columns.begin(), provenance_columns.end());
    analysis::CsvWriter csv(f, columns);
    for (const auto& s : result.summary) {
      csv.cell(runtime::info(s.functionality).name);
      csv.cell(s.simulated ? std::to_string(*s.simulated) : std::string());
      csv.cell(s.analytic ? std::to_string(*s.analytic) : std::string());
      csv.cell(s.energy ? std::to_string(*s.energy) : std::string());
      csv.cell(s.searched_to).cell(static_cast<std::uint64_t>(s.crossings));
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
