#include "platform/sensitivity.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "platform/scenario.h"
#include "platform/schema.h"
#include "platform/simulation.h"

namespace rsoc::platform {

namespace fs = std::filesystem;

namespace {

// A value text as --set reads it: JSON when it parses, otherwise a bare string.
nlohmann::json value_of(const std::string& text) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  return value.is_discarded() ? nlohmann::json(text) : value;
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

std::vector<std::string> paths_of(const std::vector<Assignment>& assignments) {
  std::vector<std::string> out;
  for (const auto& a : assignments) out.push_back(a.path);
  return out;
}

std::vector<std::string> values_of(const std::vector<Assignment>& assignments) {
  std::vector<std::string> out;
  for (const auto& a : assignments) out.push_back(a.value);
  return out;
}

std::optional<double> metric_of(const analysis::SweepPoint& point, const std::string& name) {
  for (const auto& [metric, value] : point.metrics)
    if (metric == name) return value;
  return std::nullopt;
}

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// For a crossover metric the point has no value of: the block count it was searched up to (none up to there).
std::optional<double> beyond_of(const analysis::SweepPoint& point, const std::string& name) {
  if (metric_of(point, name) || !ends_with(name, "crossover_blocks")) return std::nullopt;
  return metric_of(point, name.substr(0, name.find('.')) + ".searched_to_blocks");
}

// The metrics a point gives: its own, and the crossovers it searched without finding one.
std::vector<std::string> metric_names(const analysis::SweepPoint& point) {
  std::vector<std::string> names;
  for (const auto& [name, value] : point.metrics) {
    static const std::string kSearched = ".searched_to_blocks";
    if (ends_with(name, kSearched)) {
      const std::string f = name.substr(0, name.size() - kSearched.size());
      for (const char* m : {".crossover_blocks", ".analytic_crossover_blocks"})
        if (!metric_of(point, f + m)) names.push_back(f + m);
    }
    names.push_back(name);
  }
  return names;
}

// "point 0003 (platform.cpus.0.clock_mhz=200)": a point as the messages name it.
std::string point_text(const SweepSpec& spec, std::size_t index) {
  const std::string overrides = joined(point_overrides(spec, index), ", ");
  return "point " + point_name(spec, index) + " (" + (overrides.empty() ? "base" : overrides) + ")";
}

std::string outcome_text(const SweepSpec& spec, const analysis::SweepPoint& point) {
  return point_text(spec, point.index) +
         (point.status == "missing" ? " has not run" : " failed: " + point.error);
}

}  // namespace

Assumption parse_assumption(const std::string& text) {
  Assumption a;
  a.text = text;
  const auto parts = split_outside_json(text, ',');
  for (const auto& part : parts) {
    const std::string where = "--vary " + text + ": " + (parts.size() > 1 ? "\"" + part + "\": " : "");
    const auto eq = part.find('=');
    if (eq == std::string::npos || eq == 0)
      throw SweepError(where + "expected path=LOW:HIGH (several inputs moved together: path=LOW:HIGH,...)");
    const std::string path = part.substr(0, eq);
    const auto ends = split_outside_json(part.substr(eq + 1), ':');
    if (ends.size() != 2)
      throw SweepError(where + "expected LOW:HIGH after \"" + path +
                       "=\", with one ':' outside JSON brackets " + "and strings; found " +
                       (ends.size() == 1 ? "none" : std::to_string(ends.size() - 1)));
    if (ends[0].empty() || ends[1].empty())
      throw SweepError(where + (ends[0].empty() ? "empty LOW" : "empty HIGH"));
    if (value_of(ends[0]) == value_of(ends[1]))
      throw SweepError(where + "LOW and HIGH are the same value (" + ends[0] +
                       "); an assumption moves its input (a fixed value goes in --set)");
    for (const auto& earlier : a.low)
      if (earlier.path == path) throw SweepError(where + path + " is given twice");
    a.low.push_back({path, ends[0]});
    a.high.push_back({path, ends[1]});
  }
  return a;
}

std::vector<std::vector<Assignment>> sensitivity_points(const std::vector<Assumption>& assumptions) {
  std::vector<std::vector<Assignment>> points{{}};
  for (const auto& a : assumptions) {
    points.push_back(a.low);
    points.push_back(a.high);
  }
  return points;
}

void validate_assumptions(const SweepSpec& spec, const std::vector<Assumption>& assumptions) {
  std::vector<ScenarioIssue> all;
  for (const auto& a : assumptions) {
    std::vector<ScenarioIssue> at[2];  // the problems at the low and at the high end
    for (int end = 0; end < 2; ++end) {
      LoadOptions options;
      options.overrides = spec.overrides;
      for (const auto& assignment : end == 0 ? a.low : a.high)
        options.overrides.push_back(assignment.path + "=" + assignment.value);
      options.seed = spec.seed;
      options.folder = spec.scenario_folder;
      try {
        load_scenario_text(spec.scenario_text, spec.scenario_name, options);
      } catch (const ScenarioError& e) {
        at[end] = e.issues();
      }
    }
    // A problem at both ends (an unknown key) is reported once, without naming an end.
    for (int end = 0; end < 2; ++end)
      for (const auto& issue : at[end]) {
        const auto same = [&](const ScenarioIssue& other) {
          return other.pointer == issue.pointer && other.message == issue.message;
        };
        const bool both = std::any_of(at[1 - end].begin(), at[1 - end].end(), same);
        if (both && end == 1) continue;
        ScenarioIssue named = issue;
        // The loader names an override's own problems after the --set it applied: here, the --vary.
        const std::string file = issue.file.rfind("--set ", 0) == 0 ? spec.scenario_name : issue.file;
        named.file = "--vary " + a.text + (both ? "" : end == 0 ? ", low end" : ", high end") + ": " + file;
        all.push_back(named);
      }
  }
  if (!all.empty()) throw ScenarioError(all);
}

void check_metrics(const SweepSpec& spec, const analysis::SweepPoint& base) {
  if (!spec.sensitivity) return;
  const std::vector<std::string> known = metric_names(base);
  std::string problems;
  for (const auto& wanted : spec.sensitivity->metrics) {
    if (std::find(known.begin(), known.end(), wanted) != known.end()) continue;
    std::vector<std::string> nearest = known;
    std::stable_sort(nearest.begin(), nearest.end(), [&](const std::string& x, const std::string& y) {
      return edit_distance(wanted, x) < edit_distance(wanted, y);
    });
    nearest.resize(std::min<std::size_t>(nearest.size(), 3));
    problems += (problems.empty() ? "" : "\n") + std::string("--metric ") + wanted +
                ": not a metric of the base point" +
                (nearest.empty() ? std::string(" (it has none)") : "; nearest: " + joined(nearest, ", "));
  }
  if (!problems.empty()) throw SweepError(problems);
}

std::vector<analysis::SensitivityRow> write_sensitivity(const fs::path& dir) {
  const SweepSpec spec = load_sweep(dir);
  const std::size_t n = point_count(spec);
  if (!spec.sensitivity || !spec.parameters.empty() || n % 2 == 0)
    throw SweepError(dir.string() +
                     ": not a sensitivity study (its sweep.json has no base and assumption points)");
  std::error_code ec;
  fs::remove(dir / "sensitivity.csv", ec);

  std::vector<analysis::SweepPoint> points;
  for (std::size_t i = 0; i < n; ++i) points.push_back(read_point(spec, dir, i));
  const analysis::SweepPoint& base = points.front();
  if (base.status != "ok") throw SimulationError("no sensitivity.csv: the base " + outcome_text(spec, base));
  check_metrics(spec, base);
  std::vector<std::string> problems;
  for (const auto& p : points)
    if (p.status != "ok") problems.push_back(outcome_text(spec, p));
  if (!problems.empty())
    throw SimulationError("no sensitivity.csv: " + std::to_string(problems.size()) + " of " +
                          std::to_string(n) + " points did not succeed\n" + joined(problems, "\n"));

  // By default every metric of any point, the base's first (a crossover censored at the base has a value at
  // some end), but the searches' bounds: those stand beside the crossovers they bound.
  std::vector<std::string> metrics = spec.sensitivity->metrics;
  if (metrics.empty())
    for (const auto& p : points)
      for (const auto& m : metric_names(p))
        if (!ends_with(m, ".searched_to_blocks") &&
            std::find(metrics.begin(), metrics.end(), m) == metrics.end())
          metrics.push_back(m);
  std::vector<analysis::SensitivityRow> rows;
  for (std::size_t i = 1; i + 1 < n; i += 2) {
    const auto& low = spec.points[i];
    const auto& high = spec.points[i + 1];
    for (const auto& m : metrics)
      rows.push_back({joined(paths_of(low), "+"), joined(values_of(low), "+"), joined(values_of(high), "+"),
                      m, metric_of(points[i], m), metric_of(base, m), metric_of(points[i + 1], m),
                      beyond_of(points[i], m), beyond_of(base, m), beyond_of(points[i + 1], m)});
  }
  analysis::write_sensitivity_csv((dir / "sensitivity.csv").string(), rows,
                                  {base.version, base.scenario_sha256, std::stoull(base.seed)});
  return rows;
}

}  // namespace rsoc::platform
