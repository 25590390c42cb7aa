#pragma once
// IP cores: the common register protocol and timing of every core kind (the kinds are listed in
// models/core_kinds.h, each in its own file: aes128_core.cpp, des_core.cpp, modexp_core.cpp,
// custom_core.cpp), with declarative register maps. Plain C++ objects hosted by an FpgaSlot (a slot is the
// sc_module; a core is what its bitstream configures). Timing contract: every register access costs
// access_cycles core cycles. CTRL.INIT keeps the core busy for what its kind says (key expansion:
// key_setup_cycles); CTRL.NEXT for one block's cycles as its kind computes them (block_cycles for AES and
// custom cores, per DES pass, the modexp formula). STATUS.READY is clear while busy; results read before the
// operation ends are the previous results. A start while busy is ignored (counted). A key written to KEY
// takes effect at CTRL.INIT (or at the first NEXT after a configuration). Streaming interface (for DMA):
// words written to the STREAM_IN window queue up; every complete block (as the core is set up: 4 words for
// AES, 2 for DES/3DES, MODULUS_WORDS for modexp (twice that with CONFIG.CRT or CONFIG.WIDE_MESSAGE),
// input_bytes / 4 for a custom core, in bank word order) is computed and its result words join the output
// FIFO, read from the STREAM_OUT window. A write waits until the core has finished what it had, then occupies
// it for max(access time, compute time of the blocks it completes: their cycles added up). A pipelined core
// (initiation_interval_cycles > 0) takes a write as soon as it can take another block, is occupied for
// initiation_interval_cycles per block the write completes, and the result of each is ready its block_cycles
// after it entered (the k-th block of a write k intervals after the write's start). A read waits until the
// results it takes are ready. Inside a pipelined stream (StreamExtension) those occupancies are the core's
// stage and the waits are annotated. Input and output words held together may not exceed FIFO_WORDS
// (TLM_BURST_ERROR_RESPONSE); reading more than OUT_WORDS is an error too. Timelines: every operation that
// keeps the core computing (CTRL.INIT, CTRL.NEXT, the blocks a stream write completes, from when the core
// takes them) is reported to an attached ActivitySink as core work; its durations add up to busy_time().
// stream_wait_time() counts what streams spent on the core rather than on moving their data: those waits,
// and the part of a chunk's time by which the core's computation exceeds its slowest other stage.
// Hangs (models/faults.h, set_hangs()): each operation the core starts (CTRL.INIT or CTRL.NEXT, a block a
// stream write completes) is a chance of its hang stream; a hung core never finishes: STATUS.READY stays
// clear, no result is published, further starts are ignored, and a stream access that would wait for it (a
// write, a read of results it will never give) is never answered: it ends with TLM_INCOMPLETE_RESPONSE and
// no time, which a DMA engine takes as a stall (models/dma_engine.h). A PIO replay during which it hangs ends
// likewise, with the recorded time. Only a new configuration (reset()) ends a hang.
// Energy (models/energy.h): each cycle of an operation costs pj_per_cycle, paid by the account of the access
// that started it (a CTRL write, a stream write, a replay).

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <utility>
#include <vector>

#include "models/activity.h"
#include "models/core_kinds.h"
#include "models/crypto/block_function.h"
#include "models/energy.h"
#include "models/faults.h"
#include "models/kernel_time.h"
#include "models/name_table.h"
#include "models/pio_replay.h"
#include "models/register_file.h"

