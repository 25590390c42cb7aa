#pragma once
// The centralized manager of the modeled OS. Functionalities are registered with their software
// implementation (a cycle cost on the CPU) and their hardware implementation (core designs with partial
// bitstreams). Every request goes through one pipeline (Manager::request): admit (inputs the functionality
// can take), decide (the selection policy, or the caller), lease (a slot from the slot broker, waiting or
// falling back to software as the runtime says), run (in hardware with recovery, or in software), verify
// (the output against the reference), learn (the policy observes, the prefetcher predicts) and record (the
// request ledger). Each step's mechanism has its own file: runtime/slot_broker.h (slots, module caching, the
// configuration port), runtime/prefetch.h, runtime/recovery.h, runtime/output_verifier.h,
// runtime/request_ledger.h, runtime/process_contexts.h. A request is a number of blocks of the
// functionality's unit (runtime.unit_bytes, a whole number of cipher blocks; one cipher block unless set),
// each one execution. Timing contract: software costs cycles_per_request + blocks * (cycles_per_block +
// unit_bytes * cycles_per_byte + cipher blocks per unit * an extension routine's cycles per cipher block) CPU
// cycles under the scheduler; hardware costs the configuration (when the core is not resident) plus what
// the drivers do over the bus models (or, for a driver that is code, its instructions and their accesses).

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/statistics.h"
#include "runtime/cost_model.h"
#include "runtime/drivers.h"
#include "runtime/functionality.h"
#include "runtime/optimal_replacement.h"
#include "runtime/output_verifier.h"
#include "runtime/policy.h"
#include "runtime/prefetch.h"
#include "runtime/process_contexts.h"
#include "runtime/recovery.h"
#include "runtime/request_ledger.h"
#include "runtime/request_record.h"
#include "runtime/request_scope.h"
#include "runtime/scheduler.h"
#include "runtime/slot_broker.h"
#include "runtime/software_program.h"

namespace rsoc::runtime {

struct RuntimeParams {
  PolicyKind policy = PolicyKind::kCostModel;
  std::map<Functionality, std::uint64_t> thresholds;
  bool caching = true;
  Replacement replacement = Replacement::kLru;
  bool wait_for_slot = true;  // false: fall back to software when no slot is usable
  DriverCosts driver;
  // Drivers that are code, by functionality: run in place of the driver model's PIO path (runtime.driver.
  // programs); the driver's per-request and per-block cycles are then the OS's work around the call.
  std::map<Functionality, std::shared_ptr<const DriverProgram>> driver_programs;
  std::map<Functionality, SoftwareCost> software;
  std::map<Functionality, std::uint64_t> unit_bytes;  // bytes of a block (absent: one cipher block)
  RecoveryParams recovery;
  PrefetchParams prefetch;
  ContextParams contexts;  // processes' set-up and contexts in the cores (runtime/process_contexts.h)
  // With an energy model: the platform's power with nothing busy (the energy policies' floor).
  double energy_floor_mw = 0;
};

struct RequestOutcome {
  std::vector<std::uint8_t> output;
  RequestRecord record;
};

class Manager final : public models::StatisticsSource {
 public:
  using Sink = RequestLedger::Sink;

  // `model` predicts latencies for the cost_model policy and for slot waits (may be null for other policies).
  // `path`: how the core driver moves blocks (PIO unless it names a DMA channel).
  Manager(const RuntimeParams& params, std::vector<SlotView> slots, std::vector<CoreDesign> designs,
          std::unique_ptr<ReconfigurationDriver> reconfiguration, const CostModel* model, Sink sink,
          const DataPath& path = {});

  // Runs one request for process `p` and records it. `issued`: when the application asked (default: now).
  // `force_hardware` bypasses the policy (experiments that measure one implementation).
  RequestOutcome request(Process& p, const std::string& app, Functionality f,
                         const std::vector<std::uint8_t>& key, const std::vector<std::uint8_t>& data,
                         bool encrypt, std::optional<sc_core::sc_time> issued = std::nullopt,
                         std::optional<bool> force_hardware = std::nullopt);
  // Forgets every idle configured core: the next hardware request reconfigures (crossover experiments).
  void unload_idle() {
    slots_.unload_idle();
    prefetcher_.unload_idle();
  }
  // The driver of the cores (its counters: polls, recordings, replays).
  const CoreDriver& driver() const { return driver_; }
  // The software that is code, run on the instruction-set CPU (its counters).
  const ProgramRunner& programs() const { return programs_; }
  // The body of the prefetcher process (runtime.prefetch; runtime/prefetch.h); never returns.
  void run_prefetcher(Process& p) { prefetcher_.run(p); }

  // The slots and the cores in them; a core library leases cores here (SlotBroker::take_core).
  SlotBroker& slots() { return slots_; }
  const SlotBroker& slots() const { return slots_; }
  // Requests an application runs itself (with a RequestScope) are numbered and recorded here, with the
  // manager's own: one sequence of ids, one sink.
  RequestLedger& ledger() { return ledger_; }
  const SelectionPolicy& policy() const { return *policy_; }
  const Recovery& recovery() const { return recovery_; }
  // StatisticsSource: the `manager` group (slots, faults, prefetching, contexts).
  void statistics(double end_ms, std::vector<models::StatGroup>& out) const override;
  models::StatisticsRank statistics_rank() const override { return models::StatisticsRank::kManager; }

 private:
  // A request on its way through the pipeline.
  struct Job {
    Process& p;
    const std::string& app;
    Functionality f;
    const std::vector<std::uint8_t>& key;
    const std::vector<std::uint8_t>& data;
    bool encrypt;
    std::uint64_t unit_bytes;
    const SoftwareCost* software;  // null: no software implementation
    RequestOutcome& out;
    RequestScope& scope;
    std::shared_ptr<const OutputVerifier::Reference> reference{};
    const CoreDesign* design = nullptr;  // the design that implements f (null: none)
    bool hardware = false;
    bool configure = false;  // the slot leased must be configured
    std::optional<SlotBroker::Lease> slot{};
    std::string reason{};
    std::uint64_t cpu_wait_before = 0;  // the process's kCpuWait when the implementation started
  };
  // The steps of request(), in order.
  bool admit(Job& job);
  void decide(Job& job, std::optional<bool> force_hardware);
  bool lease(Job& job);
  void run_in_hardware(Job& job);
  void run_in_software(Job& job);
  void verify(Job& job);
  void learn(const Job& job);
  // A request that runs nothing: recorded as failed with `problem`.
  void refuse(Job& job, const std::string& problem);
  // The request's blocks on the core in the slot of `view` (and the output check's cycles); notes in
  // r.upset whether an upset corrupted any of its results.
  std::vector<std::uint8_t> run_on_core(Job& job, const SlotView& view);
  // What the policy sees of a request at `now` (the requesting process's time).
  RequestView view_of(const Job& job, const sc_core::sc_time& now) const;

  RuntimeParams params_;
  CoreDriver driver_;
  SlotBroker slots_;
  Prefetcher prefetcher_;
  Recovery recovery_;
  ProcessContexts contexts_;
  const CostModel* model_;
  std::unique_ptr<SelectionPolicy> policy_;
  OutputVerifier verifier_;
  ProgramRunner programs_;
  RequestLedger ledger_;
};

}  // namespace rsoc::runtime
