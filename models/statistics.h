#pragma once
// Statistics a model declares about itself: named values with units and descriptions, grouped by resource
// (each CPU thread, bus, memory, DMA engine, the configuration port, each UART line and slot). A model that
// counts something is a StatisticsSource and says its own rank, its place in stats.json; whoever builds it
// registers it in the run's StatisticsRegistry (platform/ as it builds each model), which collects every
// source's groups in rank order, and analysis writes them into stats.json. Plain record types: no SystemC
// here.

#include <algorithm>
#include <cstddef>
#include <cstdint>
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

// The parts of stats.json, in their order.
enum class StatisticsRank : std::uint8_t {
  kCpu,
  kOnChipBus,
  kFmcBus,
  kMemory,
  kDma,
  kConfigPort,
  kUart,
  kSlot,
  kScrubber,
  kScheduler,
  kManager,
  kHsm,
  kEnergy,
};

// Within a rank, the sources of a part named after the resource (buses, memories, DMA engines, UARTs) come
// by name; the others (CPUs, slots, ...) in the order they were registered, which is the scenario's.
inline bool listed_by_name(StatisticsRank rank) {
  switch (rank) {
    case StatisticsRank::kOnChipBus:
    case StatisticsRank::kFmcBus:
    case StatisticsRank::kMemory:
    case StatisticsRank::kDma:
    case StatisticsRank::kUart:
      return true;
    default:
      return false;
  }
}

class StatisticsSource {
 public:
  // Appends this source's groups for a run that lasted `end_ms` of simulated time (utilizations divide by
  // it).
  virtual void statistics(double end_ms, std::vector<StatGroup>& out) const = 0;
  // Where its groups go in stats.json.
  virtual StatisticsRank statistics_rank() const = 0;

 protected:
  ~StatisticsSource() = default;
};

// The sources of one run, each registered where it is built. collect() lists their groups by rank, then by
// name or in registration order (listed_by_name).
class StatisticsRegistry {
 public:
  // Registers `source` (which must outlive the registry's use), named `name` for the order of its rank.
  void add(const StatisticsSource& source, std::string name = {}) {
    entries_.push_back(Entry{source.statistics_rank(), std::move(name), entries_.size(), &source});
  }
  std::size_t size() const { return entries_.size(); }
  // Every source's groups for a run that lasted `end_ms`.
  std::vector<StatGroup> collect(double end_ms) const;

 private:
  struct Entry {
    StatisticsRank rank;
    std::string name;
    std::size_t order;  // of registration
    const StatisticsSource* source;
  };
  std::vector<Entry> entries_;
};

// `busy_ms` over `end_ms` (0 for a run of no time).
inline double utilization(double busy_ms, double end_ms) {
  return end_ms > 0 ? busy_ms / end_ms : 0.0;
}

inline std::vector<StatGroup> StatisticsRegistry::collect(double end_ms) const {
  std::vector<const Entry*> order;
  for (const Entry& e : entries_) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
    if (a->rank != b->rank) return a->rank < b->rank;
    return listed_by_name(a->rank) ? a->name < b->name : a->order < b->order;
  });
  std::vector<StatGroup> out;
  for (const Entry* e : order) e->source->statistics(end_ms, out);
  return out;
}

inline StatGroup& StatGroup::add_busy(double busy_ms, double end_ms, std::string what) {
  return add("busy_ms", busy_ms, "ms", std::move(what))
      .add("utilization", utilization(busy_ms, end_ms), "ratio", "busy time over simulated time");
}

}  // namespace rsoc::models
