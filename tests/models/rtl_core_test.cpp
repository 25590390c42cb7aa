// RTL cores (models/rtl_core.h) with a design written here in C++ behind the register port's ABI, so that the
// timing contract is checked edge by edge without Verilator: when an access is taken and answered, that an
// idle core evaluates no edge, that a busy one is evaluated up to the next access (or a busy_at query) and no
// further, busy time and operations from its edges, a design that never answers, and the refused PIO
// recording. The verilated designs of scenarios/rtl are checked in tests/platform/rtl_build_test.cpp.
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

TEST(ModelRtlCore, AFreshConfigurationResetsTheDesign) {
  Port p;
  p.write(0x20, 1000, ns(0));
  p.core.reset();
  EXPECT_FALSE(p.core.busy_at(ns(100)));
  EXPECT_EQ(p.read(0x24, ns(200)).first, 1u);
}

}  // namespace
}  // namespace rsoc::models
