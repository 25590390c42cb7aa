#include "runtime/process_contexts.h"

#include "models/kernel_time.h"

namespace rsoc::runtime {

void ProcessContexts::first_use(Process& p) {
  if (!params_.first_use_cycles || !set_up_.insert(&p).second) return;
  if (params_.first_use_serialised) first_use_lock_.lock(p);
  p.compute(params_.first_use_cycles);
  if (params_.first_use_serialised) first_use_lock_.unlock(p);
}

void ProcessContexts::use(Process& p, std::size_t slot, const std::string& slot_name, bool configured,
                          RequestRecord& r, std::string& reason) {
  if (!params_.per_process) return;
  const std::uintptr_t me = owner(p);
  const std::uintptr_t before = holder_[slot];
  holder_[slot] = me;
  if (configured || before == me) return;
  reason += before ? "; switching " + slot_name + " to this process's context"
                   : "; loading this process's context into " + slot_name;
  ++switches_;
  if (params_.switch_time == sc_core::SC_ZERO_TIME) return;
  const Process::Counting switching(p, TimeUse::kReconfig);
  models::CpuThread& cpu = p.cpu();
  cpu.busy_wait(cpu.now() + params_.switch_time);
  switching_ += params_.switch_time;
  r.reconfig_ps += static_cast<std::uint64_t>(params_.switch_time.value());
}

void ProcessContexts::statistics(models::StatGroup& g) const {
  if (params_.first_use_cycles)
    g.add("first_uses", static_cast<double>(set_up_.size()), "count",
          "processes that set up their use of the cores (runtime.contexts.first_use_cycles)")
        .add("first_use_wait_ms", models::to_ms(first_use_lock_.wait_time()), "ms",
             "time processes waited for another's set-up (first_use_serialised)");
  if (params_.per_process)
    g.add("context_switches", static_cast<double>(switches_), "count",
          "contexts loaded into a slot for a request: a slot's first, or in place of another process's "
          "(runtime.contexts.per_process)")
        .add("context_switch_ms", models::to_ms(switching_), "ms", "time requests waited for those switches");
}

}  // namespace rsoc::runtime
