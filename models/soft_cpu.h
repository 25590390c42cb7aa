#pragma once
// SoftCpu: a soft processor as a cost model (no instruction-set simulation), with 1..n hardware threads that
// share one TLM-2.0 initiator socket. Software is described by the cycles it spends and the accesses it
// makes. Timing contract: compute(c) costs c cycles of the CPU clock; every MMIO access costs mmio_cycles CPU
// cycles to issue plus the bus path's annotated delay (the thread stalls on a blocking load/store); a stream
// copy costs max(copy cycles per word, every other stage of its path) per word. Loosely timed: each hardware
// thread keeps a tlm_quantumkeeper and synchronises when its local offset exceeds the global quantum.
// Threads that share one core (smt_throughput > 0) compute slower while others are active: a computation's
// time is set by how many threads are active when it starts (a thread is active while the OS runs a process
// on it: set_active()). Extension units (attach_extension) add instructions with exact semantics and no
// timing of their own: software charges their cycles through compute() (models/extension_unit.h).
// Energy (models/energy.h): idle power over the run, and each busy thread adds active - idle while busy; the
// thread's payloads (accesses, copy loops, replays) carry the account of the process the OS runs on it.

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/energy.h"
#include "models/extension_unit.h"
#include "models/kernel_time.h"
#include "models/pio_replay.h"
#include "models/riscv_hart.h"
#include "models/statistics.h"

namespace rsoc::models {

// A CPU's power (models/energy.h), at its clock: `idle_mw` while no thread is busy, and each busy thread
// (computing or stalled on a device) adds `active_mw - idle_mw`.
struct CpuPower {
  double active_mw = 0, idle_mw = 0;
};

struct CpuParams {
  sc_core::sc_time clock_period{10, sc_core::SC_NS};
  unsigned hw_threads = 1;
  unsigned mmio_cycles = 1;            // CPU cycles to issue one load/store to a device
  unsigned stream_chunk_words = 1024;  // granularity of stream copies (interleaving with other traffic)
  // Hardware threads sharing one core (SMT): what all of them together compute, relative to one thread alone
  // (0: independent threads, each at full speed). With k of n threads active, each runs at T(k)/k of full
  // speed, T(k) = 1 + (smt_throughput - 1)(k - 1)/(n - 1). Code may have a gain of its own (compute()'s
  // smt_throughput): a thread's speed then follows the gain of the code it runs.
  double smt_throughput = 0;
  std::optional<CpuPower> power = std::nullopt;  // appears in its stats as energy_mj; none: no energy
  // An instruction-set model besides the cost model: software that is code (runtime/software_program.h)
  // runs on a hart of it, timed by its profile (models/riscv_hart.h); none: a cost model only.
  std::optional<IssParams> iss = std::nullopt;
};

// An access that answered with an error response.
class BusError : public std::runtime_error {
 public:
  BusError(const std::string& what, std::uint64_t address, tlm::tlm_response_status status)
      : std::runtime_error(what), address_(address), status_(status) {}
  std::uint64_t address() const { return address_; }
  tlm::tlm_response_status status() const { return status_; }

 private:
  std::uint64_t address_;
  tlm::tlm_response_status status_;
};

class SoftCpu;

// One hardware thread: the execution context software runs in. Must be used from one SC_THREAD at a time.
class CpuThread {
 public:
  CpuThread(SoftCpu& cpu, unsigned index);

