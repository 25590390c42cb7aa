#pragma once
// Drivers of the modeled OS: code that runs on a CPU hardware thread and moves data to and from devices over
// TLM. Their cost is what they do: every MMIO word goes through the bus models, every status poll is a read,
// and the per-request / per-block / per-cipher-block software overhead is charged as CPU cycles. A block is
// one execution of the functionality on a unit of data (runtime.unit_bytes: one or more cipher blocks).

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/dma_engine.h"
#include "models/ip_core.h"
#include "models/name_table.h"
#include "models/soft_cpu.h"
#include "runtime/functionality.h"
#include "runtime/scheduler.h"

namespace rsoc::runtime {

// How the PIO loop over the cipher blocks of a request is simulated: kWord puts every cipher block's words
// through the bus models; kBurst the first one, recorded, and replays it for the others, across the request's
// blocks (models/pio_replay.h: the same times, counters and bus bookings when nothing else uses the path
// meanwhile and the recorded cipher block was not interrupted; otherwise that one is re-recorded, and
// contention the replayed accesses would have met is not felt).
enum class PioTiming { kBurst, kWord };
inline constexpr models::NameTable<PioTiming, 2> kPioTimingNames{
    {{{PioTiming::kBurst, "burst"}, {PioTiming::kWord, "word"}}}};

struct DriverCosts {                     // CPU cycles
  std::uint64_t cycles_per_request = 0;  // system call, locking, setup
  // Before a hardware request takes a slot: preparing operands for the core (padding, number conversion),
  // work that needs no core. Charged by the manager, under the scheduler.
  std::uint64_t prepare_cycles_per_request = 0;
  std::uint64_t cycles_per_block = 0;         // per block (one execution): call, buffer handling
  std::uint64_t cycles_per_cipher_block = 0;  // per cipher block (modexp: message): the PIO loop's work
  std::uint64_t poll_loop_cycles = 0;         // software around each status read
  std::uint64_t max_polls = 1000000;          // a core that never answers fails the request
  // The watchdog (runtime.recovery.watchdog_cycles): a status wait or a DMA transfer to or from a core that
  // has not ended this many CPU cycles after it began is given up (DriverTimeout; 0: no watchdog).
  std::uint64_t watchdog_cycles = 0;
  PioTiming pio_timing = PioTiming::kBurst;
};

class DriverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A device failed during a run: a DMA transfer ended with ERROR, a PIO replay was refused, a core never
// became ready within max_polls. A fault the runtime may recover from (runtime.recovery), unlike the other
// DriverErrors, which are mistakes of the scenario (a buffer that is not memory, a FIFO too small).
class DeviceFault : public DriverError {
 public:
  using DriverError::DriverError;
};

// The watchdog ran out: the core never finished (hung); configuring it again is the cure.
class DriverTimeout : public DeviceFault {
 public:
  using DeviceFault::DeviceFault;
};

// A DMA engine as the OS shares it between drivers: one user at a time (a lease, which a driver holds across
// the transfers that use its buffer), the caller sleeping until the engine's interrupt.
class DmaChannel {
 public:
  DmaChannel(std::uint64_t base, models::DmaEngine& engine) : base_(base), engine_(engine) {}
  // The register accesses of one transfer (Lease::transfer): SRC, DST, WORDS and CTRL written, STATUS read
  // (platform/estimate.cpp prices the same).
  static constexpr unsigned kProgramWrites = 4, kProgramReads = 1;

  // Holds the channel for process `p` until destroyed (waits while another process holds it).
  class Lease {
   public:
    Lease(DmaChannel& channel, Process& p);
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    // Moves `words` 32-bit words (a fixed address is a FIFO window); returns false when the engine reports
    // an error. The process sleeps meanwhile (kBusTransfer), except for what the transfer spent on `core`
    // (its stream wait time; kCoreCompute) when the transfer feeds or drains a core. With a `watchdog`
    // (non-zero), a transfer that has not ended that long after it began is aborted (CTRL.ABORT) and
    // DriverTimeout thrown.
    bool transfer(std::uint64_t src, bool src_fixed, std::uint64_t dst, bool dst_fixed, std::uint64_t words,
                  const models::IpCore* core = nullptr,
                  const sc_core::sc_time& watchdog = sc_core::SC_ZERO_TIME);

