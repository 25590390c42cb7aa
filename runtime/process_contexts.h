#pragma once
// ProcessContexts: the state a process keeps in the cores it uses, as an OS keeps it for co-processors that
// each process opens for itself. On the Cell (Linux's spufs, libspe2) a process creates its SPU context and
// loads its SPU program on its first use of the SPUs, and the kernel multiplexes the processes' contexts on
// the physical SPUs, saving one context's local store and registers and restoring another's.
// Timing contract:
//  - first use: a process's first hardware request costs it first_use_cycles of its CPU (before the request
//    prepares its operands); with first_use_serialised one process at a time, the others asleep until it is
//    done (kSlotWait);
//  - per-process contexts: a slot remembers whose context it holds; a request of another process (or the
//    first one a slot serves) spends switch_time (counted as kReconfig) while the OS saves the resident
//    context and restores the requester's: the kernel does it on the requester's CPU thread, which stays
//    busy on the device meanwhile (spufs's save and restore sequences run on the PPU, waiting for the MFC's
//    transfers of the local store), the slot held. A slot that is configured starts with the requester's
//    context at no extra cost. Which idle slot a request takes: one that holds its context when there is one
//    (SlotTable::choose).
// Nothing is charged when both are off (the defaults). Both concern the manager's requests; cores that a core
// library leases to software that drives them itself (SlotBroker::take_core) keep no contexts.

#include <cstdint>
#include <set>
#include <string>
#include <systemc>
#include <vector>

#include "models/statistics.h"
#include "runtime/mutex.h"
#include "runtime/request_record.h"
#include "runtime/scheduler.h"

namespace rsoc::runtime {

struct ContextParams {
  std::uint64_t first_use_cycles = 0;  // CPU cycles of a process's first hardware request (0: none)
  bool first_use_serialised = false;   // one process at a time
  bool per_process = false;            // each process has its own context in a slot
  sc_core::sc_time switch_time{sc_core::SC_ZERO_TIME};  // saving one context and restoring another
};

class ProcessContexts {
 public:
  ProcessContexts(const ContextParams& params, std::size_t slots) : params_(params), holder_(slots) {}

  bool per_process() const { return params_.per_process; }
  // The context's owner as SlotTable::choose() prefers it (0: none).
  static std::uintptr_t owner(const Process& p) { return reinterpret_cast<std::uintptr_t>(&p); }

  // Before p's hardware request prepares: p's set-up, the first time only.
  void first_use(Process& p);
  // p's request uses `slot` (`configured`: loaded for it just now): switches the slot to p's context when it
  // holds another's. Adds what it waited to r.reconfig_ps and what it did to `reason`.
  void use(Process& p, std::size_t slot, const std::string& slot_name, bool configured, RequestRecord& r,
           std::string& reason);
  std::uintptr_t holder(std::size_t slot) const { return holder_[slot]; }

  // The statistics of the `manager` group that concern contexts (only when they are modelled).
  void statistics(models::StatGroup& g) const;

 private:
  ContextParams params_;
  std::vector<std::uintptr_t> holder_;  // whose context each slot holds (0: nobody's yet)
  std::set<const Process*> set_up_;
  Mutex first_use_lock_;
  std::uint64_t switches_ = 0;
  sc_core::sc_time switching_{sc_core::SC_ZERO_TIME};
};

}  // namespace rsoc::runtime