  // With `smt_throughput` > 0 (a shared core only), the code's own gain from the core's threads in place of
  // the CPU's (CpuParams::smt_throughput).
  void compute(std::uint64_t cycles, double smt_throughput = 0);
  // Accounts `t` of computation that the caller has already spent in simulated time (an OS scheduler that
  // timed it with a kernel wait so that it could be preempted).
  void charge(const sc_core::sc_time& t);
  // Busy-waits on a device until local time `until` (a polling loop whose device reads are not modelled one
  // by one, e.g. a UART's transmit-empty flag): the thread is stalled on the device (io time), its cycles
  // spent. Nothing happens when `until` is not ahead of the thread's time.
  void busy_wait(const sc_core::sc_time& until);
  // Untimed-safe accessors: return the response status; data in host byte order.
  tlm::tlm_response_status read(std::uint64_t address, void* data, unsigned length) {
    return transport(tlm::TLM_READ_COMMAND, address, static_cast<unsigned char*>(data), length);
  }
  tlm::tlm_response_status write(std::uint64_t address, const void* data, unsigned length) {
    // TLM payloads carry a non-const pointer; a write never modifies the data.
    return transport(tlm::TLM_WRITE_COMMAND, address, static_cast<unsigned char*>(const_cast<void*>(data)),
                     length);
  }
  // A load or store of an instruction-set CPU (models/riscv_hart.h), whose instruction has been charged its
  // own cycles: the bus path's delay, and no mmio_cycles to issue it.
  tlm::tlm_response_status instruction_access(tlm::tlm_command command, std::uint64_t address,
                                              unsigned char* data, unsigned length) {
    return transport(command, address, data, length, false);
  }
  // 32-bit accessors that throw BusError on an error response.
  std::uint32_t read32(std::uint64_t address) {
    std::uint32_t value = 0;
    const tlm::tlm_response_status status = read(address, &value, 4);
    if (status != tlm::TLM_OK_RESPONSE) fail("read", address, status);
    return value;
  }
  void write32(std::uint64_t address, std::uint32_t value) {
    const tlm::tlm_response_status status = write(address, &value, 4);
    if (status != tlm::TLM_OK_RESPONSE) fail("write", address, status);
  }
  // A CPU copy loop moving `words` words from `src` to `dst` at `cycles_per_word` (see stream_words).
  tlm::tlm_response_status stream_copy(std::uint64_t src, std::uint64_t dst, bool dst_fixed,
                                       std::uint64_t words, unsigned cycles_per_word,
                                       std::string* bottleneck = nullptr);

  // PIO record and replay (models/pio_replay.h). Between begin_recording(r) and end_recording(r) every access
  // of this thread is noted in `r` by the models on its path; end_recording() notes in `r` what the
  // accesses and computations in between cost the thread. A recording that another one replaced in between
  // (another process recorded on this thread) is refused.
  void begin_recording(PioRecording& r);
  void end_recording(PioRecording& r);
  // `repetitions` more repetitions of what `r` recorded, one after the other, with `data` (`length` bytes:
  // their new inputs in turn, each replaced by its result): one payload to `address`, then the thread charged
  // what the recorded repetition cost it, that many times. Nothing else runs between them: the caller sends
  // more than one only where it would not have let anything else run (repetitions_before_sync()).
  tlm::tlm_response_status replay(std::uint64_t address, void* data, unsigned length, PioRecording& r,
                                  std::uint64_t repetitions = 1);
  // How many repetitions of `r` (at most `most`, at least one) end before the thread's next synchronisation
  // with the kernel, from now: one where a model on the path replays one at a time.
  std::uint64_t repetitions_before_sync(const PioRecording& r, std::uint64_t most) const;

  // Untimed debug access through the buses (TLM transport_dbg): data software already holds in memory, placed
  // or taken at no simulated cost. Returns the bytes moved.
  unsigned debug_write(std::uint64_t address, const void* data, unsigned length);
  unsigned debug_read(std::uint64_t address, void* data, unsigned length);

  // The OS runs a process on this thread (SMT: the other threads compute slower meanwhile).
  void set_active(bool active);
  // The time `cycles` cycles take on this thread now (slower while other threads of a shared core are
  // active; with `smt_throughput` > 0, at that gain of the code's in place of the CPU's).
  sc_core::sc_time cycle_time(std::uint64_t cycles, double smt_throughput = 0) const;

