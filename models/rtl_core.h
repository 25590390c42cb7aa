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
// Not replayable: a PIO recording through it is refused (the driver keeps to words). The streaming windows
// are the stream port's, not built: an access there is a TLM_COMMAND_ERROR_RESPONSE. A fresh configuration
// (reset()) holds rst high for one edge, untimed.

#include <cstdint>
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
};

// A loaded design: makes instances of its model and evaluates one rising edge of one.
struct RtlDesign {
  std::string name;  // its top module, for messages
  void* (*create)() = nullptr;
  void (*destroy)(void* model) = nullptr;
  void (*edge)(void* model, RtlPort* port) = nullptr;  // the port's inputs, clk low then high
  std::shared_ptr<void> library;                       // what keeps the code loaded
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
  // const-callable bookkeeping (book_work is the base's, called from step())
  RtlCore* self() const { return const_cast<RtlCore*>(this); }
};

std::unique_ptr<IpCore> make_rtl_core(std::string name, const CoreParams& params);

// The timing of an RTL core as the estimate (and a behavioural core) states it, measured on a fresh instance
// of its design driven untimed through one request of `f` as drivers program it (core_kinds.h): the cycles of
// a register read (access), and of CTRL.INIT (init) and CTRL.NEXT (block) from the end of the command to the
// end of the first STATUS read, polled back to back, that shows them done. Throws
// std::runtime_error saying what the design did not do (answer an access, become ready, become valid, give
// the reference's result of the block).
struct RtlCycles {
  std::uint64_t access = 0, init = 0, block = 0;
};
RtlCycles measure_rtl_cycles(const CoreParams& params, const FunctionalityInfo& f);

}  // namespace rsoc::models
