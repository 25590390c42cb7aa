#pragma once
// RtlCore: an IP core whose logic is RTL, a design verilated and loaded by the platform
// (platform/rtl_build.h), behind the register port (scenarios/rtl/README.md). The core's kind still says how
// drivers program it and what its results are checked against (CoreParams::rtl); the registers, the results
// and the cycles are the design's.
// Timing contract: the design's rising edges fall at whole multiples of the core's clock period. An access
// offered at `at` is presented to the edges strictly after `at` (and after the last edge evaluated) until
// one takes it (req_ready); a read then waits for the first edge after which resp_valid is high (the taking
// edge included) and returns resp_rdata; an access of n words is n such accesses one after the other. Its
// latency runs from `at` to the edge that completes it. Between accesses the design is evaluated only while
// its `busy` output is high: every edge up to the next access is evaluated then, and once busy is low the
// edges without an access are skipped (they change nothing, by the port's contract), so an idle core costs
// nothing and a busy one costs an evaluation per cycle, no kernel event. Busy time, operations, energy (per
// busy cycle, paid by the account of the access that raised busy) and the timeline come from the edges: an
// operation is a run of edges with busy high before them. A design that does not take an access, or answer a
// read, within kAnswerCycles edges never answers: the access ends with TLM_INCOMPLETE_RESPONSE.
// The stream port (a design of protocol stream has it beside the register port): a write of n words to the
// STREAM_IN window offers them one after the other on in_data (in_valid high, in_last on the word that ends
// a block of the kind's size) to the edges after `at` until each is taken (in_ready); its time, from `at` to
// the edge that took its last word, is the core's occupancy (the core's stage inside a pipelined stream, of
// which what exceeds the words' own cycles and the chunk's other stages is stream wait). out_ready is always
// high (the DMA's receiving side is always armed): every word the design gives (out_valid) is taken at the
// edge it is offered and kept, with that edge, in the order given; a read of n words from STREAM_OUT waits
// until the n-th is out (evaluating the edges after `at` for as long as the design is busy or offers a
// word) and then costs nothing more. Between accesses a stream design is evaluated while it is busy or
// offers a word. A read of more words than the design gives before it falls idle is a
// TLM_BURST_ERROR_RESPONSE; a design that does not take a word, or give the words read, within
// kAnswerCycles edges never answers (TLM_INCOMPLETE_RESPONSE). Without the stream port the streaming windows
// are a TLM_COMMAND_ERROR_RESPONSE.
// Not replayable: a PIO recording through it is refused (the driver keeps to words). A fresh configuration
// (reset()) holds rst high for one edge, untimed, and forgets the words given.

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>

#include "models/ip_core.h"

namespace rsoc::models {

// The register port's signals as a design's shim takes and gives them (the C layout of the shim's
// rsoc_rtl_port; platform/rtl_build.cpp writes it).
struct RtlPort {
  std::uint32_t rst = 0, req_valid = 0, req_write = 0, req_addr = 0, req_wdata = 0;  // inputs
  std::uint32_t taken = 0;  // the edge just evaluated took the request (req_valid and req_ready before it)
  std::uint32_t req_ready = 0, resp_valid = 0, resp_rdata = 0, busy = 0;  // outputs after it
  // The stream port (designs of protocol stream; zero otherwise).
  std::uint32_t in_valid = 0, in_data = 0, in_last = 0, out_ready = 0;  // inputs
  // The edge just evaluated took a word in (in_valid and in_ready before it), gave one out (out_valid and
  // out_ready before it): out_word and out_word_last, as they were before it.
  std::uint32_t in_taken = 0, out_taken = 0, out_word = 0, out_word_last = 0;
  std::uint32_t in_ready = 0, out_valid = 0, out_data = 0, out_last = 0;  // outputs after it
};

// A loaded design: makes instances of its model and evaluates one rising edge of one.
struct RtlDesign {
  std::string name;  // its top module, for messages
  void* (*create)() = nullptr;
  void (*destroy)(void* model) = nullptr;
  void (*edge)(void* model, RtlPort* port) = nullptr;  // the port's inputs, clk low then high
  std::shared_ptr<void> library;                       // what keeps the code loaded
  bool stream = false;                                 // it has the stream port (protocol stream)
};

class RtlCore : public IpCore {
 public:
  static constexpr std::uint64_t kAnswerCycles = 1u << 20;

