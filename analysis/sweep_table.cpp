#include "analysis/sweep_table.h"

#include <map>
#include <sstream>

#include "analysis/csv.h"
#include "analysis/output_dir.h"

namespace rsoc::analysis {

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

  std::ostringstream out;
  CsvWriter csv(out, columns);
  for (const auto& p : points) {
    csv.cell(static_cast<std::uint64_t>(p.index)).cell(p.status).cell(p.error);
    for (std::size_t i = 0; i < parameters.size(); ++i) csv.cell(i < p.values.size() ? p.values[i] : "");
    std::vector<std::string> cells(metrics.size());
    for (const auto& [name, value] : p.metrics) cells[column_of.at(name)] = metric_text(value);
    for (const auto& c : cells) csv.cell(c);
    csv.cell(p.version).cell(p.scenario_sha256).cell(p.seed);
    csv.end_row();
  }
  write_file_atomically(path, out.str());
}

}  // namespace rsoc::analysis
