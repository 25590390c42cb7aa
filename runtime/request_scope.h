#pragma once
// RequestScope: the record of one request while a process runs it, shared by everything that runs requests
// (the manager's requests, and applications on the runtime that run their own, like the HSM firmware's
// signatures). It is opened when the process starts on the request and reads the process's ledger then; it is
// closed when the result is in the application's hands. The latency's parts: from the issue to the opening,
// waiting for the CPU (the process was busy or queued); from then on what the process's ledger counted
// (runtime/scheduler.h, class Process). Every wait of a request names what it waits for, so none of it may be
// kAsleep.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/request_record.h"
#include "runtime/scheduler.h"

namespace rsoc::runtime {

class RequestScope {
 public:
  // `record` (id, app, functionality, blocks, bytes, issue_ps set by the caller) is the request's; it is
  // opened at the process's time.
  RequestScope(Process& p, RequestRecord& record);

  // The implementation starts now (start_ps).
  void start();
  // Whether the request's output matched the reference implementation's (OutputCheck): verified, or failed
  // with `mismatch`.
  void verify(bool matched, const std::string& mismatch);
  void fail(const std::string& error);
  // Closes the record at `end_ps` (the process's time when not given): end_ps and the breakdown, whose parts
  // sum exactly to end_ps - issue_ps. Time after the process's time up to `end_ps` counts as `after` (what
  // the request waited for once the process was done with it). Throws std::logic_error when the process
  // slept during the request without naming what for.
  RequestRecord& close();
  RequestRecord& close(std::uint64_t end_ps, TimeUse after);

  RequestRecord& record() { return record_; }

 private:
  Process& p_;
  RequestRecord& record_;
  std::uint64_t entry_ps_;
  Process::Ledger at_entry_;
  std::vector<std::uint64_t> held_at_entry_;
  std::optional<models::EnergyAccount> energy_at_entry_;  // when energy is measured
};

}  // namespace rsoc::runtime