namespace rsoc::models {

// A custom core (models/custom_core.cpp): the block it takes and gives, its key, the block function it
// computes (models/crypto/block_function.h) and whether it has PIO banks besides its streaming windows.
struct CustomCoreParams {
  const crypto::BlockFunction* computes = nullptr;
  unsigned input_bytes = 4, output_bytes = 4, key_bytes = 0;  // whole 32-bit words
  bool pio = true;  // KEY, BLOCK and RESULT banks (false: the streaming windows only, for the DMA data path)
};

enum class ModexpArchitecture { kGeneric, kModExpA7 };
inline constexpr NameTable<ModexpArchitecture, 2> kModexpArchitectureNames{
    {{{ModexpArchitecture::kGeneric, "generic"}, {ModexpArchitecture::kModExpA7, "modexpa7"}}}};

struct RtlDesign;  // models/rtl_core.h

struct CoreParams {
  CoreKind kind = CoreKind::kAes128;
  sc_core::sc_time clock_period{10, sc_core::SC_NS};
  unsigned access_cycles = 1;     // per register word access
  unsigned key_setup_cycles = 0;  // CTRL.INIT
  unsigned block_cycles = 10;     // CTRL.NEXT: one block (AES) or one DES pass
  // modexp only (the timing of the generic formula or of ModExpA7: modexp_architecture, models/modexp_core.h)
  unsigned multiplier_width_bits = 32;
  unsigned montmul_overhead_cycles = 0;
  unsigned setup_cycles = 0;
  unsigned max_operand_bits = 4096;
  unsigned fifo_words = 1024;  // streaming interface: words the core holds (input and results)
  // Pipelined cores: cycles between two blocks entering the core (0: one block after the other). The blocks
  // one stream write completes take the first block's cycles + initiation_interval_cycles per further block.
  unsigned initiation_interval_cycles = 0;
  CustomCoreParams custom{};  // custom cores only
  ModexpArchitecture modexp_architecture = ModexpArchitecture::kGeneric;  // modexp
  unsigned systolic_array_power = 1;  // modexp, ModExpA7: 2^P processing elements (SYSTOLIC_ARRAY_POWER)
  // Every cycle the core computes costs this (models/energy.h), paid by the account of the access that
  // started the work. None: no energy.
  std::optional<double> energy_pj_per_cycle = std::nullopt;
  // The core's logic as RTL (models/rtl_core.h): its port, its clock edges and its results are the design's;
  // the kind still says how drivers program it and what its results are checked against. None: the kind's
  // behavioural model.
  std::shared_ptr<const RtlDesign> rtl = nullptr;
};

// Register layout shared by the cipher cores (byte offsets).
namespace reg {
inline constexpr std::uint32_t kName0 = 0x00, kName1 = 0x04, kVersion = 0x08;
inline constexpr std::uint32_t kCtrl = 0x20, kStatus = 0x24, kConfig = 0x28;
inline constexpr std::uint32_t kCtrlInit = 1u << 0, kCtrlNext = 1u << 1;
inline constexpr std::uint32_t kStatusReady = 1u << 0, kStatusValid = 1u << 1;
inline constexpr std::uint32_t kConfigEncrypt = 1u << 0, kConfigTriple = 1u << 1;
// AES: a 256-bit key in KEY[0..7] (Cryptech's CONFIG.KEYLEN); clear: a 128-bit key in KEY[0..3]
inline constexpr std::uint32_t kConfigAes256 = 1u << 1;
// modexp: CONFIG.CRT makes one operation a whole RSA private operation by the CRT (see ModexpCore)
inline constexpr std::uint32_t kConfigCrt = 1u << 2;
// streaming interface: capacity and results waiting (read-only), FIFO windows (any address inside one)
inline constexpr std::uint32_t kFifoWords = 0x38, kOutWords = 0x3C;
inline constexpr std::uint32_t kStreamIn = 0x1800, kStreamOut = 0x1C00, kStreamWindowBytes = 0x400;
// cipher banks: 32-bit words, word 0 holds the most significant bytes (big-endian block order)
inline constexpr std::uint32_t kKey = 0x40, kBlock = 0x80, kResult = 0xC0;
// modexp: lengths and operand banks; bank word 0 is the least significant word
inline constexpr std::uint32_t kModulusWords = 0x30, kExponentBits = 0x34;
inline constexpr std::uint32_t kModulus = 0x1000, kMessage = 0x1200, kExponent = 0x1400, kModResult = 0x1600;
inline constexpr std::uint32_t kModexpBankWords = 128;
inline constexpr std::uint32_t kQinv = 0x0400;  // modexp CRT mode: qInv = q^-1 mod p
// modexp, ModExpA7-style operation (see ModexpCore): the widest operand the core takes (read-only), the
// precomputed Montgomery values, and the CONFIG bits that select them
inline constexpr std::uint32_t kBufferBits = 0x2C;
inline constexpr std::uint32_t kModulusCoeff = 0x0600, kMontgomeryFactor = 0x0800;
inline constexpr std::uint32_t kConfigWideMessage = 1u << 3, kConfigPrecalc = 1u << 4;
// custom cores (PIO interface): the key at kKey, the block and its result in banks of their own
inline constexpr std::uint32_t kCustomKeyWords = 16;
inline constexpr std::uint32_t kCustomBlock = 0x0800, kCustomResult = 0x1000, kCustomBankWords = 512;
}  // namespace reg

// The interface of a cipher core (AES, DES) for `f`: the key in KEY, `config` written to CONFIG before
// CTRL.INIT, a block in BLOCK and its result in RESULT, all in their bytes' order.
CoreInterface cipher_interface(const FunctionalityInfo& f, std::uint32_t config);

class IpCore {
 public:
  IpCore(std::string name, const CoreParams& params);
  virtual ~IpCore() = default;
  IpCore(const IpCore&) = delete;
  IpCore& operator=(const IpCore&) = delete;

