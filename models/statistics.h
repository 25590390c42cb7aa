#pragma once
// Statistics a model declares about itself: named values with units and descriptions, grouped by resource
// (each CPU thread, bus, memory, DMA engine, the configuration port, each UART line and slot). A model that
// counts something is a StatisticsSource; the simulation walks its sources in one collector
// (platform/simulation.cpp) and analysis writes them into stats.json. Plain record types and one interface:
// no SystemC here.

#include <string>
#include <utility>
#include <vector>

namespace rsoc::models {

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
  // `busy_ms` ("busy_ms", what the resource was busy doing) and its share of a run of `end_ms`
  // ("utilization").
  StatGroup& add_busy(double busy_ms, double end_ms, std::string what);
};

class StatisticsSource {
 public:
  // Appends this source's groups for a run that lasted `end_ms` of simulated time (utilizations divide by
  // it).
  virtual void statistics(double end_ms, std::vector<StatGroup>& out) const = 0;

 protected:
  ~StatisticsSource() = default;
};

// `busy_ms` over `end_ms` (0 for a run of no time).
inline double utilization(double busy_ms, double end_ms) {
  return end_ms > 0 ? busy_ms / end_ms : 0.0;
}

inline StatGroup& StatGroup::add_busy(double busy_ms, double end_ms, std::string what) {
  return add("busy_ms", busy_ms, "ms", std::move(what))
      .add("utilization", utilization(busy_ms, end_ms), "ratio", "busy time over simulated time");
}

}  // namespace rsoc::models
