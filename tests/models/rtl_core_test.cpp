// RTL cores (models/rtl_core.h) with designs written here in C++ behind the port ABI, so that the timing
// contract is checked edge by edge without Verilator: when an access is taken and answered, that an idle core
// evaluates no edge, that a busy one is evaluated up to the next access (or a busy_at query) and no further,
// busy time and operations from its edges, a design that never answers, and the refused PIO recording; and
// through the stream port, the edges that take a write's words and give a read's results, results given
// between accesses, an underflow and out_last checked. The verilated designs of scenarios/rtl are checked in tests/platform/rtl_build_test.cpp.
#include "models/rtl_core.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/pio_replay.h"
#include "tests/models/core_access.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

// A counter behind the register port: a write of n to 0x20 keeps it busy for n edges; a read of 0x24 answers
// 1 when idle (else 0) and of 0x30 the edges it has seen, each one edge after the edge that took it; after a
// write, req_ready is low for one edge (and the design busy). `deaf`: req_ready never rises.
struct Counter {
  std::uint32_t left = 0, edges = 0, hold = 0;
  bool answer = false;
  std::uint32_t data = 0;
  bool deaf = false;
};
bool g_deaf = false;

void* create() {
  return new Counter{0, 0, 0, false, 0, g_deaf};
}
void destroy(void* m) {
  delete static_cast<Counter*>(m);
}
void edge(void* m, RtlPort* p) {
  auto& c = *static_cast<Counter*>(m);
  const bool ready = !c.deaf && c.hold == 0;
  p->taken = p->req_valid && ready;
  ++c.edges;
  // registered outputs of this edge
  p->resp_valid = c.answer;
  p->resp_rdata = c.data;
  c.answer = false;
  if (c.hold) --c.hold;
  if (c.left) --c.left;
  if (p->rst) {
    c = Counter{0, 0, 0, false, 0, c.deaf};
  } else if (p->taken && p->req_write) {
    if (p->req_addr == 0x20) c.left = p->req_wdata;
    c.hold = 1;
  } else if (p->taken) {
    c.answer = true;
    c.data = p->req_addr == 0x24 ? (c.left == 0) : c.edges;
  }
  p->req_ready = !c.deaf && c.hold == 0;
  p->busy = c.left != 0 || c.hold != 0;  // (the hold is work too: idle edges change nothing)
}

CoreParams counter_core() {
  static const auto design =
      std::make_shared<RtlDesign>(RtlDesign{"counter", create, destroy, edge, nullptr});
  CoreParams p;
  p.kind = CoreKind::kCustom;
  p.clock_period = ns(10);
  p.rtl = design;
  return p;
}

struct Port {
  RtlCore core{"rtl", counter_core()};
  sc_core::sc_time write(std::uint32_t offset, std::uint32_t value, sc_core::sc_time at) {
    std::vector<std::uint32_t> w{value};
    const auto [status, latency] = test::core_access(core, tlm::TLM_WRITE_COMMAND, offset, w, at);
    EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
    return latency;
  }
  std::pair<std::uint32_t, sc_core::sc_time> read(std::uint32_t offset, sc_core::sc_time at) {
    std::vector<std::uint32_t> w{0};
    const auto [status, latency] = test::core_access(core, tlm::TLM_READ_COMMAND, offset, w, at);
    EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
    return {w[0], latency};
  }
};

TEST(ModelRtlCore, AnAccessIsTakenByTheFirstEdgeAfterItAndAReadAnsweredAtTheEdgeItsDataComes) {
  Port p;
  // Offered at 0 ns: edge 1 (10 ns) takes it. At 15 ns: edge 2 (20 ns) could, but the write before holds
  // req_ready low for one edge: edge 3 takes it.
  EXPECT_EQ(p.write(0x40, 7, ns(0)), ns(10));
  EXPECT_EQ(p.write(0x40, 7, ns(15)), ns(15));
  // A read at 1000 ns: taken at edge 101, answered after edge 102.
  const auto [edges, latency] = p.read(0x30, ns(1000));
  EXPECT_EQ(latency, ns(20));
  // The design saw the writes' three edges, the busy edge after the second and the read's taking edge (the
  // idle edges in between were skipped, not evaluated), then the one that answered.
  EXPECT_EQ(edges, 5u);
  EXPECT_EQ(p.core.evaluated_edges(), 6u);
  EXPECT_EQ(p.core.words_written(), 2u);
  EXPECT_EQ(p.core.words_read(), 1u);
}

