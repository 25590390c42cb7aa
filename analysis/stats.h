#pragma once
// Statistics with units and descriptions, grouped by resource (cpu, each bus, the configuration port, each
// slot, each core, ...). Models declare them (models/statistics.h); the simulation gathers them; analysis
// writes stats.json.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/provenance.h"
#include "models/statistics.h"

namespace rsoc::analysis {

// The record types are the models' own (models/statistics.h): each model declares its statistics.
using Stat = models::Stat;
using StatGroup = models::StatGroup;

// The value of statistic `name` of `resource` among `groups` (none: the run has no such statistic).
std::optional<double> find_stat(const std::vector<StatGroup>& groups, const std::string& resource,
                                const std::string& name);

// The stats.json document: provenance, simulated end time, and every group.
nlohmann::json stats_json(const std::vector<StatGroup>& groups, double simulated_ms,
                          const Provenance& provenance);

}  // namespace rsoc::analysis