  RtlCore(std::string name, const CoreParams& params);
  ~RtlCore() override;

  bool port_busy_at(const sc_core::sc_time& t) const override;
  unsigned debug(tlm::tlm_generic_payload&) override { return 0; }  // the design's state is its own
  std::uint64_t evaluated_edges() const { return evaluated_; }      // every edge evaluated
  std::uint64_t busy_cycles() const { return busy_cycles_; }        // edges with busy high before them
  // Words the stream port gave whose out_last said otherwise than the kind's result size (the last word of
  // each result carries it, the others not).
  std::uint64_t misplaced_lasts() const { return misplaced_lasts_; }

 protected:
  void port_access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at,
                   sc_core::sc_time& latency) override;
  void on_reset() override;
  // The behavioural hooks: never called (the design computes behind its own port).
  std::uint64_t on_init(const sc_core::sc_time&) override { return 0; }
  unsigned block_words() const override { return 1; }
  std::uint64_t compute(const std::uint32_t*, std::uint32_t*) override { return 0; }

 private:
  // Evaluates the next edge with the port's inputs as they are, booking the busy run it ends.
  void step() const;
  // Evaluates the edges up to and including `last` while busy; skips the rest.
  void catch_up(std::uint64_t last) const;
  // Offers one word's access (a read returns its data in `word`); false: the design did not answer.
  bool word_access(bool write, std::uint32_t address, std::uint32_t& word);
  // An access to the streaming windows, through the stream port.
  void stream_access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at, sc_core::sc_time& latency);
  // Whether the design must be evaluated at the next edge with no access offered.
  bool working() const { return port_.busy || port_.out_valid; }
  sc_core::sc_time edge_time(std::uint64_t edge) const;

  std::shared_ptr<const RtlDesign> design_;
  void* model_ = nullptr;
  std::uint64_t period_ps_;
  // The evaluation's state changes in const queries too (busy_at evaluates up to its time).
  mutable RtlPort port_{};
  mutable std::uint64_t edge_ = 0;  // the last edge evaluated or skipped (edge k at k periods)
  mutable std::uint64_t evaluated_ = 0, busy_cycles_ = 0;
  mutable std::uint64_t busy_from_ = 0;          // the edge that raised busy
  mutable EnergyAccount* busy_payer_ = nullptr;  // the account of the access that raised it
  // The stream port: the words given and the edges that took them; the words of the block being offered.
  mutable std::deque<std::pair<std::uint32_t, std::uint64_t>> given_;
  unsigned block_words_ = 1, offered_ = 0;
  unsigned result_words_ = 1;
  mutable unsigned given_of_result_ = 0;  // words given of the result being given
  mutable std::uint64_t misplaced_lasts_ = 0;
  // const-callable bookkeeping (book_work is the base's, called from step())
  RtlCore* self() const { return const_cast<RtlCore*>(this); }
};

std::unique_ptr<IpCore> make_rtl_core(std::string name, const CoreParams& params);

// The timing of an RTL core as the estimate (and a behavioural core) states it, measured on a fresh instance
// of its design driven untimed through one request of `f` as drivers program it (core_kinds.h): the cycles of
// a register read (access), and of CTRL.INIT (init) from the end of the command to the end of the first
// STATUS read, polled back to back, that shows it done. A block (block): with the register port, from the end
// of CTRL.NEXT likewise; with the stream port, from the start of a write of one block to STREAM_IN to the
// edge that gives its result's last word (which must carry out_last), and two blocks written at once give the
// initiation interval (interval: the second block's result after the first's, when that is shorter than a
// block; 0 otherwise). Throws std::runtime_error saying what the design did not do (answer an access, become
// ready, become valid, give the reference's result of the block).
struct RtlCycles {
  std::uint64_t access = 0, init = 0, block = 0, interval = 0;
};
RtlCycles measure_rtl_cycles(const CoreParams& params, const FunctionalityInfo& f);

}  // namespace rsoc::models
