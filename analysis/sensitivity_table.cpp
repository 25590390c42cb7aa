#include "analysis/sensitivity_table.h"

#include <algorithm>
#include <sstream>

#include "analysis/csv.h"
#include "analysis/output_dir.h"

namespace rsoc::analysis {

namespace {

// A row's values, in one format: whole numbers only when the three are.
std::string value_text(const std::optional<double>& value, const SensitivityRow& row) {
  if (!value) return "";
  const auto whole = [](const std::optional<double>& v) { return !v || is_whole(*v); };
  return fixed(*value, whole(row.at_low) && whole(row.at_base) && whole(row.at_high) ? 0 : 6);
}

std::string swing_text(const SensitivityRow& row) {
  const auto swing = swing_pct(row);
  return swing ? fixed(*swing, 2) : "";
}

std::string beyond_text(const std::optional<double>& bound) {
  return bound ? fixed(*bound, 0) : "";
}

// The cells of a row, in column order.
std::vector<std::string> cells(const SensitivityRow& r) {
  return {r.parameter,
          r.low,
          r.high,
          r.metric,
          value_text(r.at_low, r),
          value_text(r.at_base, r),
          value_text(r.at_high, r),
          swing_text(r)};
}

const std::vector<std::string> kColumns{"parameter", "low",     "high",    "metric",
                                        "at_low",    "at_base", "at_high", "swing_pct"};
const std::vector<std::string> kBeyondColumns{"at_low_beyond", "at_base_beyond", "at_high_beyond"};

}  // namespace

std::optional<double> swing_pct(const SensitivityRow& row) {
  if (!row.at_low || !row.at_base || !row.at_high || *row.at_base == 0) return std::nullopt;
  return (*row.at_high - *row.at_low) / *row.at_base * 100;
}

void write_sensitivity_csv(const std::string& path, const std::vector<SensitivityRow>& rows,
                           const Provenance& base) {
  std::vector<std::string> columns = kColumns;
  columns.insert(columns.end(), kBeyondColumns.begin(), kBeyondColumns.end());
  columns.insert(columns.end(), {"rsoc_version", "scenario_sha256", "seed"});
  std::ostringstream out;
  CsvWriter csv(out, columns);
  for (const auto& r : rows) {
    for (const auto& c : cells(r)) csv.cell(c);
    for (const auto* b : {&r.low_beyond, &r.base_beyond, &r.high_beyond}) csv.cell(beyond_text(*b));
    csv.cell(base.version).cell(base.scenario_sha256).cell(base.seed);
    csv.end_row();
  }
  write_file_atomically(path, out.str());
}

std::string sensitivity_text(const std::vector<SensitivityRow>& rows) {
  std::vector<std::vector<std::string>> table{kColumns};
  for (const auto& r : rows) {
    table.push_back(cells(r));
    const std::optional<double>* beyond[] = {&r.low_beyond, &r.base_beyond, &r.high_beyond};
    for (std::size_t i = 0; i < 3; ++i)
      if (*beyond[i]) table.back()[4 + i] = "> " + beyond_text(*beyond[i]);
    for (auto& c : table.back())
      if (c.empty()) c = "-";
  }
  std::vector<std::size_t> width(kColumns.size(), 0);
  for (const auto& line : table)
    for (std::size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
  std::ostringstream out;
  for (const auto& line : table) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const std::string pad(width[i] - line[i].size(), ' ');
      const bool number = i >= 4;  // the values and the swing, right-aligned
      text += (i ? "  " : "") + (number ? pad + line[i] : line[i] + (i + 1 < line.size() ? pad : ""));
    }
    out << text << "\n";
  }
  return out.str();
}

}  // namespace rsoc::analysis