  // Energy (models/energy.h): what this thread's accesses and copies make the models spend is paid by
  // `account` (the OS process running on it; null: nobody) from now on.
  void set_payer(EnergyAccount* account) {
    payer_ = account;
    trans_tag_->account = account;
    replay_tag_->account = account;
  }

  // Brings the kernel to this thread's local time (at no offset, lets whatever else is due at this instant run
  // first; with nothing due, returns at once).
  void sync();
  // Whether no other process of the kernel can run before this thread's local time: no activity is due in the
  // kernel up to and including it (so a synchronisation would only advance the kernel's time).
  bool nothing_due_by_now() const { return sc_core::sc_time_to_pending_activity() > qk_.get_local_time(); }
  // What the OS needs before it looks at its run queue: the kernel's work up to this thread's local time done,
  // so that what became ready by then is seen. Synchronises unless nothing_due_by_now().
  void catch_up() {
    if (!nothing_due_by_now()) sync();
  }
  // The thread's local offset, given up (zero after) without synchronising: the OS passes it to the process it
  // runs next (woken that much later) when nothing_due_by_now(), in place of a synchronisation.
  sc_core::sc_time hand_over() {
    const sc_core::sc_time lead = qk_.get_local_time();
    qk_.reset_at(kernel_time() + lead);
    return lead;
  }
  // Local time: kernel time plus the thread's offset.
  sc_core::sc_time now() const { return kernel_time() + qk_.get_local_time(); }
  unsigned index() const { return index_; }
  SoftCpu& cpu() { return cpu_; }
  const SoftCpu& cpu() const { return cpu_; }

  // This thread's context of the extension unit `name` (its own registers); throws std::out_of_range naming
  // the unit when the CPU has no such extension.
  ExtensionUnit& extension(const std::string& name);
  const ExtensionUnit& extension(const std::string& name) const;
  bool has_extension(const std::string& name) const;
  // The extension unit custom-0 instructions reach (models/riscv_timing.h): the first attached; null: none.
  ExtensionUnit* custom_extension() { return extensions_.empty() ? nullptr : extensions_.front().get(); }

  std::uint64_t cycles() const { return cycles_; }
  std::uint64_t accesses() const { return accesses_; }
  sc_core::sc_time compute_time() const { return compute_time_; }
  sc_core::sc_time io_time() const { return io_time_; }
  sc_core::sc_time busy_time() const { return compute_time_ + io_time_; }

 private:
  friend class SoftCpu;  // attach_extension() gives every thread its context

  // tlm_quantumkeeper that reads the kernel time inline, keeps the global quantum at hand, and can test for a
  // synchronisation against a kernel time the caller already has. Same synchronisation points.
  class QuantumKeeper : public tlm_utils::tlm_quantumkeeper {
   public:
    bool need_sync_at(const sc_core::sc_time& kernel_now) const {
      return kernel_now + m_local_time >= m_next_sync_point;
    }
    const sc_core::sc_time& next_sync_point() const { return m_next_sync_point; }
    void reset() override { reset_at(kernel_time()); }
    // No local offset, the kernel's time being `now` (now or once the thread's time is handed over).
    void reset_at(const sc_core::sc_time& now) {
      m_local_time = sc_core::SC_ZERO_TIME;
      // The next synchronisation point is the end of the global quantum `now` is in: while it is still before
      // the one computed last (with the same quantum), it is that one (no division).
      const sc_core::sc_time& quantum = global_->get();
      if (now < m_next_sync_point && quantum == quantum_) return;
      quantum_ = quantum;
      // tlm_global_quantum::compute_local_quantum() from `now` rather than from the kernel's time.
      m_next_sync_point = now + (quantum == sc_core::SC_ZERO_TIME ? quantum : quantum - now % quantum);
    }

   private:
    tlm::tlm_global_quantum* global_ = &tlm::tlm_global_quantum::instance();
    sc_core::sc_time quantum_{sc_core::SC_ZERO_TIME};  // the quantum m_next_sync_point was computed with
  };

