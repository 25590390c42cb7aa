#pragma once
// The centralized manager of the modeled OS. Functionalities are registered with their software
// implementation (a cycle cost on the CPU) and their hardware implementation (core designs with partial
// bitstreams). For every request a selection policy chooses; the manager keeps the slots (module caching: a
// configured core stays until it must make room; the victim among idle slots by LRU, LFU or FIFO; a core in
// use is never evicted), serialises the configuration port, waits for a slot or falls back to software, runs
// the driver, and records the request. With runtime.prefetch a prefetcher process (run_prefetcher) loads the
// cores it predicts, in cancellable pieces; after a run, optimal_replacement() gives the fewest
// configurations any replacement policy could have needed for the same requests. A request is a number of
// blocks of the functionality's unit (runtime.unit_bytes, a whole number of cipher blocks; one cipher block
// unless set), each one execution. Timing contract: software costs cycles_per_request + blocks *
// (cycles_per_block + unit_bytes * cycles_per_byte + cipher blocks per unit * an extension routine's cycles
// per cipher block) CPU cycles under the scheduler; hardware costs the configuration (when the core is not
// resident) plus what the drivers do over the bus models.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/fpga_slot.h"
#include "models/statistics.h"
#include "runtime/cost_model.h"
#include "runtime/drivers.h"
#include "runtime/functionality.h"
#include "runtime/optimal_replacement.h"
#include "runtime/policy.h"
#include "runtime/prefetch.h"
#include "runtime/process_contexts.h"
#include "runtime/request_record.h"
#include "runtime/scheduler.h"
#include "runtime/slot_table.h"

namespace rsoc::runtime {

// A core design: what a bitstream configures, and where the bitstream is stored.
struct CoreDesign {
  std::string name;
  std::uint32_t id = 0;  // written in the bitstream header
  models::CoreKind kind = models::CoreKind::kAes128;
  std::uint64_t bitstream_address = 0;
  std::uint64_t bitstream_bytes = 0;
  unsigned max_operand_bits = 0;          // modexp cores: the largest modulus it takes
  std::optional<Functionality> serves{};  // custom cores: the functionality it computes
};

// Whether a core of design `d` computes `f`: a custom core its own functionality, the others every
// functionality of their kind (a modexp core those whose operands it takes).
bool implements(const CoreDesign& d, Functionality f);

// Whether `e`, thrown by a hardware run, is a fault the runtime may recover from (an error response, a
// device's failure: DeviceFault, DriverTimeout) rather than a mistake of the scenario (an address nothing
// answers, a buffer that is not memory), which fails the request with its message whatever
// runtime.recovery says.
bool recoverable(const std::exception& e);

// A slot as the OS sees it.
struct SlotView {
  std::string name;
  models::FpgaSlot* slot = nullptr;
  std::uint64_t base = 0;   // CPU address of its register window
  unsigned port_index = 0;  // index at the configuration port
  bool reconfigurable = true;
  std::uint64_t capacity_bytes = 0;
};

// What the runtime does when a fault is detected (scenario section runtime.recovery).
struct RecoveryParams {
  unsigned configuration_retries = 0;  // a configuration the port reports failed is tried again this often
  bool fallback_to_software = false;   // a hardware request that cannot recover runs in software instead
  unsigned retire_after = 0;           // a slot that met this many faults is never used again (0: never)
  // Output checking after every hardware run: CPU cycles per block (0: off). A wrong output (an upset core)
  // is a fault: the core is configured again and run again, else the fallback.
  std::uint64_t verify_cycles_per_block = 0;
};

struct RuntimeParams {
  PolicyKind policy = PolicyKind::kCostModel;
  std::map<Functionality, std::uint64_t> thresholds;
  bool caching = true;
  Replacement replacement = Replacement::kLru;
  bool wait_for_slot = true;  // false: fall back to software when no slot is usable
  DriverCosts driver;
  std::map<Functionality, SoftwareCost> software;
  std::map<Functionality, std::uint64_t> unit_bytes;  // bytes of a block (absent: one cipher block)
  RecoveryParams recovery;
  PrefetchParams prefetch;
  ContextParams contexts;  // processes' set-up and contexts in the cores (runtime/process_contexts.h)
  // With an energy model: the platform's power with nothing busy (the energy policies' floor).
  double energy_floor_mw = 0;
};

// A core a process holds outside the manager's requests (a core library's allocation, see take_core()).
struct CoreLease {
  std::size_t slot = 0;
  std::string slot_name;
  std::uint64_t base = 0;  // CPU address of its register window
  const models::IpCore* core = nullptr;
};

struct RequestOutcome {
  std::vector<std::uint8_t> output;
  RequestRecord record;
};

class Manager final : public models::StatisticsSource {
 public:
  using Sink = std::function<void(const RequestRecord&)>;

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
  void unload_idle();
  // The driver of the cores (its counters: polls, recordings, replays).
  const CoreDriver& driver() const { return driver_; }
  // The body of the prefetcher process (runtime.prefetch): waits for a prediction it can act on, configures
  // its core, and so on; never returns. A prefetch goes through the port in pieces and is cancelled (aborted)
  // when a request needs the port for another core; a request for the core being prefetched waits for it.
  void run_prefetcher(Process& p);

