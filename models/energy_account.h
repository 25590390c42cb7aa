#pragma once
// EnergyAccount: nanojoules by what they were spent on, added up (plain C++; models/energy.h says who spends
// and who pays).

#include <array>
#include <cstddef>
#include <cstdint>

namespace rsoc::models {

// What an amount of energy was spent on, in the order stats.json lists them.
enum class EnergyPart : std::uint8_t { kCpu, kBus, kMemory, kDma, kConfigPort, kCore };
inline constexpr std::size_t kEnergyParts = 6;
inline constexpr const char* kEnergyPartNames[kEnergyParts] = {"cpu", "bus",         "memory",
                                                               "dma", "config_port", "core"};

// Nanojoules by part, added up.
struct EnergyAccount {
  std::array<double, kEnergyParts> nj{};
  void add(EnergyPart part, double amount) { nj[static_cast<std::size_t>(part)] += amount; }
  double operator[](EnergyPart part) const { return nj[static_cast<std::size_t>(part)]; }
  double total_nj() const {
    double sum = 0;
    for (double v : nj) sum += v;
    return sum;
  }
  EnergyAccount& operator-=(const EnergyAccount& other) {
    for (std::size_t i = 0; i < kEnergyParts; ++i) nj[i] -= other.nj[i];
    return *this;
  }
};

}  // namespace rsoc::models