TEST(ModelRtlCore, ABusyDesignIsEvaluatedUpToTheNextAccessAndItsBusyEdgesAreItsWork) {
  Port p;
  EXPECT_EQ(p.write(0x20, 50, ns(0)), ns(10));  // busy for 50 edges from edge 1: until edge 51 (510 ns)
  EXPECT_EQ(p.core.evaluated_edges(), 1u);
  // A poll at 200 ns: the design is evaluated through edge 20, the read taken at edge 21, answered at 22.
  const auto [idle, latency] = p.read(0x24, ns(200));
  EXPECT_EQ(idle, 0u);
  EXPECT_EQ(latency, ns(20));
  EXPECT_EQ(p.core.evaluated_edges(), 22u);
  EXPECT_TRUE(p.core.busy_at(ns(300)));
  EXPECT_EQ(p.core.evaluated_edges(), 30u);  // a query evaluates up to its time too
  EXPECT_FALSE(p.core.busy_at(ns(10000)));   // ... and no further than busy lasts
  EXPECT_EQ(p.core.evaluated_edges(), 51u);
  EXPECT_EQ(p.core.busy_cycles(), 50u);
  EXPECT_EQ(p.core.busy_time(), ns(500));
  EXPECT_EQ(p.core.operations(), 1u);
  EXPECT_EQ(p.read(0x24, ns(20000)).first, 1u);
  EXPECT_EQ(p.core.evaluated_edges(), 53u);
}

TEST(ModelRtlCore, ADesignThatNeverTakesAnAccessLeavesItIncomplete) {
  g_deaf = true;
  RtlCore core("deaf", counter_core());
  g_deaf = false;
  std::vector<std::uint32_t> w{1};
  EXPECT_EQ(test::core_access(core, tlm::TLM_WRITE_COMMAND, 0x20, w, ns(0)).first,
            tlm::TLM_INCOMPLETE_RESPONSE);
  EXPECT_EQ(core.evaluated_edges(), RtlCore::kAnswerCycles);
}

TEST(ModelRtlCore, RefusesAPioRecordingAndAccessesOutsideItsRegisterWindow) {
  Port p;
  PioRecording recording;
  recording.begin(ns(0));
  PioReplayExtension pio;
  pio.recording = &recording;
  std::vector<std::uint32_t> w{3};
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(0x20);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(w.data()));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  trans.set_extension(&pio);
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;
  p.core.access(trans, ns(0), latency);
  trans.clear_extension(&pio);
  EXPECT_EQ(trans.get_response_status(), tlm::TLM_OK_RESPONSE);  // done, as words
  EXPECT_FALSE(recording.replayable());
  std::vector<std::uint32_t> s{1};
  EXPECT_EQ(test::core_access(p.core, tlm::TLM_WRITE_COMMAND, reg::kStreamIn, s, ns(100)).first,
            tlm::TLM_COMMAND_ERROR_RESPONSE);
}

// An adder behind the stream port: it takes a block's words (one an edge) and adds them up; the edge that
// takes a block's last word (in_last) starts three edges of work, after which the sum is offered (out_valid,
// with out_last unless `no_last`) until taken; it takes no word from its block's end until its sum is taken.
struct Adder {
  std::uint32_t sum = 0, working = 0, result = 0;
  bool pending = false;
};
bool g_no_last = false;
void adder_edge(void* m, RtlPort* p) {
  auto& a = *static_cast<Adder*>(m);
  p->in_taken = p->in_valid && !a.working && !a.pending;
  p->out_taken = p->out_ready && a.pending;
  p->out_word = a.result;
  p->out_word_last = !g_no_last;
  p->taken = 0;
  if (p->rst) {
    a = Adder{};
  } else {
    if (p->out_taken) a.pending = false;
    if (a.working && --a.working == 0) a.pending = true;
    if (p->in_taken) {
      a.sum += p->in_data;
      if (p->in_last) {
        a.result = a.sum;
        a.sum = 0;
        a.working = 3;
      }
    }
  }
  p->in_ready = !a.working && !a.pending;
  p->out_valid = a.pending;
  p->out_data = a.result;
  p->out_last = !g_no_last;
  p->busy = a.working || a.pending;
}

