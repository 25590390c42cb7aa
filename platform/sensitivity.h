#pragma once
// Sensitivity studies (`rsoc sensitivity`): how far each figure moves with each stated assumption. An
// assumption moves one input — or several together, such as an input and the calibrated remainder that
// compensates it — from a low to a high value; the scenario runs at its base values and at each end of each
// assumption, one assumption at a time, every run a point of a sweep with an explicit list of points
// (platform/sweep.h): point 0 is the base, points 2i+1 and 2i+2 the low and the high end of assumption i.
// The table (analysis/sensitivity_table.h) has a row per assumption and metric.

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/sensitivity_table.h"
#include "analysis/sweep_table.h"
#include "platform/sweep.h"

namespace rsoc::platform {

struct Assumption {
  std::string text;                   // as given to --vary
  std::vector<Assignment> low, high;  // the same paths, in the order given
};

// Parses `path=LOW:HIGH`, or several inputs moved together, `p1=L1:H1,p2=L2:H2`: split at the commas outside
// JSON brackets and strings, each part at its first '=' and then at the one ':' outside JSON brackets and
// strings. LOW and HIGH are value texts as --set takes them. Throws SweepError (a missing '=' or ':', an
// empty value, LOW equal to HIGH, a path given twice).
Assumption parse_assumption(const std::string& text);

// The points of a study of `assumptions`: the base, then the low and the high end of each.
std::vector<std::vector<Assignment>> sensitivity_points(const std::vector<Assumption>& assumptions);

// Loads the scenario of `spec` at both ends of every assumption (its --set overrides applied first), before
// anything runs. Throws one ScenarioError with every problem, each naming the --vary, the end (when only one
// is wrong), the scenario file and the JSON pointer.
void validate_assumptions(const SweepSpec& spec, const std::vector<Assumption>& assumptions);

// Checks the study's metrics against those of the base point (which ran). Throws SweepError naming each
// unknown metric with the nearest known ones.
void check_metrics(const SweepSpec& spec, const analysis::SweepPoint& base);

// Builds DIR/sensitivity.csv from the points' outcomes (atomically) and returns its rows. Without every
// point succeeded there is no table (an earlier one is removed): SimulationError naming the points that
// failed or have not run. An unknown metric: SweepError. A folder that is not a sensitivity study:
// SweepError.
std::vector<analysis::SensitivityRow> write_sensitivity(const std::filesystem::path& dir);

}  // namespace rsoc::platform