  // Cores as a core library hands them out to software that drives them itself (the HSM firmware's libhal,
  // hal_core_alloc): any idle core of `kind` configured in a slot, the least recently used first; nothing
  // when every one is taken (the caller decides how to wait). The core stays taken, and ordinary requests
  // wait for its slot, until give_back(). stamp() confirms an allocation: the core becomes the most recently
  // used (libhal updates the order only once every core it asked for was taken).
  std::optional<CoreLease> take_core(models::CoreKind kind);
  void stamp(const CoreLease& lease);
  void give_back(Process& p, const CoreLease& lease);
  // How many cores of `kind` are configured in slots.
  std::size_t cores_of(models::CoreKind kind) const;

  // Requests an application runs itself (with a RequestScope) are numbered and recorded here, with the
  // manager's own: one sequence of ids, one sink.
  std::uint64_t next_id() { return next_id_++; }
  void record(const RequestRecord& r);
  std::uint64_t recorded() const { return recorded_; }

  const std::vector<SlotView>& slots() const { return slots_; }
  const SelectionPolicy& policy() const { return *policy_; }
  std::uint64_t cache_hits() const { return hits_; }
  std::uint64_t cache_misses() const { return misses_; }
  std::uint64_t evictions() const { return evictions_; }
  std::uint64_t fallbacks() const { return fallbacks_; }
  std::uint64_t slot_waits() const { return slot_waits_; }
  std::uint64_t faults_detected() const { return faults_detected_; }
  std::uint64_t retired_slots() const { return retired_; }
  std::string resident(std::size_t slot) const;  // design name the OS believes is in the slot ("" if none)
  // The fewest configurations any replacement policy could have needed for the hardware requests served so
  // far, in their order, with these slots (runtime/optimal_replacement.h); cache_misses() is what the
  // configured policy needed.
  OptimalReplacement optimal_replacement() const;
  // StatisticsSource: the `manager` group (cache hits and misses, evictions, fallbacks, slot waits).
  void statistics(double end_ms, std::vector<models::StatGroup>& out) const override;

 private:
  // The reference of a request's inputs: checks a candidate output against reference_output() (by the key's
  // OutputCheck: an RSA signature by the public operation) and computes that output only when asked for it
  // (the software implementation's output).
  struct Reference {
    Reference(Functionality of, bool encrypting, std::vector<std::uint8_t> input,
              std::shared_ptr<const OutputCheck> key_check)
        : f(of), encrypt(encrypting), data(std::move(input)), check(std::move(key_check)) {}
    Functionality f;
    bool encrypt;
    std::vector<std::uint8_t> data;
    std::shared_ptr<const OutputCheck> check;  // of the key (shared by the key's references)
    bool matches(const std::vector<std::uint8_t>& candidate) const;
    const std::vector<std::uint8_t>& output() const;

   private:
    mutable std::optional<std::vector<std::uint8_t>> output_;
  };

  const CoreDesign* design_for(Functionality f) const;
  bool hostable(const CoreDesign& d) const;  // some slot holds it or could be configured with it
  int index_of(const CoreDesign* d) const { return d ? static_cast<int>(d - designs_.data()) : -1; }
  // What the policy sees of a request at `now` (the requesting process's time).
  RequestView view_of(Functionality f, std::uint64_t blocks, const CoreDesign* d,
                      const sc_core::sc_time& now) const;
  // The reference for these inputs, made again only when they differ from the previous request's
  // (experiments repeat one request in software and in hardware), with the check of one of the last keys
  // used (check_of). Shared: a request keeps its own while another process's request replaces the manager's.
  std::shared_ptr<const Reference> reference(Functionality f, const std::vector<std::uint8_t>& key,
                                             const std::vector<std::uint8_t>& data, bool encrypt);