   private:
    DmaChannel& channel_;
    Process& p_;
  };

 private:
  std::uint64_t base_;
  models::DmaEngine& engine_;
  bool busy_ = false;
  sc_core::sc_event released_;
};

// How block data reaches the cores: programmed I/O by the CPU, or DMA through the cores' streaming windows
// with `buffer` (a RAM region of `buffer_bytes`) holding the input and the results. With several engines (one
// per co-processor) the core at base B uses engines[engine_of[B]] and that engine's equal share of the
// buffer.
struct DataPath {
  std::vector<DmaChannel*> engines;                // empty: PIO
  std::map<std::uint64_t, std::size_t> engine_of;  // core base -> engine (absent: the first)
  std::uint64_t buffer = 0;
  std::uint64_t buffer_bytes = 0;
};

// The DMA data path's pieces (CoreDriver's, and platform/estimate.cpp's price of them). Each of `engines`
// engines has an equal share of a buffer of `buffer_bytes`, in whole words.
inline std::uint64_t buffer_share(std::uint64_t buffer_bytes, std::size_t engines) {
  return buffer_bytes / engines / 4 * 4;
}
// Cipher blocks of `f` in one piece: a piece's input and results share the buffer (`share_bytes`), and the
// core holds a piece's input and its results at once (`fifo_words`, its FIFO_WORDS). 0: not one block.
inline std::uint64_t blocks_per_piece(const FunctionalityInfo& f, std::uint64_t fifo_words,
                                      std::uint64_t share_bytes) {
  const std::uint64_t block_words = f.block_bytes / 4, result_words = f.output_bytes() / 4;
  return std::min<std::uint64_t>(fifo_words / std::max(block_words, result_words),
                                 share_bytes / (f.block_bytes + f.output_bytes()));
}

// Driver of the cores (register maps in models/ip_core.h, programmed as core_interface() of the
// functionality says): loads the key and runs INIT when the core holds another key or direction. Then, by
// PIO, for every block: cycles_per_block, and for each of its cipher blocks: cycles_per_cipher_block, write
// the cipher block, CTRL.NEXT, poll STATUS, read the result (pio_timing says how it is simulated). By DMA,
// in pieces of cipher blocks the core's FIFO_WORDS and the buffer hold: cycles_per_block per block begun in
// the piece and cycles_per_cipher_block per cipher block, the input placed in the buffer, one DMA transfer
// into STREAM_IN and one out of STREAM_OUT, the process asleep during each.
class CoreDriver {
 public:
  explicit CoreDriver(const DriverCosts& costs, const DataPath& path = {}) : costs_(costs), path_(path) {}
  // Processes `data` (whole blocks of `unit_bytes`, a multiple of the cipher block; 0: one cipher block) on
  // the core at `base` for process `p`; returns the output. Between cipher blocks and between status polls
  // the scheduler may run another process. Throws BusError or DriverError. A status read that finds the core
  // busy counts as kCoreCompute in the process's ledger, and so does the part of a DMA transfer the core
  // took (its stream wait time) when `core_model` is the core at `base`.
  std::vector<std::uint8_t> run(Process& p, std::uint64_t base, Functionality f,
                                const std::vector<std::uint8_t>& key, const std::vector<std::uint8_t>& data,
                                bool encrypt, const models::IpCore* core_model = nullptr,
                                std::uint64_t unit_bytes = 0);
  // One cipher block in two halves (a block of one cipher block), so that a process can keep several cores
  // busy at once: start() loads the key if needed, writes the cipher block and starts the core
  // (cycles_per_request + cycles_per_block + cycles_per_cipher_block); finish() polls until the result is
  // valid and reads it.
  void start(Process& p, std::uint64_t base, Functionality f, const std::vector<std::uint8_t>& key,
             const std::vector<std::uint8_t>& block, bool encrypt);
  std::vector<std::uint8_t> finish(Process& p, std::uint64_t base, Functionality f);
  std::uint64_t polls() const { return polls_; }
  // PIO in burst timing: cipher blocks recorded word by word, cipher blocks replayed from a recording, and
  // the replay payloads they took (one for the cipher blocks up to the thread's next synchronisation).
  std::uint64_t recordings() const { return recordings_; }
  std::uint64_t replays() const { return replays_; }
  std::uint64_t replay_payloads() const { return replay_payloads_; }
  const DriverCosts& costs() const { return costs_; }
  // Polls STATUS of the core at `base` until every bit of `mask` is set (poll_loop_cycles around each read,
  // the scheduler may run another process between polls); at most max_polls reads, then DeviceFault; with
  // a watchdog, DriverTimeout at the first poll that finds it not set watchdog_cycles after the first.
  void wait_status(Process& p, std::uint64_t base, std::uint32_t mask) {
    wait_status(p, &base, 1, mask, PollPause::kBetweenPolls);
  }
  // How a status wait lets other processes run: between two polls of a core (Process::poll_pause: a driver's
  // loop), or a yield before every round of reads, the first included (a cooperative tasker's wait: libhal's
  // hal_io_wait).
  enum class PollPause { kBetweenPolls, kYieldEachRound };
  // The same for the `n` cores at `bases` (at most 64) at once: rounds of a status read of each core not done
  // yet, until every one shows `mask`; at most max_polls rounds.
  void wait_status(Process& p, const std::uint64_t* bases, std::size_t n, std::uint32_t mask,
                   PollPause pause);
  // The core at `base` was (re)configured: it holds no key any more.
  void forget(std::uint64_t base) { loaded_.erase(base); }
  // Whether the core at `base` needs no load for `f`'s `key` and direction: it holds them (loaded since its
  // last configuration) and its kind does not run INIT for every request.
  bool holds(std::uint64_t base, Functionality f, const std::vector<std::uint8_t>& key, bool encrypt) const;
  // The core at `base` holds them: a driver that is code loaded them (ProgramRunner::drive).
  void note_loaded(std::uint64_t base, Functionality f, const std::vector<std::uint8_t>& key, bool encrypt) {
    loaded_.insert_or_assign(base, Loaded{f, key, encrypt});
  }

