#pragma once
// sweep.csv: one row per point of a parameter sweep — `point, status, error`, a column per swept parameter
// (named by its path), a column per metric (the union over all points, in order of first appearance; empty
// where a point has no such figure), then the provenance of the point (`rsoc_version, scenario_sha256,
// seed`). Rows are in point order, so the table depends only on the points' outcomes, never on how they were
// run.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rsoc::analysis {

struct SweepPoint {
  std::size_t index = 0;
  std::string status;  // "ok", "failed" or "missing" (no outcome yet)
  std::string error;
  std::vector<std::string> values;  // parameter values, in parameter order
  std::vector<std::pair<std::string, double>> metrics;
  std::string version, scenario_sha256;
  std::string seed;  // empty when the scenario could not be loaded
};

// Writes the table to `path` atomically (a temporary file renamed into place). Throws std::runtime_error.
void write_sweep_csv(const std::string& path, const std::vector<std::string>& parameters,
                     const std::vector<SweepPoint>& points);

// The table as `rsoc sweep` prints it: a line per point with its parameters and its headline figures (a run's
// requests, failed, requests_per_s and every <functionality>.<decision>.latency_mean_ms; a crossover's
// <functionality>.crossover_blocks and .energy_crossover_blocks, "> N" where none was found up to the
// <functionality>.searched_to_blocks of the point), aligned; then the status and error of points that did not
// succeed. Each column in one format (whole numbers, or three decimals).
std::string sweep_text(const std::vector<std::string>& parameters, const std::vector<SweepPoint>& points);

}  // namespace rsoc::analysis
