#pragma once
// Recovery: what the runtime does when a fault is detected during a hardware request (scenario section
// runtime.recovery). A configuration the port reports failed is tried again (configuration_retries); a core
// that hung (the drivers' watchdog) or computed a wrong output (the output check) is configured again and
// run again once; a request that cannot recover runs in software instead (fallback_to_software), else fails.
// Every fault is counted against its slot, and a slot that met retire_after faults is never used again.
// Timing contract: the failed attempts and what the runtime did about them count as kRecovery in the
// request's breakdown; a configuration costs what the broker's port does, a run what the drivers do.

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "models/statistics.h"
#include "runtime/request_record.h"
#include "runtime/scheduler.h"
#include "runtime/slot_broker.h"

namespace rsoc::runtime {

struct RecoveryParams {
  unsigned configuration_retries = 0;  // a configuration the port reports failed is tried again this often
  bool fallback_to_software = false;   // a hardware request that cannot recover runs in software instead
  unsigned retire_after = 0;           // a slot that met this many faults is never used again (0: never)
  // Output checking after every hardware run: CPU cycles per block (0: off). A wrong output (an upset core)
  // is a fault: the core is configured again and run again, else the fallback.
  std::uint64_t verify_cycles_per_block = 0;
};

// Whether `e`, thrown by a hardware run, is a fault the runtime may recover from (an error response, a
// device's failure: DeviceFault, DriverTimeout) rather than a mistake of the scenario (an address nothing
// answers, a buffer that is not memory), which fails the request with its message whatever
// runtime.recovery says.
bool recoverable(const std::exception& e);

class Recovery {
 public:
  Recovery(const RecoveryParams& params, SlotBroker& slots) : params_(params), slots_(slots) {}

  // A hardware request as recovery sees it: its run on the core (the drivers, and the output check's cycles),
  // the output check (null: none), and whether it may run in software instead.
  struct HardwareRun {
    std::function<std::vector<std::uint8_t>()> on_core;
    std::function<bool(const std::vector<std::uint8_t>&)> check;
    bool can_fall_back = false;
  };

  // Configures slot `s` with `d` for request `r` (the port taken for it), retrying as configuration_retries
  // allows; the attempts count as `use` (kReconfig, whose time is added to r.reconfig_ps, or kRecovery for a
  // repair). False when it failed, `error` saying why.
  bool configure(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& d, TimeUse use,
                 std::string& reason, std::string& error);
  // The request's configuration of `s` with `d`: false when it failed and the request runs in software
  // instead (r.fallback); throws when it may not.
  bool load(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& d, bool can_fall_back,
            std::string& reason);
  // Runs the request on the core in slot `s` (configured with `d`) and recovers from its faults: `output` is
  // the last run's, r.exec_ps the first run's time. With r.fallback set the request must run in software
  // instead; throws what cannot be recovered from.
  void run(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& d, const HardwareRun& run,
           std::vector<std::uint8_t>& output, std::string& reason);
  // A hardware request runs in software after a fault (`why`: what happened, or empty): counted, and said
  // in `reason`.
  void fall_back(std::string& reason, const std::string& why);
  // An upset core's output was delivered as if it were right.
  void count_silent_corruption() { ++silent_corruptions_; }

  std::uint64_t faults_detected() const { return faults_detected_; }
  std::uint64_t retired_slots() const { return retired_; }
  // The statistics of the `manager` group that concern faults.
  void statistics(models::StatGroup& g) const;

 private:
  // Counts a fault of slot `s` (met by request `r`); retires the slot when it has met retire_after. Returns
  // whether it did.
  bool count_fault(std::size_t s, RequestRecord& r);
  // Configures `s` again after `fault` and runs the request again: whether that gave a good output.
  bool repair(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& d, const HardwareRun& run,
              const std::string& fault, std::vector<std::uint8_t>& output, std::string& reason);
  // Counts what process `p` spent since the ledger read `since` as recovery (work a fault made useless).
  static void recount_as_recovery(Process& p, const Process::Ledger& since);

  RecoveryParams params_;
  SlotBroker& slots_;
  std::vector<std::uint64_t> slot_faults_;  // the faults each slot met
  std::uint64_t faults_detected_ = 0, configuration_retries_ = 0, fault_fallbacks_ = 0, retired_ = 0,
                corruptions_detected_ = 0, silent_corruptions_ = 0, watchdog_timeouts_ = 0;
};

}  // namespace rsoc::runtime
