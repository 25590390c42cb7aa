#include "analysis/sweep_table.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "analysis/csv.h"

namespace rsoc::analysis {

namespace {
// Whole numbers (counts, block thresholds) without decimals; everything else to 6 decimals.
std::string number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return fixed(v, 0);
  return fixed(v, 6);
}
}  // namespace

void write_sweep_csv(const std::string& path, const std::vector<std::string>& parameters,
                     const std::vector<SweepPoint>& points) {
  std::vector<std::string> metrics;
  std::map<std::string, std::size_t> column_of;
  for (const auto& p : points)
    for (const auto& [name, value] : p.metrics)
      if (column_of.emplace(name, metrics.size()).second) metrics.push_back(name);

  std::vector<std::string> columns{"point", "status", "error"};
  columns.insert(columns.end(), parameters.begin(), parameters.end());
  columns.insert(columns.end(), metrics.begin(), metrics.end());
  columns.insert(columns.end(), {"rsoc_version", "scenario_sha256", "seed"});

  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp);
    if (!out) throw std::runtime_error(temp + ": cannot write");
    CsvWriter csv(out, columns);
    for (const auto& p : points) {
      csv.cell(static_cast<std::uint64_t>(p.index)).cell(p.status).cell(p.error);
      for (std::size_t i = 0; i < parameters.size(); ++i) csv.cell(i < p.values.size() ? p.values[i] : "");
      std::vector<std::string> cells(metrics.size());
      for (const auto& [name, value] : p.metrics) cells[column_of.at(name)] = number(value);
      for (const auto& c : cells) csv.cell(c);
      csv.cell(p.version).cell(p.scenario_sha256).cell(p.seed);
      csv.end_row();
    }
    out.flush();
    if (!out) throw std::runtime_error(temp + ": write failed");
  }
  std::filesystem::rename(temp, path);
}

}  // namespace rsoc::analysis
