#pragma once
// sensitivity.csv: how far each figure moves with each stated assumption. One row per (assumption, metric):
// `parameter, low, high, metric, at_low, at_base, at_high, swing_pct`, then the provenance of the base point
// (`rsoc_version, scenario_sha256, seed`). An assumption that moves several inputs together names them joined
// by '+' (`platform.cpus.0.clock_mhz+software.aes128.cycles_per_block`), its values likewise (`50+1500`).
// swing_pct = (at_high - at_low) / at_base * 100: signed (negative when the figure falls as the assumption
// goes from its low to its high end), empty when at_base is 0 or a value is missing (a point without that
// figure, e.g. no crossover up to the largest block count). Then `at_low_beyond, at_base_beyond, at_high_beyond`:
// for a crossover metric, the block count an end was searched up to when it found none there (censored; the
// text table says "> N" in its place), else empty.

#include <optional>
#include <string>
#include <vector>

#include "analysis/provenance.h"

namespace rsoc::analysis {

struct SensitivityRow {
  std::string parameter, low, high, metric;
  std::optional<double> at_low, at_base, at_high;
  // A crossover metric without a value at an end: the block count it was searched up to (censored: beyond it).
  std::optional<double> low_beyond{}, base_beyond{}, high_beyond{};
};

std::optional<double> swing_pct(const SensitivityRow& row);

// Writes the table to `path` atomically (a temporary file renamed into place). Throws OutputDirError.
void write_sensitivity_csv(const std::string& path, const std::vector<SensitivityRow>& rows,
                           const Provenance& base);

// The same rows as a short aligned table (missing values as '-').
std::string sensitivity_text(const std::vector<SensitivityRow>& rows);

}  // namespace rsoc::analysis
