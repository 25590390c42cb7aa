// SoftCpu / CpuThread: compute cycles, loosely-timed quantum behaviour, hardware threads, MMIO costs, bus
// errors and pipelined stream copies.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "models/memory.h"
#include "models/onchip_bus.h"
#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;
using test::ps;

// A CPU whose socket ends at a probe: enough for tests that only compute.
struct LoneCpu {
  explicit LoneCpu(const CpuParams& params) : cpu("cpu", params), sink("sink", sc_core::SC_ZERO_TIME) {
    cpu.initiator.bind(sink.target);
  }
  SoftCpu cpu;
  test::ProbeTarget sink;
};

TEST(ModelSoftCpu, ComputeAdvancesExactlyTheCycles) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  LoneCpu lone(CpuParams{ns(10), 1, 1, 1024});
  SoftCpu& cpu = lone.cpu;
  std::vector<sc_core::sc_time> local, kernel;
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    c.compute(37);
    local.push_back(c.now());
    kernel.push_back(sc_core::sc_time_stamp());
    c.compute(0);
    local.push_back(c.now());
    c.compute(1000000);
    local.push_back(c.now());
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(local[0], ns(370));   // 37 cycles * 10 ns
  EXPECT_EQ(kernel[0], ns(370));  // no quantum: every step synchronises
  EXPECT_EQ(local[1], ns(370));
  EXPECT_EQ(local[2], ns(370 + 10000000));  // 1e6 cycles * 10 ns = 10 ms
  EXPECT_EQ(cpu.thread(0).cycles(), 1000037u);
  EXPECT_EQ(cpu.thread(0).compute_time(), ns(10000370));
  EXPECT_EQ(cpu.thread(0).io_time(), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(cpu.cycles(3), ns(30));
}

TEST(ModelSoftCpu, BusyWaitStallsOnTheDeviceUntilItsTime) {
  // A polling loop on a device (a UART's transmit flag): the thread's time moves to the given time, counted
  // as device time (io) with its cycles; a time already passed changes nothing.
  test::set_quantum(sc_core::SC_ZERO_TIME);
  LoneCpu lone(CpuParams{ns(10), 1, 1, 1024});
  SoftCpu& cpu = lone.cpu;
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    c.compute(10);  // 100 ns
    c.busy_wait(ns(1000));
    EXPECT_EQ(c.now(), ns(1000));
    EXPECT_EQ(c.io_time(), ns(900));
    EXPECT_EQ(c.compute_time(), ns(100));
    EXPECT_EQ(c.cycles(), 100u);
    c.busy_wait(ns(500));  // already past
    EXPECT_EQ(c.now(), ns(1000));
    EXPECT_EQ(c.io_time(), ns(900));
  });
  sc_core::sc_start();
  EXPECT_TRUE(th.finished());
}

TEST(ModelSoftCpu, KernelTimeLagsWithinTheQuantum) {
  test::set_quantum(ns(1000));
  LoneCpu lone(CpuParams{ns(10), 1, 1, 1024});
  SoftCpu& cpu = lone.cpu;
  std::vector<sc_core::sc_time> local, kernel;
  auto sample = [&](CpuThread& c) {
    local.push_back(c.now());
    kernel.push_back(sc_core::sc_time_stamp());
  };
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    c.compute(37);  // local 370 ns, inside the 1 us quantum
    sample(c);
    c.compute(63);  // local 1000 ns: reaches the quantum, synchronises
    sample(c);
    c.compute(5);  // 1050 ns
    sample(c);
    c.sync();
    sample(c);
    c.compute(250);  // 3550 ns crosses the sync point at 2000 ns: the whole offset is synchronised
    sample(c);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(local.size(), 5u);
  EXPECT_EQ(local[0], ns(370));
  EXPECT_EQ(kernel[0], sc_core::SC_ZERO_TIME);
  EXPECT_EQ(local[1], ns(1000));
  EXPECT_EQ(kernel[1], ns(1000));
  EXPECT_EQ(local[2], ns(1050));
  EXPECT_EQ(kernel[2], ns(1000));
  EXPECT_EQ(local[3], ns(1050));
  EXPECT_EQ(kernel[3], ns(1050));
  EXPECT_EQ(local[4], ns(3550));
  EXPECT_EQ(kernel[4], ns(3550));
}