  // `issue`: the access costs mmio_cycles to issue.
  tlm::tlm_response_status transport(tlm::tlm_command command, std::uint64_t address, unsigned char* data,
                                     unsigned length, bool issue = true);
  // Throws the BusError of a failed read32() or write32() (out of line: they are inline, on every access).
  [[noreturn]] void fail(const char* access, std::uint64_t address, tlm::tlm_response_status status) const;
  // Sets the local offset and synchronises when it exceeds the quantum; `kernel_now` is kernel_time().
  void keep(const sc_core::sc_time& local, const sc_core::sc_time& kernel_now);
  void keep(const sc_core::sc_time& local) { keep(local, kernel_time()); }

  SoftCpu& cpu_;
  unsigned index_;
  std::vector<std::unique_ptr<ExtensionUnit>> extensions_;  // thread context, see extension_unit.h
  bool active_ = false;
  sc_core::sc_time issue_;  // mmio_cycles: issuing one load/store
  QuantumKeeper qk_;
  tlm::tlm_generic_payload trans_;         // every access; carries pio_ (inactive unless recording)
  tlm::tlm_generic_payload replay_trans_;  // replays; carries replay_
  PioReplayExtension* pio_ = nullptr;      // owned by trans_
  PioReplayExtension* replay_ = nullptr;   // owned by replay_trans_
  EnergyTag* trans_tag_ = nullptr;         // owned by trans_
  EnergyTag* replay_tag_ = nullptr;        // owned by replay_trans_
  EnergyAccount* payer_ = nullptr;
  // A recording's start: the thread's counters then.
  struct Snapshot {
    sc_core::sc_time now, compute, io;
    std::uint64_t accesses = 0, cycles = 0;
  } recording_from_;
  std::uint64_t cycles_ = 0, accesses_ = 0;
  sc_core::sc_time compute_time_{sc_core::SC_ZERO_TIME}, io_time_{sc_core::SC_ZERO_TIME};
};

class SoftCpu : public sc_core::sc_module, public StatisticsSource {
 public:
  // StatisticsSource: its counters (models/statistics.h).
  void statistics(double end_ms, std::vector<StatGroup>& out) const override;
  StatisticsRank statistics_rank() const override { return StatisticsRank::kCpu; }
  tlm_utils::simple_initiator_socket<SoftCpu> initiator{"initiator"};

  SoftCpu(const sc_core::sc_module_name& name, const CpuParams& params);

  const CpuParams& params() const { return params_; }
  // Adds an extension unit: every hardware thread gets its own context, prototype.new_context(). Throws
  // ElaborationError when the CPU already has an extension of that name.
  void attach_extension(const ExtensionUnit& prototype);
  // The time of n cycles (models/kernel_time.h periods(): std::overflow_error rather than a wrapped time).
  sc_core::sc_time cycles(std::uint64_t n) const {
    return whole_periods(params_.clock_period, n, "a computation on the CPU");
  }
  CpuThread& thread(unsigned i) { return *threads_.at(i); }
  unsigned thread_count() const { return static_cast<unsigned>(threads_.size()); }
  // How much longer a computation takes on a thread while `active` threads (itself included) are active.
  double smt_slowdown(unsigned active, double smt_throughput) const;
  // Notified when a thread becomes active or inactive (SMT: the others' speed changes).
  const sc_core::sc_event& threads_changed() const { return threads_changed_; }
  // Its power (CpuParams::power; zero without one).
  bool has_power() const { return params_.power.has_value(); }
  double idle_mw() const { return params_.power ? params_.power->idle_mw : 0.0; }
  double busy_thread_mw() const {  // what a busy thread adds
    return params_.power ? params_.power->active_mw - params_.power->idle_mw : 0.0;
  }

 private:
  friend class CpuThread;
  CpuParams params_;
  unsigned active_threads_ = 0;
  sc_core::sc_event threads_changed_;
  std::vector<std::unique_ptr<CpuThread>> threads_;
};

}  // namespace rsoc::models
