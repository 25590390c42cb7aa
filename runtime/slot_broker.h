#pragma once
// SlotBroker: the FPGA slots as the modeled OS hands them out, and the configuration port they are loaded
// through. It keeps the slot table (runtime/slot_table.h: which core each slot holds, which is in use, the
// replacement order), chooses a slot for a request (module caching: a configured core stays until it must
// make room; a core in use is never evicted), lets a request wait for a slot, and leases slots: to a request
// of the manager (Lease, released when the request is done with it) and to a core library that drives the
// cores itself (take_core). The port carries one configuration at a time: a request's (PortLease), or one the
// runtime starts on its own (configure_in_background: a prefetch), which gives way when a request needs the
// port or the slot.
// Timing contract: choosing and leasing take no simulated time; waits for a slot or the port are the
// requester's (kSlotWait), and it learns of a release at the releaser's time (Process::notify); a
// configuration costs what the reconfiguration driver does over the bus models.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/fpga_slot.h"
#include "models/ip_core.h"
#include "models/statistics.h"
#include "runtime/drivers.h"
#include "runtime/functionality.h"
#include "runtime/optimal_replacement.h"
#include "runtime/policy.h"
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

// A slot as the OS sees it.
struct SlotView {
  std::string name;
  models::FpgaSlot* slot = nullptr;
  std::uint64_t base = 0;   // CPU address of its register window
  unsigned port_index = 0;  // index at the configuration port
  bool reconfigurable = true;
  std::uint64_t capacity_bytes = 0;
};

// A core a process holds outside the manager's requests (a core library's allocation, see take_core()).
struct CoreLease {
  std::size_t slot = 0;
  std::string slot_name;
  std::uint64_t base = 0;  // CPU address of its register window
  const models::IpCore* core = nullptr;
};

class SlotBroker {
 public:
  // `reconfiguration`: null when the platform has no configuration port (only static slots). `caching`:
  // without it a core leaves its slot when its request is done. `driver` learns of every configuration (the
  // core holds no key any more).
  SlotBroker(std::vector<SlotView> slots, std::vector<CoreDesign> designs, Replacement replacement,
             bool caching, std::unique_ptr<ReconfigurationDriver> reconfiguration, CoreDriver& driver);

  // The design that implements `f`: a resident one first, else the first registered (null: none).
  const CoreDesign* design_for(Functionality f) const;
  // Whether some slot holds `d` or could be configured with it (faults may have retired the others).
  bool hostable(const CoreDesign& d) const;
  // What the policy sees of the hardware for `d` at `now`: v.has_hardware, resident, resident_idle,
  // no_hardware and the predicted wait for a slot when none is usable.
  void describe(const CoreDesign& d, const sc_core::sc_time& now, RequestView& v) const;
  // The request using slot `s` is predicted to end at `t` (the cost model's estimate, for slot waits).
  void expect_busy_until(std::size_t s, const sc_core::sc_time& t) { busy_until_[s] = t; }

  // A request's hold on a slot: released (the table updated, the waiters told at the holder's time) by
  // release() or when destroyed.
  class Lease {
   public:
    Lease(SlotBroker& broker, Process& p, std::size_t slot) : broker_(&broker), p_(&p), slot_(slot) {}
    Lease(Lease&& other) noexcept : broker_(other.broker_), p_(other.p_), slot_(other.slot_) {
      other.broker_ = nullptr;
    }
    Lease& operator=(Lease&& other) noexcept {
      if (this != &other) {
        release();
        broker_ = std::exchange(other.broker_, nullptr);
        p_ = other.p_;
        slot_ = other.slot_;
      }
      return *this;
    }
    Lease(const Lease&) = delete;
    ~Lease() { release(); }
    void release();
    std::size_t slot() const { return slot_; }

   private:
    SlotBroker* broker_;
    Process* p_;
    std::size_t slot_;
  };
  // The slot where a request for `d` can run now, taken (the core resident there, else an empty slot it
  // fits, else the replacement policy's victim among the idle ones; `holds(slot)`, when given, says whether a
  // slot holds the requester's context: preferred among resident copies); nothing when every usable slot is
  // in use. What was chosen is added to `reason`; `configure` says whether the slot must be configured.
  std::optional<Lease> take(Process& p, const CoreDesign& d, const std::function<bool(std::size_t)>& holds,
                            bool& configure, std::string& reason);
  // Sleeps until a slot is released (kSlotWait); a configuration in the background into a slot that could
  // host `d` gives way first.
  void wait_for_slot(Process& p, const CoreDesign& d);
  // A request for `d` found it being configured in the background: waits for the rest (counted as
  // kReconfig and added to r.reconfig_ps). Returns how long the background configuration had run when the
  // request came (nothing when it was not loading `d`).
  std::optional<sc_core::sc_time> finish_background(Process& p, const CoreDesign& d, RequestRecord& r);
  // A hardware request ran in software for want of a slot.
  void count_fallback() { ++fallbacks_; }