  // A timed register access arriving at `at`; adds the access latency to `latency`. An access that belongs
  // to a PIO recording is noted in it; a PIO replay (models/pio_replay.h) repeats what this core's recorded
  // accesses did with the payload's words in the block bank, returns the result bank in the payload and
  // annotates nothing.
  void access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at, sc_core::sc_time& latency) {
    if (energy_.on()) payer_ = payer_of(trans);
    if (own_port_) return port_access(trans, at, latency);  // (behavioural cores keep off the virtual call)
    if (PioReplayExtension* pio = pio_of(trans)) return pio_access(trans, at, latency, *pio);
    if (trans.get_address() >= reg::kStreamIn) return stream_access(trans, at, latency);
    register_access(trans, at, latency);
  }
  virtual unsigned debug(tlm::tlm_generic_payload& trans) { return regs_.debug(trans); }
  // Back to reset values (a fresh configuration).
  void reset();
  const EnergySpent& energy() const { return energy_; }
  // Reports the core's work to `sink` on `lane` (its slot's; null: none).
  void set_activity(ActivitySink* sink, Lane lane) { activity_ = {sink, lane}; }

  const std::string& name() const { return name_; }
  const CoreParams& params() const { return params_; }
  // Whether the core computes at `t` (an RTL core evaluates its clock up to `t` to say).
  bool busy_at(const sc_core::sc_time& t) const { return own_port_ ? port_busy_at(t) : t < done_at_; }
  sc_core::sc_time done_at() const { return done_at_; }
  sc_core::sc_time busy_time() const { return busy_; }
  sc_core::sc_time stream_wait_time() const { return stream_wait_; }
  std::uint64_t operations() const { return operations_; }
  std::uint64_t ignored_starts() const { return ignored_starts_; }
  // Register words software wrote and read (the streaming windows excepted), and reads of STATUS among them.
  std::uint64_t words_written() const { return words_written_; }
  std::uint64_t words_read() const { return words_read_; }
  std::uint64_t status_reads() const { return status_reads_; }
  RegisterFile& registers() { return regs_; }
  // A configuration upset (models/faults.h) in the core's logic: every result it computes from `from` on is
  // wrong (a bit of its first word flipped) until this is set again; the maximum time: never (the default).
  void corrupt_from(const sc_core::sc_time& from) { corrupt_from_ = from; }
  std::uint64_t corrupted_results() const { return corrupted_results_; }  // results an upset made wrong
  // Hangs: every operation the core starts is a chance of `hangs` (null: none; owned by the slot).
  void set_hangs(FaultStream* hangs) { hangs_ = hangs; }
  bool hung() const { return hung_; }

