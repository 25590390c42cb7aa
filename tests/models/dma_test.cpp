// DmaEngine: register programming, chunked streaming at the slowest stage, the done interrupt, errors, and
// interleaving with CPU traffic on the shared bus.
#include <gtest/gtest.h>

#include <vector>

#include "models/dma_engine.h"
#include "models/memory.h"
#include "models/onchip_bus.h"
#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

constexpr std::uint64_t kMem = 0x10000000;
constexpr std::uint64_t kDma = 0x20000000;

// Everything at 100 MHz: CPU (1 issue cycle), bus (1 latency cycle, 1 cycle per word), 1 MiB memory (1 + 1
// per word), DMA (1 cycle per word, 10 setup cycles, 1 access cycle, chunks of 1024 words). A DMA register
// write costs 10 + (1 + 1) * 10 + 10 = 40 ns and takes effect at its end.
struct DmaBench {
  DmaBench()
      : cpu("cpu", CpuParams{ns(10), 1, 1, 1024}),
        bus("bus", OnChipBusParams{ns(10), 1, 1}),
        mem("mem", MemoryParams{1 << 20, ns(10), 1, 1}),
        dma("dma", DmaParams{ns(10), 1, 10, 1, 1024}) {
    bus.add_initiator(cpu.initiator);
    bus.add_initiator(dma.initiator);
    bus.add_target(mem.target, kMem, 1 << 20, "mem");
    bus.add_target(dma.target, kDma, dma_reg::kSize, "dma");
    data.resize(4 * 2048);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 29 + 5);
    mem.load(0, data.data(), data.size());
  }
  // Programs a transfer; START is the last write.
  void program(CpuThread& c, std::uint64_t src, std::uint64_t dst, std::uint32_t words, std::uint32_t ctrl) {
    c.write32(kDma + dma_reg::kSrc, static_cast<std::uint32_t>(src));
    c.write32(kDma + dma_reg::kDst, static_cast<std::uint32_t>(dst));
    c.write32(kDma + dma_reg::kWords, words);
    c.write32(kDma + dma_reg::kCtrl, ctrl);
  }
  std::vector<std::uint8_t> copied(std::uint64_t offset, std::size_t n) const {
    std::vector<std::uint8_t> out(n);
    mem.peek(offset, out.data(), n);
    return out;
  }

  SoftCpu cpu;
  OnChipBus bus;
  Memory mem;
  DmaEngine dma;
  std::vector<std::uint8_t> data;
};

TEST(ModelDmaEngine, MemoryToMemoryAtTheSlowestStage) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  DmaBench b;
  sc_core::sc_time started, done;
  std::uint32_t status = 0;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    b.program(c, kMem, kMem + 0x80000, 2048, dma_reg::kCtrlStart);
    started = c.now();
    sc_core::wait(b.dma.done_event());
    done = sc_core::sc_time_stamp();
    c.sync();
    status = c.read32(kDma + dma_reg::kStatus);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(started, ns(160));  // four register writes of 40 ns
  // Per 1024-word chunk: DMA 1024 * 10 ns = 10240 ns, memory (read + write) 2 * 1024 * 10 ns = 20480 ns,
  // bus (read + write) 2 * (1 + 1024) * 10 ns = 20500 ns: the bus is the slowest stage.
  // 10 setup cycles * 10 ns + 2 chunks * 20500 ns = 41100 ns.
  EXPECT_EQ(b.dma.busy_time(), ns(41100));
  EXPECT_EQ(done, ns(160 + 41100));
  EXPECT_EQ(status, dma_reg::kStatusDone);
  EXPECT_EQ(b.dma.words_moved(), 2048u);
  EXPECT_EQ(b.dma.transfers(), 1u);
  EXPECT_EQ(b.copied(0x80000, b.data.size()), b.data);
}

