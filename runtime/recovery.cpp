#include "runtime/recovery.h"

#include "models/soft_cpu.h"

namespace rsoc::runtime {

using sc_core::sc_time;

bool recoverable(const std::exception& e) {
  if (const auto* bus = dynamic_cast<const models::BusError*>(&e))
    return bus->status() == tlm::TLM_GENERIC_ERROR_RESPONSE;
  return dynamic_cast<const DeviceFault*>(&e) != nullptr;
}

bool Recovery::configure(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& d, TimeUse use,
                         std::string& reason, std::string& error) {
  SlotBroker::PortLease port(slots_, p);  // one configuration at a time
  bool configured = false;
  const bool measure = p.scheduler().measures_energy();
  for (;;) {  // the first attempt, then the retries runtime.recovery allows
    const sc_time t0 = p.cpu().now();
    const double nj0 = measure ? p.energy().total_nj() : 0.0;
    {
      const Process::Counting configuring(p, use);  // exactly the reconfig_ps below
      configured = slots_.configure(p, s, d, error);
    }
    r.reconfigured = true;
    const std::uint64_t attempt_ps = (p.cpu().now() - t0).value();
    const double attempt_nj = measure ? p.energy().total_nj() - nj0 : 0.0;
    if (use == TimeUse::kReconfig) {
      r.reconfig_ps += attempt_ps;
      r.reconfig_nj += attempt_nj;
    }
    if (configured) break;
    // The port's check failed: the attempt was lost to the fault.
    if (use == TimeUse::kReconfig) {
      p.recount(TimeUse::kReconfig, TimeUse::kRecovery, p.cpu().now() - t0);
      r.reconfig_ps -= attempt_ps;
      r.reconfig_nj -= attempt_nj;
    }
    if (count_fault(s, r) || r.retries >= params_.configuration_retries) break;
    reason += "; configuration failed (" + error + "): configuring again";
    ++r.retries;
    ++configuration_retries_;
  }
  port.release();
  return configured;
}

bool Recovery::load(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& d, bool can_fall_back,
                    std::string& reason) {
  std::string error;
  if (configure(p, r, s, d, TimeUse::kReconfig, reason, error)) return true;
  slots_.configuration_failed(s);
  if (!can_fall_back) throw DriverError(error);
  r.fallback = true;
  fall_back(reason, "configuration failed (" + error + ")");
  return false;
}

void Recovery::run(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& d, const HardwareRun& run,
                   std::vector<std::uint8_t>& output, std::string& reason) {
  const sc_time t1 = p.cpu().now();
  const Process::Ledger before = p.spent();
  std::string fault;  // what made the core's run useless: it is configured again and run again
  try {
    output = run.on_core();
  } catch (const DriverTimeout& e) {  // the watchdog: the core hung
    count_fault(s, r);
    ++watchdog_timeouts_;
    recount_as_recovery(p, before);
    fault = e.what();
  } catch (const std::exception& e) {
    // A bus fault (an error response, an FMC access whose NWAIT never cleared) or a device's failure (a DMA
    // transfer, a core that never became ready): with the software fallback, a fault.
    if (!recoverable(e) || !run.can_fall_back) throw;
    if (dynamic_cast<const DeviceFault*>(&e)) slots_.configuration_failed(s);  // configured again before use
    count_fault(s, r);
    recount_as_recovery(p, before);
    r.fallback = true;
    fall_back(reason, e.what());
  }
  r.exec_ps = (p.cpu().now() - t1).value();
  if (fault.empty() && !r.fallback && run.check && !run.check(output)) {
    count_fault(s, r);  // the output check found it wrong: an upset core
    ++corruptions_detected_;
    fault = "output check failed";
  }
  if (!fault.empty() && !repair(p, r, s, d, run, fault, output, reason)) {
    if (!run.can_fall_back) throw DriverError(fault + " and the core could not be repaired");
    r.fallback = true;
    fall_back(reason, "");
  }
}

bool Recovery::repair(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& d,
                      const HardwareRun& run, const std::string& fault, std::vector<std::uint8_t>& output,
                      std::string& reason) {
  const Process::Counting recovering(p, TimeUse::kRecovery);
  reason += "; " + fault + ": configuring " + slots_.slots()[s].name + " again";
  std::string error;
  if (slots_.table()[s].retired || !configure(p, r, s, d, TimeUse::kRecovery, reason, error)) {
    slots_.configuration_failed(s);
    return false;
  }
  ++r.retries;
  try {
    output = run.on_core();
    if (!run.check || run.check(output)) return true;
  } catch (const DriverTimeout&) {
    count_fault(s, r);
    ++watchdog_timeouts_;
  } catch (const std::exception& e) {
    if (!recoverable(e)) throw;
    count_fault(s, r);
  }
  slots_.configuration_failed(s);  // never used again as it is: configured first
  return false;
}

void Recovery::fall_back(std::string& reason, const std::string& why) {
  ++fault_fallbacks_;
  reason += "; " + (why.empty() ? std::string() : why + ": ") + "software instead";
}

void Recovery::recount_as_recovery(Process& p, const Process::Ledger& since) {
  const Process::Ledger now = p.spent();
  for (std::size_t u = 0; u < kRequestTimeUses; ++u)
    if (const auto use = static_cast<TimeUse>(u); use != TimeUse::kRecovery && now[u] != since[u])
      p.recount(use, TimeUse::kRecovery, sc_time::from_value(now[u] - since[u]));
}

bool Recovery::count_fault(std::size_t s, RequestRecord& r) {
  ++r.faults;
  ++faults_detected_;
  if (slot_faults_.size() < slots_.slots().size()) slot_faults_.resize(slots_.slots().size());
  const std::uint64_t met = ++slot_faults_[s];
  if (params_.retire_after == 0 || met < params_.retire_after || slots_.table()[s].retired) return false;
  slots_.retire(s);
  ++retired_;
  return true;
}

void Recovery::statistics(models::StatGroup& g) const {
  g.add("faults_detected", static_cast<double>(faults_detected_), "count",
        "injected faults the runtime detected (failed configurations, ...)")
      .add("configuration_retries", static_cast<double>(configuration_retries_), "count",
           "configurations tried again after the port reported an error")
      .add("fault_fallbacks", static_cast<double>(fault_fallbacks_), "count",
           "hardware requests run in software after a fault")
      .add("retired_slots", static_cast<double>(retired_), "count", "slots retired after too many faults")
      .add("watchdog_timeouts", static_cast<double>(watchdog_timeouts_), "count",
           "hardware runs the drivers' watchdog gave up (a hung core)")
      .add("corruptions_detected", static_cast<double>(corruptions_detected_), "count",
           "wrong outputs of upset cores the output check found")
      .add("silent_corruptions", static_cast<double>(silent_corruptions_), "count",
           "requests that delivered an upset core's wrong output unnoticed");
}

}  // namespace rsoc::runtime
