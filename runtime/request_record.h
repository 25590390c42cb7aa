#pragma once
// What the runtime records about every request (plain C++, no SystemC: times in picoseconds). analysis/ reads
// these records; it never drives the simulation.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/energy_account.h"

namespace rsoc::runtime {

// What time is spent on: the parts of a request's latency, in the order of breakdown.csv's columns, then
// kAsleep, which a process's ledger needs and no request ever contains. The rules that attribute every
// interval of a process's time to exactly one use are at class Process (runtime/scheduler.h).
enum class TimeUse : std::uint8_t {
  kCpuCompute,   // the process computing on the CPU
  kCpuIo,        // the CPU stalled on the process's own device accesses
  kCpuWait,      // waiting for the CPU: queued, preempted, yielding, context switches
  kBusTransfer,  // asleep while a DMA engine moves the request's data
  kSlotWait,     // asleep until a slot, the configuration port or a shared DMA engine is free
  kReconfig,     // configuring the slot (the whole configuration, whatever the CPU does meanwhile)
  kCoreCompute,  // waiting for a core to finish
  kHost,         // the requester's own work outside the SoC (an HSM client's host software and link)
  kRecovery,     // recovering from faults: failed attempts and what the runtime did about them
  kAsleep,       // sleeping between requests (think time, arrivals), or not started yet
};
inline constexpr std::size_t kRequestTimeUses = 9;  // every use but kAsleep

// A request's latency (end_ps - issue_ps) split by use, in picoseconds; the parts sum to it exactly.
struct LatencyBreakdown {
  std::array<std::uint64_t, kRequestTimeUses> ps{};
  std::uint64_t& operator[](TimeUse use) { return ps[static_cast<std::size_t>(use)]; }
  std::uint64_t operator[](TimeUse use) const { return ps[static_cast<std::size_t>(use)]; }
  std::uint64_t total() const {
    std::uint64_t sum = 0;
    for (std::uint64_t part : ps) sum += part;
    return sum;
  }
};

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
  std::uint64_t reconfig_ps = 0;  // part of the latency spent configuring the slot (or waiting for the rest
                                  // of a prefetch of its core)
  // Configuration time a prefetch hid: the prefetch of the core it used, less any part it waited for.
  std::uint64_t reconfig_hidden_ps = 0;
  std::uint64_t exec_ps = 0;  // running the implementation (driver + bus + core, or software)
  // By the OS scheduler's hardware thread (every CPU's in turn): the time the request's process held it
  // between the request's opening and its end (computing, device accesses, status reads; empty when the
  // runtime has no scheduler). Its sum is at most the latency.
  std::vector<std::uint64_t> held_ps;
  bool ok = true;
  std::string error;           // why it failed, when !ok
  bool verified = false;       // output equal to the reference cipher
  LatencyBreakdown breakdown;  // where end_ps - issue_ps went
  // Energy spent for it (models/energy.h) from its opening to its end: its CPU time above idle, its accesses,
  // the transfers and configurations it started, the cores' work. Absent without an energy model.
  std::optional<models::EnergyAccount> energy;
  double reconfig_nj = 0;  // of `energy`: what configuring the slot spent (reconfig_ps's)
  // Injected faults (scenario section faults) the request met, and what the runtime did about them.
  std::uint64_t faults = 0;   // faults met (each failed configuration, ...)
  std::uint64_t retries = 0;  // attempts made again
  bool fallback = false;      // ran in software after its hardware failed
  bool upset = false;         // an upset core computed (some of) its output
  bool wrong_output = false;  // delivered an upset core's wrong output unnoticed (silent data corruption)
  // "ok" (no fault met), "recovered" (faults met, the request still completed) or "failed".
  const char* outcome() const { return !ok ? "failed" : faults ? "recovered" : "ok"; }
};

}  // namespace rsoc::runtime