 protected:
  // Big-endian words (word 0 holds the first four bytes, as the drivers write blocks) to bytes and back.
  static void words_to_bytes(const std::uint32_t* words, std::size_t n, std::uint8_t* bytes);
  static void bytes_to_words(const std::uint8_t* bytes, std::size_t n, std::uint32_t* words);
  // Called on CTRL.INIT while idle; returns the busy cycles of the operation started (0: none).
  virtual std::uint64_t on_init(const sc_core::sc_time& at) = 0;
  // Words of one block as the core is set up, and of its result.
  virtual unsigned block_words() const = 0;
  virtual unsigned result_words() const { return block_words(); }
  // Computes one block (block_words() words in bank order) into `out` (as many words); returns its cycles.
  virtual std::uint64_t compute(const std::uint32_t* in, std::uint32_t* out) = 0;
  // Computes `n` blocks at once (one after the other at `in`, their results likewise at `out`) as compute()
  // would one by one as the core is set up now, each taking `cycles` (set): a kind whose blocks are
  // independent and cost the same can do them faster together. False (nothing computed): it cannot.
  virtual bool compute_many(const std::uint32_t* /*in*/, std::uint32_t* /*out*/, std::size_t /*n*/,
                            std::uint64_t& /*cycles*/) {
    return false;
  }
  // A fresh configuration: forget any internal state (key schedules).
  virtual void on_reset() {}
  // A core with a port of its own (an RTL core, models/rtl_core.h) takes every access, and says whether it is
  // busy, itself; the others are the behavioural register file and streaming windows of this class.
  explicit IpCore(std::string name, const CoreParams& params, bool own_port)
      : IpCore(std::move(name), params) {
    own_port_ = own_port;
  }
  virtual void port_access(tlm::tlm_generic_payload&, const sc_core::sc_time&, sc_core::sc_time&) {}
  virtual bool port_busy_at(const sc_core::sc_time&) const { return false; }
  // Work the core did from `from` to `to`, `cycles` core cycles of it, started by an access paid by `payer`:
  // its busy time, its energy, an operation and its timeline (`what`). RTL cores book their work so.
  void book_work(const char* what, const sc_core::sc_time& from, const sc_core::sc_time& to,
                 std::uint64_t cycles, EnergyAccount* payer);
  EnergyAccount* payer() const { return payer_; }  // of the access being taken
  // Counts a register access of `words` words (STATUS: a status read).
  void count_access(bool write, std::uint64_t address, unsigned words) {
    if (write) {
      words_written_ += words;
    } else {
      words_read_ += words;
      status_reads_ += address == reg::kStatus;
    }
  }
  // Leaves the core's occupancy, max(`access`, `compute`), to the access at `at` after any wait for it until
  // `ready`: on the stream, or in `latency`.
  void occupy(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at, const sc_core::sc_time& ready,
              const sc_core::sc_time& access, const sc_core::sc_time& compute, sc_core::sc_time& latency);
  // Whether `trans` is an access the streaming windows take: whole words, a write inside STREAM_IN or a read
  // inside STREAM_OUT.
  static bool stream_window_access(const tlm::tlm_generic_payload& trans);
  // Declares the result bank `name` at `offset`: reads return the previous result until the operation ends.
  void add_result_bank(const std::string& name, std::uint32_t offset, std::uint32_t words);
  // Makes the `n` words at `values` the result of the operation that ends at done_at() (the rest of the bank
  // reads zero).
  void publish(const std::uint32_t* values, std::size_t n);

  RegisterFile regs_;
  RegisterFile::Id config_{};  // CONFIG, for the subclasses
  // The bank CTRL.NEXT takes its block from (set by the subclasses; none: a stream-only core, which ignores
  // CTRL.NEXT and counts it as an ignored start).
  std::optional<RegisterFile::Id> block_;

