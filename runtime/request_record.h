#pragma once
// What the runtime records about every request (plain C++, no SystemC: times in picoseconds). analysis/ reads
// these records; it never drives the simulation.

#include <cstdint>
#include <string>

namespace rsoc::runtime {

struct RequestRecord {
  std::uint64_t id = 0;
  std::string app;
  std::string functionality;
  std::uint64_t blocks = 0;
  std::uint64_t bytes = 0;
  std::string decision;  // "software" or "hardware"
  std::string reason;    // why the manager decided so
  std::string slot;      // empty for software
  bool reconfigured = false;
  std::uint64_t issue_ps = 0;     // the application asked
  std::uint64_t start_ps = 0;     // the implementation started (after queueing for the CPU/slot)
  std::uint64_t end_ps = 0;       // the result was in the application's hands
  std::uint64_t reconfig_ps = 0;  // part of the latency spent configuring the slot
  std::uint64_t exec_ps = 0;      // running the implementation (driver + bus + core, or software)
  bool ok = true;
  std::string error;      // why it failed, when !ok
  bool verified = false;  // output equal to the reference cipher
};

}  // namespace rsoc::runtime