TEST(ModelSoftCpu, ASyncAtNoOffsetLetsWhatIsDueNowRunFirstAndCostsNothingAlone) {
  test::set_quantum(ns(1000));
  LoneCpu lone(CpuParams{ns(10), 1, 1, 1024});
  SoftCpu& cpu = lone.cpu;
  sc_core::sc_event go;
  std::vector<std::string> order;
  std::uint64_t deltas_alone = ~0ull;
  test::TestThread other("other", [&] {
    sc_core::wait(go);
    order.push_back("other");
  });
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    c.compute(100);
    c.sync();  // at 1 us, the other thread waiting for `go`
    const std::uint64_t before = sc_core::sc_delta_count();
    for (int i = 0; i < 5; ++i) c.sync();  // nothing else due at this instant: no delta cycle
    deltas_alone = sc_core::sc_delta_count() - before;
    go.notify();  // the other thread is due at this instant now
    c.sync();     // and runs before this one goes on
    order.push_back("th");
    EXPECT_EQ(sc_core::sc_time_stamp(), ns(1000));
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(deltas_alone, 0u);
  EXPECT_EQ(order, (std::vector<std::string>{"other", "th"}));
}

TEST(ModelSoftCpu, NonIntegralClockUsesTheRoundedPeriod) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  // 180 MHz: 1 / 180e6 s = 5555.56 ps, rounded to 5556 ps.
  LoneCpu lone(CpuParams{sc_core::sc_time(1.0 / 180e6, sc_core::SC_SEC), 1, 1, 1024});
  SoftCpu& cpu = lone.cpu;
  sc_core::sc_time end;
  test::TestThread th("th", [&] {
    cpu.thread(0).compute(1000);
    end = cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(end, ps(5556000));
}

TEST(ModelSoftCpu, HardwareThreadsKeepTheirOwnTime) {
  test::set_quantum(ns(10000));
  LoneCpu lone(CpuParams{ns(10), 4, 1, 1024});
  SoftCpu& cpu = lone.cpu;
  EXPECT_EQ(cpu.thread_count(), 4u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(cpu.thread(i).index(), i);
    EXPECT_EQ(&cpu.thread(i).cpu(), &cpu);
  }
  EXPECT_THROW(cpu.thread(4), std::out_of_range);
  sc_core::sc_time end0, end1;
  test::TestThread t0("t0", [&] {
    cpu.thread(0).compute(100);
    end0 = cpu.thread(0).now();
  });
  test::TestThread t1("t1", [&] {
    cpu.thread(1).compute(250);
    end1 = cpu.thread(1).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(t0.finished() && t1.finished());
  EXPECT_EQ(end0, ns(1000));
  EXPECT_EQ(end1, ns(2500));
  EXPECT_EQ(cpu.thread(0).cycles(), 100u);
  EXPECT_EQ(cpu.thread(1).cycles(), 250u);
  EXPECT_EQ(cpu.thread(2).cycles(), 0u);
}

TEST(ModelSoftCpu, ZeroHardwareThreadsIsAnElaborationError) {
  EXPECT_THROW(SoftCpu("cpu", CpuParams{ns(10), 0, 1, 1024}), ElaborationError);
}

// CPU -> bus (10 ns, 1 latency cycle, 1 cycle per word) -> 1 MiB memory at 0x10000000 (10 ns, 1 + 1 per
// word).
struct CpuBench {
  explicit CpuBench(const CpuParams& params)
      : cpu("cpu", params),
        bus("bus", OnChipBusParams{ns(10), 1, 1}),
        mem("mem", MemoryParams{1 << 20, ns(10), 1, 1}) {
    bus.add_initiator(cpu.initiator);
    bus.add_target(mem.target, 0x10000000, 1 << 20, "mem");
  }
  SoftCpu cpu;
  OnChipBus bus;
  Memory mem;
};

TEST(ModelSoftCpu, MmioCostsIssueCyclesPlusThePath) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CpuBench b(CpuParams{ns(10), 1, /*mmio_cycles=*/3, 1024});
  sc_core::sc_time after_write, after_compute, after_read;
  std::uint32_t v = 0;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    c.write32(0x10000000, 77);
    after_write = c.now();
    c.compute(5);
    after_compute = c.now();
    v = c.read32(0x10000000);
    after_read = c.now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(v, 77u);
  // 3 * 10 ns issue + (1 + 1) * 10 ns bus + (1 + 1) * 10 ns memory = 70 ns.
  EXPECT_EQ(after_write, ns(70));
  EXPECT_EQ(after_compute, ns(120));
  EXPECT_EQ(after_read, ns(190));
  const CpuThread& c = b.cpu.thread(0);
  EXPECT_EQ(c.accesses(), 2u);
  EXPECT_EQ(c.cycles(), 5u + 2 * 3);
  EXPECT_EQ(c.io_time(), ns(140));
  EXPECT_EQ(c.compute_time(), ns(50));
  EXPECT_EQ(c.busy_time(), ns(190));
}

TEST(ModelSoftCpu, BusErrorOnUnmappedAddress) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CpuBench b(CpuParams{});
  bool read_threw = false, write_threw = false;
  std::uint64_t address = 0;
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  std::string what;
  sc_core::sc_time after;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    try {
      c.read32(0x80000000);
    } catch (const BusError& e) {
      read_threw = true;
      address = e.address();
      status = e.status();
      what = e.what();
    }
    after = c.now();
    try {
      c.write32(0x10100000, 1);  // one past the memory
    } catch (const BusError&) {
      write_threw = true;
    }
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_TRUE(read_threw);
  EXPECT_TRUE(write_threw);
  EXPECT_EQ(address, 0x80000000u);
  EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_NE(what.find("cpu"), std::string::npos) << what;
  EXPECT_NE(what.find("0x80000000"), std::string::npos) << what;
  EXPECT_EQ(after, ns(10));  // the failed load still cost its issue cycle
  EXPECT_EQ(b.cpu.thread(0).accesses(), 2u);
}

TEST(ModelSoftCpu, StreamCopyRunsAtTheSlowestStage) {
  // Memory to memory through one bus, 2 CPU cycles per word, chunks of 1024 words. Per chunk of n words:
  // copy loop 2 * n * 10 ns, memory (read + write) 2 * n * 10 ns, bus (read + write) 2 * (1 + n) * 10 ns:
  // the bus is the slowest stage with 20500 ns per 1024 words.
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CpuBench b(CpuParams{ns(10), 1, 1, 1024});
  std::vector<std::uint8_t> data(4 * 4096);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 13 + 1);
  b.mem.load(0, data.data(), data.size());
  sc_core::sc_time elapsed;
  std::string bottleneck;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    const sc_core::sc_time t0 = c.now();
    status = c.stream_copy(0x10000000, 0x10080000, /*dst_fixed=*/false, 4096, 2, &bottleneck);
    elapsed = c.now() - t0;
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(elapsed, ns(4 * 20500));  // 4 chunks of 1024 words
  EXPECT_EQ(bottleneck, "bus");
  EXPECT_EQ(b.bus.calendar().wait_time(), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(b.cpu.thread(0).cycles(), 4096u * 2);
  std::vector<std::uint8_t> copy(data.size());
  b.mem.peek(0x80000, copy.data(), copy.size());
  EXPECT_EQ(copy, data);
}

TEST(ModelSoftCpu, StreamCopyStopsAtTheFirstError) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CpuBench b(CpuParams{ns(10), 1, 1, 256});
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  test::TestThread th("th", [&] {
    // Chunks of 256 words (1 KiB): the source runs off the end of the memory in the third chunk.
    status = b.cpu.thread(0).stream_copy(0x10100000 - 0x800, 0x10000000, false, 1024, 1);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b.cpu.thread(0).cycles(), 512u);  // only the two chunks moved count
  EXPECT_EQ(b.bus.unmapped_accesses(), 1u);
}

}  // namespace
}  // namespace rsoc::models
