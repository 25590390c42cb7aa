#pragma once
// Statistics with units and descriptions, grouped by resource (cpu, each bus, the configuration port, each
// slot, each core, ...). Models expose counters; the session gathers them here; analysis writes stats.json.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/provenance.h"

namespace rsoc::analysis {

struct Stat {
  std::string name;
  double value = 0;
  std::string unit;  // "ms", "count", "ratio", "words", ...
  std::string description;
};

struct StatGroup {
  std::string resource;  // "cpu.thread0", "bus.plb", "config_port", "slot.slot0", ...
  std::string kind;      // "cpu_thread", "bus", "fmc_bus", "config_port", "slot", "memory", "dma", "manager"
  std::vector<Stat> stats;
  StatGroup& add(std::string name, double value, std::string unit, std::string description) {
    stats.push_back(Stat{std::move(name), value, std::move(unit), std::move(description)});
    return *this;
  }
};

// The stats.json document: provenance, simulated end time, and every group.
nlohmann::json stats_json(const std::vector<StatGroup>& groups, double simulated_ms,
                          const Provenance& provenance);

}  // namespace rsoc::analysis
