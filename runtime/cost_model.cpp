#include "runtime/cost_model.h"

namespace rsoc::runtime {

std::uint64_t unit_bytes(const std::map<Functionality, std::uint64_t>& units, Functionality f) {
  const auto it = units.find(f);
  return it == units.end() ? info(f).block_bytes : it->second;
}

double CostModel::software_s(Functionality f, std::uint64_t blocks) const {
  const auto it = params_.software.find(f);
  if (it == params_.software.end()) return 0;
  const std::uint64_t block = it->second.block_cycles(unit_bytes(params_.unit_bytes, f), info(f).block_bytes);
  return static_cast<double>(it->second.request_cycles() + blocks * block) / params_.cpu_hz;
}

double CostModel::reconfiguration_s(Functionality f) const {
  const auto it = params_.reconfiguration_s.find(f);
  return it == params_.reconfiguration_s.end() ? 0 : it->second;
}

double CostModel::hardware_s(Functionality f, std::uint64_t blocks, bool resident, double slot_wait_s) const {
  const auto it = params_.hardware.find(f);
  if (it == params_.hardware.end()) return 0;
  return (resident ? 0 : reconfiguration_s(f)) + slot_wait_s + it->second.request_s +
         static_cast<double>(blocks) * it->second.block_s;
}

std::optional<std::uint64_t> CostModel::crossover_blocks(Functionality f, std::uint64_t max_blocks) const {
  if (!has_software(f) || !has_hardware(f) || max_blocks == 0) return std::nullopt;
  // Both times are affine in the block count: hardware is faster from one count on, or never. Bisection on
  // the difference (hardware faster at hi, not at lo).
  const auto faster = [&](std::uint64_t n) { return hardware_s(f, n, false) < software_s(f, n); };
  if (faster(1)) return 1;
  if (!faster(max_blocks)) return std::nullopt;
  std::uint64_t lo = 1, hi = max_blocks;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (faster(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace rsoc::runtime