  // The configuration port, held by a request: waits while another configuration runs (one in the
  // background gives way). release() frees it and tells the one watching the port (when_port_free); when
  // destroyed without it (an exception), the port is only freed.
  class PortLease {
   public:
    PortLease(SlotBroker& broker, Process& p);
    ~PortLease();
    PortLease(const PortLease&) = delete;
    PortLease& operator=(const PortLease&) = delete;
    void release();

   private:
    SlotBroker& broker_;
    Process& p_;
    bool held_ = true;
  };
  // Called when a request frees the port (the prefetcher may start).
  void when_port_free(std::function<void()> f) { port_free_ = std::move(f); }
  // Configures slot `s` with `d` (the port held); false with `error` when the port reports an error.
  bool configure(Process& p, std::size_t s, const CoreDesign& d, std::string& error);
  // A configuration the runtime starts on its own (a prefetch) of design `design` into slot `s`, when the
  // port is free: it goes through the port in pieces and is aborted ("cancelled") when a request needs the
  // port or the slot. `took` is set to how long it took when it succeeded, before anyone learns that the port
  // is free; false with `error` when it did not.
  bool configure_in_background(Process& p, std::size_t s, int design, std::optional<sc_core::sc_time>& took,
                               std::string& error);
  // Whether a configuration may start in the background now: the port is free and no request waits for a
  // slot or the port (requests come first).
  bool background_allowed() const { return !port_busy_ && reconfiguration_ && waiting_ == 0; }

  // Cores as a core library hands them out to software that drives them itself (the HSM firmware's libhal,
  // hal_core_alloc): any idle core of `kind` configured in a slot, the least recently used first; nothing
  // when every one is taken (the caller decides how to wait). The core stays taken, and ordinary requests
  // wait for its slot, until give_back(). stamp() confirms an allocation: the core becomes the most recently
  // used (libhal updates the order only once every core it asked for was taken).
  std::optional<CoreLease> take_core(models::CoreKind kind);
  void stamp(const CoreLease& lease) { table_.stamp(lease.slot); }
  void give_back(Process& p, const CoreLease& lease);
  // How many cores of `kind` are configured in slots.
  std::size_t cores_of(models::CoreKind kind) const;

  // Forgets every idle configured core: the next hardware request reconfigures (crossover experiments).
  void unload_idle() { table_.unload_idle(); }
  // A configuration of `s` failed, or its core failed: it holds nothing. Retiring: never used again.
  void configuration_failed(std::size_t s) { table_.configuration_failed(s); }
  void retire(std::size_t s) { table_.retire(s); }

  const std::vector<SlotView>& slots() const { return slots_; }
  const SlotTable& table() const { return table_; }
  const CoreDesign& design(int index) const { return designs_[static_cast<std::size_t>(index)]; }
  int index_of(const CoreDesign& d) const { return static_cast<int>(&d - designs_.data()); }
  bool can_configure() const { return reconfiguration_ != nullptr; }
  std::string resident(std::size_t slot) const;  // design name the OS believes is in the slot ("" if none)
  std::uint64_t cache_hits() const { return hits_; }
  std::uint64_t cache_misses() const { return misses_; }
  std::uint64_t evictions() const { return evictions_; }
  std::uint64_t fallbacks() const { return fallbacks_; }
  std::uint64_t slot_waits() const { return slot_waits_; }
  // The fewest configurations any replacement policy could have needed for the hardware requests served so
  // far, in their order, with these slots (runtime/optimal_replacement.h); cache_misses() is what the
  // replacement policy needed.
  OptimalReplacement optimal_replacement() const;
  // The statistics of the `manager` group that concern slots: hits, misses, the optimal bound, evictions,
  // fallbacks for want of a slot, slot waits.
  void statistics(models::StatGroup& g) const;

 private:
  // A configuration running in the background, and since when.
  struct Background {
    std::size_t slot = 0;
    int design = -1;
    sc_core::sc_time start{sc_core::SC_ZERO_TIME};
  };
  void wait(Process& p, sc_core::sc_event& e, TimeUse use);
  void release_port(Process& p);

  std::vector<SlotView> slots_;
  std::vector<CoreDesign> designs_;
  SlotTable table_;
  bool caching_;
  std::unique_ptr<ReconfigurationDriver> reconfiguration_;
  CoreDriver& driver_;
  std::vector<sc_core::sc_time> busy_until_;  // predicted end of the request using each slot
  sc_core::sc_event slot_released_, port_released_;
  bool port_busy_ = false;
  std::function<void()> port_free_;
  std::optional<Background> background_;
  bool cancel_background_ = false;
  std::uint64_t waiting_ = 0;  // requests waiting for a slot or the port
  std::uint64_t hits_ = 0, misses_ = 0, evictions_ = 0, fallbacks_ = 0, slot_waits_ = 0;
  // The optimal replacement bound: the designs of the hardware requests in the order they took a slot, and
  // the slots as they were at the start.
  std::vector<int> served_;
  std::vector<ReplacementSlot> replacement_slots_;
};

}  // namespace rsoc::runtime