 private:
  // The watchdog's time on `p`'s thread (zero: none).
  sc_core::sc_time watchdog(Process& p) const;
  struct Loaded {
    Functionality f;
    std::vector<std::uint8_t> key;
    bool encrypt;
  };
  // Loads the key, the set-up registers and runs INIT when the core holds another key or direction.
  void load(Process& p, std::uint64_t base, Functionality f, const std::vector<std::uint8_t>& key,
            bool encrypt);
  // What a request's PIO loop records and replays with. A request leases one from the spares (a new one when
  // there is none) and gives it back when it ends.
  struct PioScratch {
    models::PioRecording recording;
    std::vector<std::uint32_t> words;
    class Lease {
     public:
      explicit Lease(std::vector<std::unique_ptr<PioScratch>>& spares) : spares_(spares) {
        if (spares_.empty()) {
          held_ = std::make_unique<PioScratch>();
        } else {
          held_ = std::move(spares_.back());
          spares_.pop_back();
        }
      }
      ~Lease() { spares_.push_back(std::move(held_)); }
      Lease(const Lease&) = delete;
      Lease& operator=(const Lease&) = delete;
      PioScratch* operator->() const { return held_.get(); }
      PioScratch& operator*() const { return *held_; }

     private:
      std::vector<std::unique_ptr<PioScratch>>& spares_;
      std::unique_ptr<PioScratch> held_;
    };
  };
  // The cipher blocks (core.block.bytes each) of `bytes` bytes at `in` in blocks of `unit` bytes, their results
  // (core.result.bytes each) to `out`, by PIO.
  void run_pio(Process& p, std::uint64_t base, const CoreInterface& core, const std::uint8_t* in,
               std::uint8_t* out, std::uint64_t bytes, std::uint64_t unit);
  // What the recorded cipher block cost beside its replayable work: its wait for the core, its status reads.
  struct RecordedBlock {
    sc_core::sc_time core_wait{sc_core::SC_ZERO_TIME};
    std::uint64_t polls = 0;
  };
  // Replays `scratch`'s recording over up to `left` (at least one) cipher blocks from `in`, their results to
  // `out`. Returns how many it stood for, or 0 when the core never finished the replayed cipher block: it was
  // polled to its end, and the next one is recorded again.
  std::uint64_t replay_pio(Process& p, std::uint64_t base, const CoreInterface& core, const std::uint8_t* in,
                           std::uint8_t* out, std::uint64_t left, PioScratch& scratch,
                           const RecordedBlock& recorded);
  // How many of the `left` cipher blocks one replay of `recording` on `cpu` stands for (at least one): those
  // before the thread's next synchronisation with the kernel and before a preemption point that would switch.
  static std::uint64_t replayed_together(const Process& p, const models::CpuThread& cpu,
                                         const models::PioRecording& recording, std::uint64_t left);
  void run_dma(Process& p, std::uint64_t base, const FunctionalityInfo& fi, const CoreInterface& core,
               const std::vector<std::uint8_t>& data, std::vector<std::uint8_t>& out,
               const models::IpCore* core_model, std::uint64_t unit_bytes);
  DriverCosts costs_;
  DataPath path_;
  std::uint64_t polls_ = 0, recordings_ = 0, replays_ = 0, replay_payloads_ = 0;
  std::vector<std::unique_ptr<PioScratch>> spare_;  // left by requests that ended
  // What each core holds: the driver loads the key, the direction and runs INIT only when they change.
  std::map<std::uint64_t, Loaded> loaded_;
};

// A number in a bank of 32-bit registers from `address`, least significant word first (the modexp cores'
// operand banks), written or read as `words` words, one MMIO access each.
void write_number(models::CpuThread& cpu, std::uint64_t address, const crypto::BigInt& v, std::size_t words);
crypto::BigInt read_number(models::CpuThread& cpu, std::uint64_t address, std::size_t words);

// How bitstream words reach the configuration port.
struct ReconfigurationFeed {
  DmaChannel* dma = nullptr;                // null: the CPU copies
  unsigned cpu_copy_cycles_per_word = 120;  // CPU copy loop
};

class ReconfigurationDriver {
 public:
  ReconfigurationDriver(std::uint64_t port_base, const ReconfigurationFeed& feed)
      : port_(port_base), feed_(feed) {}
  // Configures slot `slot_index` (its index at the port) with the bitstream at `address` of `bytes` bytes. A
  // CPU copy keeps the CPU busy; with DMA the process sleeps until the interrupt. Returns false with `error`
  // set when the port reports an error. With `cancelled` (a prefetch), the bitstream goes in pieces of
  // kCancellablePiece words (a DMA transfer each), with a preemption point between them and the configuration
  // aborted ("cancelled") when `cancelled()` says so there.
  bool configure(Process& p, unsigned slot_index, std::uint64_t address, std::uint64_t bytes,
                 std::string* error, const std::function<bool()>& cancelled = {}) const;
  static constexpr std::uint64_t kCancellablePiece = 4096;
  // The port's register accesses of one configuration in one piece: CTRL.START written, STATUS read (with a
  // DMA feed, plus the transfer's: DmaChannel::kProgramWrites and kProgramReads).
  static constexpr unsigned kPortAccesses = 2;

 private:
  std::uint64_t port_;
  ReconfigurationFeed feed_;
};

}  // namespace rsoc::runtime
