#include "analysis/sweep_table.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "analysis/csv.h"
#include "analysis/output_dir.h"

namespace rsoc::analysis {

namespace {

// The metric columns: every metric of any point, in order of first appearance, and a crossover's column
// (<functionality>.crossover_blocks) wherever the crossover was searched, even if no point found one.
std::vector<std::string> metric_columns(const std::vector<SweepPoint>& points) {
  static const std::string kSearched = ".searched_to_blocks";
  std::vector<std::string> metrics;
  for (const auto& p : points)
    for (const auto& [name, value] : p.metrics) {
      if (std::find(metrics.begin(), metrics.end(), name) != metrics.end()) continue;
      if (name.size() > kSearched.size() &&
          name.compare(name.size() - kSearched.size(), kSearched.size(), kSearched) == 0) {
        const std::string crossover = name.substr(0, name.size() - kSearched.size()) + ".crossover_blocks";
        if (std::find(metrics.begin(), metrics.end(), crossover) == metrics.end()) metrics.push_back(crossover);
      }
      metrics.push_back(name);
    }
  return metrics;
}

}  // namespace

void write_sweep_csv(const std::string& path, const std::vector<std::string>& parameters,
                     const std::vector<SweepPoint>& points) {
  const std::vector<std::string> metrics = metric_columns(points);
  std::map<std::string, std::size_t> column_of;
  for (std::size_t i = 0; i < metrics.size(); ++i) column_of[metrics[i]] = i;

  std::vector<std::string> columns{"point", "status", "error"};
  columns.insert(columns.end(), parameters.begin(), parameters.end());
  columns.insert(columns.end(), metrics.begin(), metrics.end());
  columns.insert(columns.end(), {"rsoc_version", "scenario_sha256", "seed"});

  // One format per column: whole numbers when every value of it is one, else six decimals throughout.
  std::vector<bool> whole(metrics.size(), true);
  for (const auto& p : points)
    for (const auto& [name, value] : p.metrics) whole[column_of.at(name)] = whole[column_of.at(name)] && is_whole(value);

  std::ostringstream out;
  CsvWriter csv(out, columns);
  for (const auto& p : points) {
    csv.cell(static_cast<std::uint64_t>(p.index)).cell(p.status).cell(p.error);
    for (std::size_t i = 0; i < parameters.size(); ++i) csv.cell(i < p.values.size() ? p.values[i] : "");
    std::vector<std::string> cells(metrics.size());
    for (const auto& [name, value] : p.metrics)
      cells[column_of.at(name)] = fixed(value, whole[column_of.at(name)] ? 0 : 6);
    for (const auto& c : cells) csv.cell(c);
    csv.cell(p.version).cell(p.scenario_sha256).cell(p.seed);
    csv.end_row();
  }
  write_file_atomically(path, out.str());
}

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool headline(const std::string& metric) {
  if (metric == "requests" || metric == "failed" || metric == "requests_per_s") return true;
  if (ends_with(metric, ".latency_mean_ms") || ends_with(metric, ".energy_crossover_blocks")) return true;
  return ends_with(metric, ".crossover_blocks") && !ends_with(metric, ".analytic_crossover_blocks");
}

// "aes128" of "aes128.crossover_blocks" and "aes128.energy_crossover_blocks".
std::string functionality_of(const std::string& metric) {
  return metric.substr(0, metric.find('.'));
}

}  // namespace

std::string sweep_text(const std::vector<std::string>& parameters, const std::vector<SweepPoint>& points) {
  std::vector<std::string> metrics;
  for (const auto& name : metric_columns(points))
    if (headline(name)) metrics.push_back(name);
  std::vector<bool> whole(metrics.size(), true);
  for (const auto& p : points)
    for (const auto& [name, value] : p.metrics) {
      const auto at = std::find(metrics.begin(), metrics.end(), name);
      if (at != metrics.end()) whole[at - metrics.begin()] = whole[at - metrics.begin()] && is_whole(value);
    }
  const bool any_failed =
      std::any_of(points.begin(), points.end(), [](const SweepPoint& p) { return p.status != "ok"; });
  std::vector<std::vector<std::string>> rows{{"point"}};
  rows[0].insert(rows[0].end(), parameters.begin(), parameters.end());
  rows[0].insert(rows[0].end(), metrics.begin(), metrics.end());
  if (any_failed) rows[0].insert(rows[0].end(), {"status", "error"});
  for (const auto& p : points) {
    std::vector<std::string> row{std::to_string(p.index)};
    for (std::size_t i = 0; i < parameters.size(); ++i) row.push_back(i < p.values.size() ? p.values[i] : "");
    const auto value_of = [&](const std::string& name) -> const double* {
      for (const auto& [n, v] : p.metrics)
        if (n == name) return &v;
      return nullptr;
    };
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      if (const double* v = value_of(metrics[m])) {
        row.push_back(fixed(*v, whole[m] ? 0 : 3));
      } else if (const double* bound = p.status == "ok" && ends_with(metrics[m], "crossover_blocks")
                                           ? value_of(functionality_of(metrics[m]) + ".searched_to_blocks")
                                           : nullptr) {
        row.push_back("> " + fixed(*bound, 0));  // none up to there
      } else {
        row.push_back("-");
      }
    }
    if (any_failed) row.insert(row.end(), {p.status, p.error});
    rows.push_back(row);
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  std::ostringstream out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool last = i + 1 == row.size();
      const bool left = any_failed && i + 2 >= row.size();  // status and error; numbers right-aligned
      const std::string pad(width[i] - row[i].size(), ' ');
      line += (i ? "  " : "") + (left ? row[i] + (last ? "" : pad) : pad + row[i]);
    }
    out << line << "\n";
  }
  return out.str();
}

}  // namespace rsoc::analysis
