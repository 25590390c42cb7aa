#include "analysis/stats.h"

#include <cmath>

namespace rsoc::analysis {

std::optional<double> find_stat(const std::vector<StatGroup>& groups, const std::string& resource,
                                const std::string& name) {
  for (const StatGroup& g : groups)
    if (g.resource == resource)
      for (const Stat& s : g.stats)
        if (s.name == name) return s.value;
  return std::nullopt;
}

nlohmann::json stats_json(const std::vector<StatGroup>& groups, double simulated_ms,
                          const Provenance& provenance) {
  nlohmann::json doc;
  doc["rsoc_version"] = provenance.version;
  doc["scenario_sha256"] = provenance.scenario_sha256;
  doc["seed"] = provenance.seed;
  doc["simulated_ms"] = simulated_ms;
  nlohmann::json& resources = doc["resources"] = nlohmann::json::object();
  for (const auto& g : groups) {
    nlohmann::json& r = resources[g.resource];
    r["kind"] = g.kind;
    for (const auto& s : g.stats) {
      // Round to 1e-9 relative so that the file is stable and readable.
      const double v = std::isfinite(s.value) ? std::round(s.value * 1e9) / 1e9 : 0.0;
      r["stats"][s.name] = {{"value", v}, {"unit", s.unit}, {"description", s.description}};
    }
  }
  return doc;
}

}  // namespace rsoc::analysis