  RuntimeParams params_;
  std::vector<SlotView> slots_;
  std::vector<CoreDesign> designs_;
  SlotTable table_;
  std::vector<sc_core::sc_time> busy_until_;  // predicted end of the request using each slot
  std::unique_ptr<ReconfigurationDriver> reconfiguration_;
  const CostModel* model_;
  std::unique_ptr<SelectionPolicy> policy_;
  CoreDriver driver_;
  ProcessContexts contexts_;
  std::shared_ptr<const Reference> reference_;  // the last one computed
  // The output checks of the keys used last (building one tests an RSA key's primes), most recent first.
  static constexpr std::size_t kChecksKept = 16;
  std::vector<std::shared_ptr<const OutputCheck>> checks_;
  std::shared_ptr<const OutputCheck> check_of(Functionality f, const std::vector<std::uint8_t>& key);
  Sink sink_;
  sc_core::sc_event slot_released_, port_released_;
  bool port_busy_ = false;
  std::uint64_t next_id_ = 0, recorded_ = 0, hits_ = 0, misses_ = 0, evictions_ = 0, fallbacks_ = 0,
                slot_waits_ = 0;
  // Fault recovery: faults the runtime detected, configurations tried again, requests run in software after
  // a fault, slots retired, and the faults each slot met.
  std::uint64_t faults_detected_ = 0, configuration_retries_ = 0, fault_fallbacks_ = 0, retired_ = 0,
                corruptions_detected_ = 0, silent_corruptions_ = 0, watchdog_timeouts_ = 0;
  // Configures slot `s` with `design` for the request, retrying as runtime.recovery allows, its attempts
  // counted as `use` (kReconfig, or kRecovery for a repair); false when it failed (`error` says why).
  bool configure_slot(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& design, TimeUse use,
                      std::string& reason, std::string& error);
  // Runs the request's blocks on the core in the slot of `view` (and the output check's cycles); notes in
  // r.upset whether an upset corrupted any of its results.
  std::vector<std::uint8_t> run_on_core(Process& p, RequestRecord& r, const SlotView& view, Functionality f,
                                        const std::vector<std::uint8_t>& key,
                                        const std::vector<std::uint8_t>& data, bool encrypt,
                                        std::uint64_t unit_bytes);
  std::vector<std::uint64_t> slot_faults_;
  // The optimal replacement bound: the designs of the hardware requests in the order they took a slot, and
  // the slots as they were at the start.
  std::vector<int> served_;
  std::vector<ReplacementSlot> replacement_slots_;

  // Prefetching: each application's predicted next functionality (until its next request), what followed
  // what in each application (history), the prefetch in progress, and the unused prefetched cores (the time
  // their configuration took, by slot).
  struct Prefetch {
    std::size_t slot = 0;
    int design = -1;
    sc_core::sc_time start{sc_core::SC_ZERO_TIME};
  };
  std::optional<Prefetch> next_prefetch() const;
  void predict(const std::string& app, Functionality f);
  // A request takes slot `s` (`configure`: to configure it): a prefetched core there was useful (its whole
  // configuration hidden, or the part done when the request `overtook` it in progress), or wasted.
  void take_prefetched(std::size_t s, bool configure, const std::optional<sc_core::sc_time>& overtook,
                       RequestRecord& r);
  void wake_prefetcher() {
    if (params_.prefetch.predictor != Predictor::kNone) prefetch_wakeup_.notify(sc_core::SC_ZERO_TIME);
  }
  std::map<std::string, Functionality> predicted_, last_;
  std::map<std::string, std::map<Functionality, std::map<Functionality, std::uint64_t>>> successors_;
  std::optional<Prefetch> prefetching_;
  bool cancel_prefetch_ = false;
  std::uint64_t waiting_ = 0;  // requests waiting for a slot or the port: no prefetch starts meanwhile
  std::vector<std::optional<sc_core::sc_time>> prefetched_;
  sc_core::sc_event prefetch_wakeup_;
  std::uint64_t prefetches_ = 0, prefetch_useful_ = 0, prefetch_wasted_ = 0, prefetch_cancelled_ = 0,
                prefetch_failed_ = 0;
  sc_core::sc_time prefetch_hidden_{sc_core::SC_ZERO_TIME};
  // Counts a fault of slot `s` (met by request `r`); retires the slot when it has met retire_after. Returns
  // whether it did.
  bool count_fault(std::size_t s, RequestRecord& r);
  // Counts what process `p` spent since the ledger read `since` as recovery (work a fault made useless).
  static void recount_as_recovery(Process& p, const Process::Ledger& since);
};

}  // namespace rsoc::runtime
