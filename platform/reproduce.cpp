#include "platform/reproduce.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "analysis/csv.h"
#include "platform/crossover.h"
#include "platform/scenario.h"
#include "platform/simulation.h"

namespace rsoc::platform {

namespace fs = std::filesystem;
using runtime::Functionality;

namespace {

const CrossoverRow& row_at(const CrossoverResult& r, Functionality f, std::uint64_t blocks) {
  for (const auto& row : r.rows)
    if (row.functionality == f && row.blocks == blocks) return row;
  throw SimulationError("no crossover row for " + std::string(runtime::info(f).name) + " at " +
                        std::to_string(blocks) + " blocks");
}

double kbps(Functionality f, std::uint64_t blocks, double seconds) {
  return static_cast<double>(blocks * runtime::info(f).block_bytes) / seconds / 1e3;
}

// REFERENCE.md section 1: OS-managed AES and DES on a reconfigurable SoC (scenarios/os_aes_des.json). One
// crossover experiment (1 to 200 blocks, software / hardware with reconfiguration / hardware cached) gives
// every figure: the crossovers, the cached throughputs (at 100 blocks; they are constant in size), one
// reconfiguration (hardware with minus without it, 1 AES block), and the software throughput with its
// variation over sizes.
std::vector<ReproducedFigure> reproduce_soc(const fs::path& scenarios, const fs::path& out) {
  const Scenario scenario = load_scenario_file((scenarios / "os_aes_des.json").string());
  CrossoverOptions options;
  options.functionalities = {Functionality::kAes128, Functionality::kDes};
  options.max_blocks = 200;
  const CrossoverResult r = run_crossover(scenario, options);
  write_crossover(r, scenario, out);
  std::vector<ReproducedFigure> figures;
  auto add = [&](const std::string& figure, std::optional<double> published, double simulated) {
    figures.push_back({"soc", figure, published, simulated});
  };
  const std::pair<Functionality, double> published_crossover[] = {{Functionality::kAes128, 40},
                                                                  {Functionality::kDes, 80}};
  for (const auto& [f, published] : published_crossover) {
    const std::string name = runtime::info(f).name;
    for (const auto& s : r.summary)
      if (s.functionality == f) {
        if (!s.simulated) throw SimulationError("no " + name + " crossover up to 200 blocks");
        add("crossover_blocks." + name, published, static_cast<double>(*s.simulated));
      }
  }
  const std::pair<Functionality, double> published_cached[] = {{Functionality::kAes128, 436},
                                                               {Functionality::kDes, 246}};
  for (const auto& [f, published] : published_cached)
    add(std::string("cached_throughput_kBps.") + runtime::info(f).name, published,
        kbps(f, 100, row_at(r, f, 100).hw_cached_s));
  const CrossoverRow& one = row_at(r, Functionality::kAes128, 1);
  add("reconfiguration_ms", 150, (one.hw_cold_s - one.hw_cached_s) * 1e3);
  for (Functionality f : options.functionalities) {
    const std::string name = runtime::info(f).name;
    const double at1 = kbps(f, 1, row_at(r, f, 1).sw_s), at200 = kbps(f, 200, row_at(r, f, 200).sw_s);
    add("software_throughput_kBps." + name, std::nullopt, at200);
    add("software_throughput_change_pct_1_to_200_blocks." + name, std::nullopt, (at200 - at1) / at1 * 100);
  }
  return figures;
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

}  // namespace

std::vector<std::string> reproduction_systems() {
  return {"soc"};
}

fs::path scenario_dir(const std::optional<fs::path>& override_dir) {
  return override_dir ? *override_dir : fs::path(RSOC_SCENARIO_DIR);
}

std::vector<ReproducedFigure> reproduce_system(const std::string& system, const fs::path& scenarios,
                                               const fs::path& out) {
  if (system == "soc") return reproduce_soc(scenarios, out);
  throw std::invalid_argument("unknown reference system \"" + system + "\"");
}

void write_figures(const fs::path& path, const std::vector<ReproducedFigure>& figures) {
  std::ofstream out(path);
  analysis::CsvWriter csv(out, {"system", "figure", "published", "simulated"});
  for (const auto& f : figures)
    csv.cell(f.system)
        .cell(f.figure)
        .cell(f.published ? number(*f.published) : "")
        .cell(number(f.simulated))
        .end_row();
  if (!out) throw std::runtime_error(path.string() + ": write failed");
}

std::vector<ReproducedFigure> read_figures(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot read");
  std::vector<ReproducedFigure> figures;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    const auto cells = split(line);
    if (cells.size() != 4) throw std::runtime_error(path.string() + ": malformed line \"" + line + "\"");
    ReproducedFigure f{cells[0], cells[1], std::nullopt, std::stod(cells[3])};
    if (!cells[2].empty()) f.published = std::stod(cells[2]);
    figures.push_back(f);
  }
  return figures;
}

void write_reproduce_csv(const fs::path& path, const std::vector<ReproducedFigure>& figures) {
  std::ofstream out(path);
  analysis::CsvWriter csv(out, {"system", "figure", "published", "simulated", "error_pct"});
  for (const auto& f : figures) {
    csv.cell(f.system).cell(f.figure).cell(f.published ? number(*f.published) : "");
    csv.cell(f.simulated, 3);
    csv.cell(f.published && *f.published != 0
                 ? analysis::fixed((f.simulated - *f.published) / *f.published * 100, 2)
                 : "");
    csv.end_row();
  }
  if (!out) throw std::runtime_error(path.string() + ": write failed");
}

std::string reproduce_table(const std::vector<ReproducedFigure>& figures) {
  std::ostringstream t;
  char line[256];
  std::snprintf(line, sizeof line, "%-8s %-52s %10s %12s %9s\n", "system", "figure", "published", "simulated",
                "error_%");
  t << line;
  for (const auto& f : figures) {
    const std::string err = f.published && *f.published != 0
                                ? analysis::fixed((f.simulated - *f.published) / *f.published * 100, 2)
                                : "";
    std::snprintf(line, sizeof line, "%-8s %-52s %10s %12.3f %9s\n", f.system.c_str(), f.figure.c_str(),
                  f.published ? number(*f.published).c_str() : "-", f.simulated,
                  err.empty() ? "-" : err.c_str());
    t << line;
  }
  return t.str();
}

}  // namespace rsoc::platform