CoreParams adder_core() {
  static const auto design = std::make_shared<RtlDesign>(
      RtlDesign{"adder", [] { return static_cast<void*>(new Adder); },
                [](void* m) { delete static_cast<Adder*>(m); }, adder_edge, nullptr, true});
  CoreParams p;
  p.kind = CoreKind::kCustom;
  p.clock_period = ns(10);
  p.custom.input_bytes = 8;  // two words a block
  p.custom.output_bytes = 4;
  p.rtl = design;
  return p;
}

TEST(ModelRtlCore, TheStreamPortTakesAWordAnEdgeAsTheDesignIsReadyAndGivesItsResultsAtTheirEdges) {
  RtlCore core("adder", adder_core());
  // Two blocks written at 0 ns: edges 1-2 take the first (in_last on the second word), edges 3-5 compute its
  // sum, offered after edge 5 and taken by edge 6; edges 7-8 take the second block.
  std::vector<std::uint32_t> in{1, 2, 30, 40};
  const auto [wrote, write_time] = test::core_access(core, tlm::TLM_WRITE_COMMAND, reg::kStreamIn, in, ns(0));
  EXPECT_EQ(wrote, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(write_time, ns(80));
  // Read at 80 ns: the first sum was given at edge 6, the second is computed in edges 9-11 and given at 12.
  std::vector<std::uint32_t> out{0, 0};
  const auto [read, read_time] = test::core_access(core, tlm::TLM_READ_COMMAND, reg::kStreamOut, out, ns(80));
  EXPECT_EQ(read, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(read_time, ns(40));
  EXPECT_EQ(out, (std::vector<std::uint32_t>{3, 70}));
  EXPECT_EQ(core.evaluated_edges(), 12u);
  EXPECT_EQ(core.busy_cycles(), 8u);  // edges 3-6 and 9-12: computing, then the sum waiting to be taken
  EXPECT_EQ(core.operations(), 2u);
  EXPECT_EQ(core.misplaced_lasts(), 0u);
  // Idle, with nothing left to give: a read of more is an underflow, answered at once.
  std::vector<std::uint32_t> more{0};
  EXPECT_EQ(test::core_access(core, tlm::TLM_READ_COMMAND, reg::kStreamOut, more, ns(500)).first,
            tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(core.evaluated_edges(), 12u);
  // A read from the input window, a write to the output window: not the stream port's.
  EXPECT_EQ(test::core_access(core, tlm::TLM_READ_COMMAND, reg::kStreamIn, more, ns(600)).first,
            tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(test::core_access(core, tlm::TLM_WRITE_COMMAND, reg::kStreamOut, more, ns(600)).first,
            tlm::TLM_COMMAND_ERROR_RESPONSE);
}

TEST(ModelRtlCore, ResultsGivenBetweenAccessesAreKeptAndOutLastIsCheckedAgainstTheResultSize) {
  g_no_last = true;
  RtlCore core("adder", adder_core());
  std::vector<std::uint32_t> in{5, 6};
  EXPECT_EQ(test::core_access(core, tlm::TLM_WRITE_COMMAND, reg::kStreamIn, in, ns(0)).second, ns(20));
  // The design is busy after the write: evaluated up to a later query, which takes its sum as it comes
  // (edge 6), and no further once it is idle.
  EXPECT_FALSE(core.busy_at(ns(1000)));
  EXPECT_EQ(core.evaluated_edges(), 6u);
  std::vector<std::uint32_t> out{0};
  const auto [read, read_time] =
      test::core_access(core, tlm::TLM_READ_COMMAND, reg::kStreamOut, out, ns(1000));
  g_no_last = false;
  EXPECT_EQ(read, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(read_time, ns(0));  // given long before: no wait
  EXPECT_EQ(out[0], 11u);
  EXPECT_EQ(core.misplaced_lasts(), 1u);  // a one-word result without out_last
}

TEST(ModelRtlCore, AFreshConfigurationResetsTheDesign) {
  Port p;
  p.write(0x20, 1000, ns(0));
  p.core.reset();
  EXPECT_FALSE(p.core.busy_at(ns(100)));
  EXPECT_EQ(p.read(0x24, ns(200)).first, 1u);
}

}  // namespace
}  // namespace rsoc::models