 private:
  void register_access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at,
                       sc_core::sc_time& latency) {
    const unsigned words = (trans.get_data_length() + 3) / 4;
    count_access(trans.is_write(), trans.get_address(), words);
    const sc_core::sc_time cost =
        words == 1 ? word_access_
                   : periods(params_.clock_period, static_cast<double>(params_.access_cycles * words),
                             "a core register access");
    trans.set_response_status(regs_.access(trans, at + cost));
    latency += cost;
  }
  // An access recorded (noted in the recording after it is done) or replayed.
  void pio_access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at, sc_core::sc_time& latency,
                  PioReplayExtension& pio);
  void replay(tlm::tlm_generic_payload& trans, const PioReplayExtension& pio);
  void control(std::uint32_t value, const sc_core::sc_time& at);
  // CTRL.NEXT at `at`: computes the block in the block bank and publishes its result.
  std::uint64_t next(const sc_core::sc_time& at);
  // An upset since `from` makes the result at `out` computed at `at` wrong.
  void upset(const sc_core::sc_time& at, std::uint32_t* out) {
    if (at < corrupt_from_) return;
    out[0] ^= 1u;
    ++corrupted_results_;
  }
  void stream_access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at, sc_core::sc_time& latency);
  // A read of results from the output FIFO, and a write of words to the input FIFO with the blocks it
  // completes computed; `access` is the words' transfer time.
  void stream_read(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at,
                   const sc_core::sc_time& access, sc_core::sc_time& latency);
  void stream_write(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at,
                    const sc_core::sc_time& access, sc_core::sc_time& latency);
  // Whether the operation starting at `at` hangs the core (then it is hung from `at` on).
  bool hangs_at(const sc_core::sc_time& at) {
    if (!hangs_ || !hangs_->chance(at)) return false;
    hang(at);
    return true;
  }
  void hang(const sc_core::sc_time& at);

  std::string name_;
  CoreParams params_;
  bool own_port_ = false;
  sc_core::sc_time word_access_;  // access_cycles core cycles: the cost of a one-word access
  RegisterFile::Id ctrl_{};
  sc_core::sc_time done_at_{sc_core::SC_ZERO_TIME};    // the core's last work ends (results ready)
  sc_core::sc_time accept_at_{sc_core::SC_ZERO_TIME};  // a pipelined core can take the next block
  sc_core::sc_time busy_{sc_core::SC_ZERO_TIME};
  sc_core::sc_time stream_wait_{sc_core::SC_ZERO_TIME};
  bool valid_ = false;
  std::vector<std::uint32_t> result_, previous_result_, scratch_;
  // A replay of many repetitions computed at once (compute_many): their inputs and results, and the results
  // the repetition being replayed takes at CTRL.NEXT in place of computing (null: none).
  std::vector<std::uint32_t> batch_in_, batch_out_;
  std::vector<const PioRecording::Entry*> writes_;  // a replay: the recorded writes outside the block bank
  const std::uint32_t* precomputed_ = nullptr;
  std::uint64_t precomputed_cycles_ = 0;
  std::vector<std::uint32_t> stream_in_;                               // words of an incomplete block
  std::deque<std::pair<std::uint32_t, sc_core::sc_time>> stream_out_;  // result words and when they are ready
  std::uint64_t operations_ = 0, ignored_starts_ = 0;
  std::uint64_t words_written_ = 0, words_read_ = 0, status_reads_ = 0;
  sc_core::sc_time corrupt_from_ = sc_core::sc_max_time();
  std::uint64_t corrupted_results_ = 0;
  FaultStream* hangs_ = nullptr;
  bool hung_ = false;
  ActivityReport activity_;  // where it reports its activity (set_activity)
  EnergySpent energy_{EnergyPart::kCore};
  double nj_per_cycle_ = 0;
  EnergyAccount* payer_ = nullptr;  // the account of the access being taken
};

}  // namespace rsoc::models
