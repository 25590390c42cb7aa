#pragma once
// Provenance carried by every result file: which rsoc, which scenario (SHA-256 of the resolved scenario),
// which seed. Wall-clock time and host facts never enter result files (they go to host.json) so that the same
// scenario, seed and binary give byte-identical results.

#include <cstdint>
#include <string>

namespace rsoc::analysis {

struct Provenance {
  std::string version;
  std::string scenario_sha256;
  std::uint64_t seed = 0;
};

}  // namespace rsoc::analysis