TEST(ModelDmaEngine, StartTakesEffectAtTheCpuLocalTime) {
  // With a 1 us quantum the CPU programs the engine without synchronising: the kernel is still at 0 when
  // START is written at the CPU's local time 160 ns, and the transfer begins then.
  test::set_quantum(ns(1000));
  DmaBench b;
  sc_core::sc_time kernel_at_start, done;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    b.program(c, kMem, kMem + 0x80000, 1024, dma_reg::kCtrlStart);
    kernel_at_start = sc_core::sc_time_stamp();
    c.sync();
    sc_core::wait(b.dma.done_event());
    done = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(kernel_at_start, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(done, ns(160 + 100 + 20500));  // start + setup + one bus-bound chunk
  EXPECT_EQ(b.dma.busy_time(), ns(100 + 20500));
}

TEST(ModelDmaEngine, FifoDestinationAndPartialChunk) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  DmaBench b;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    // 1030 words into one fixed word: a 1024-word chunk then a 6-word chunk, all written at the same address.
    b.program(c, kMem, kMem + 0xF0000, 1030, dma_reg::kCtrlStart | dma_reg::kCtrlDstFixed);
    sc_core::wait(b.dma.done_event());
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  // Bus stages: 2 * (1 + 1024) * 10 ns = 20500 ns, then 2 * (1 + 6) * 10 ns = 140 ns (memory: 120 ns).
  EXPECT_EQ(b.dma.busy_time(), ns(100 + 20500 + 140));
  EXPECT_EQ(b.dma.words_moved(), 1030u);
  // Every word was written at the fixed address (a one-word streaming burst): the memory there holds the
  // last word, and nothing beyond it was touched.
  const std::vector<std::uint8_t> last(b.data.begin() + 4 * 1029, b.data.begin() + 4 * 1030);
  EXPECT_EQ(b.copied(0xF0000, 4), last);
  EXPECT_EQ(b.copied(0xF0004, 4), std::vector<std::uint8_t>(4, 0));
}

TEST(ModelDmaEngine, BusyStatusAndStartWhileBusyIgnored) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  DmaBench b;
  std::uint32_t during = 0, after = 0;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    b.program(c, kMem, kMem + 0x80000, 2048, dma_reg::kCtrlStart);
    during = c.read32(kDma + dma_reg::kStatus);
    c.write32(kDma + dma_reg::kCtrl, dma_reg::kCtrlStart);  // ignored
    sc_core::wait(b.dma.done_event());
    c.sync();
    after = c.read32(kDma + dma_reg::kStatus);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(during, dma_reg::kStatusBusy);
  EXPECT_EQ(after, dma_reg::kStatusDone);
  EXPECT_EQ(b.dma.transfers(), 1u);
  EXPECT_EQ(b.dma.busy_time(), ns(41100));
}

TEST(ModelDmaEngine, UnmappedDestinationEndsWithError) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  DmaBench b;
  std::uint32_t status = 0;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    b.program(c, kMem, 0x70000000, 16, dma_reg::kCtrlStart);
    sc_core::wait(b.dma.done_event());
    c.sync();
    status = c.read32(kDma + dma_reg::kStatus);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(status, dma_reg::kStatusDone | dma_reg::kStatusError);
  EXPECT_EQ(b.dma.words_moved(), 0u);
  EXPECT_EQ(b.dma.transfers(), 1u);
  EXPECT_EQ(b.bus.unmapped_accesses(), 1u);
}

TEST(ModelDmaEngine, RegisterAccessRules) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  DmaBench b;
  std::vector<tlm::tlm_response_status> s;
  std::uint32_t src = 0;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    std::uint32_t v = 0x1234;
    s.push_back(c.write(kDma + dma_reg::kSrc, &v, 4));
    s.push_back(c.read(kDma + dma_reg::kSrc, &src, 4));
    s.push_back(c.write(kDma + dma_reg::kStatus, &v, 4));  // read-only
    s.push_back(c.read(kDma + 0x14, &v, 4));               // no register
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(s[1], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(src, 0x1234u);
  EXPECT_EQ(s[2], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(s[3], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b.dma.transfers(), 0u);
}

TEST(ModelDmaEngine, CpuAccessWaitsForTheDmaBursts) {
  // The DMA starts at 160 ns; its first chunk reads 1025 bus cycles from 260 ns, [260, 10510), and then
  // writes 1025 bus cycles on the same shared bus, [10510, 20760). A CPU load arriving at 10210 ns must wait
  // until both bursts are over: it is granted [20760, 20780).
  test::set_quantum(sc_core::SC_ZERO_TIME);
  DmaBench b;
  sc_core::sc_time first_end, second_end;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    b.program(c, kMem, kMem + 0x80000, 2048, dma_reg::kCtrlStart);  // 160 ns
    c.read32(kMem + 0xF0000);  // on the bus [170, 190): before the DMA's first burst
    first_end = c.now();
    c.compute(999);  // 10200 ns: arrives on the bus at 10210 ns
    c.read32(kMem + 0xF0000);
    second_end = c.now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(first_end, ns(210));               // 160 + 10 issue + 20 bus + 20 memory
  EXPECT_EQ(second_end, ns(20760 + 20 + 20));  // grant at 20760 + 20 bus + 20 memory
  EXPECT_EQ(b.bus.calendar().wait_time(), ns(20760 - 10210 + 20));
  // The CPU reserved [20760, 20780) before the DMA's second chunk arrived at 20760 ns: that chunk's read
  // waits 20 ns. 100 setup + 20500 + 20 + 20500 = 41120 ns.
  EXPECT_EQ(b.dma.busy_time(), ns(41120));
}

}  // namespace
}  // namespace rsoc::models
