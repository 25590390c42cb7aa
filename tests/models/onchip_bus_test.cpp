// OnChipBus: (latency_cycles + words * cycles_per_word) bus cycles per access, then the target's latency;
// one transfer at a time, later arrivals wait for the grant.
#include "models/onchip_bus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "models/memory.h"
#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

// CPU at 100 MHz (1 issue cycle = 10 ns) -> bus at 50 MHz (20 ns, 2 latency cycles, 1 cycle per word) ->
// memory at 200 MHz (5 ns, 3 latency cycles, 2 cycles per word).
struct BusBench {
  explicit BusBench(unsigned hw_threads = 1)
      : cpu("cpu", CpuParams{ns(10), hw_threads, 1, 1024}),
        bus("bus", OnChipBusParams{ns(20), 2, 1}),
        mem("mem", MemoryParams{1 << 20, ns(5), 3, 2}) {
    bus.add_initiator(cpu.initiator);
    bus.add_target(mem.target, 0x10000000, 1 << 20, "mem");
  }
  SoftCpu cpu;
  OnChipBus bus;
  Memory mem;
};

constexpr std::uint64_t kBusMem = 0x10000000;

TEST(ModelOnChipBus, SingleAccessTime) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  BusBench b;
  std::vector<sc_core::sc_time> t;
  std::array<std::uint32_t, 16> burst{};
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    c.read32(kBusMem);
    t.push_back(c.now());
    c.write32(kBusMem + 4, 5);
    t.push_back(c.now());
    c.read(kBusMem, burst.data(), 64);
    t.push_back(c.now());
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(t.size(), 3u);
  // One word: 10 ns issue + (2 + 1 * 1) * 20 ns bus + (3 + 1 * 2) * 5 ns memory = 10 + 60 + 25 = 95 ns.
  EXPECT_EQ(t[0], ns(95));
  EXPECT_EQ(t[1], ns(95 + 95));
  // Sixteen words: 10 ns + (2 + 16) * 20 ns + (3 + 32) * 5 ns = 10 + 360 + 175 = 545 ns.
  EXPECT_EQ(t[2], ns(190 + 545));
  EXPECT_EQ(b.bus.transactions(), 3u);
  EXPECT_EQ(b.bus.words(), 18u);
  EXPECT_EQ(b.bus.calendar().busy_time(), ns(60 + 60 + 360));
  EXPECT_EQ(b.bus.calendar().wait_time(), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(b.bus.calendar().contended(), 0u);
}

TEST(ModelOnChipBus, SecondInitiatorWaitsForTheFirst) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  BusBench b(2);
  sc_core::sc_time end_a, end_b, start_b;
  test::TestThread a("a", [&] {
    CpuThread& c = b.cpu.thread(0);
    c.read32(kBusMem);  // on the bus [10, 70)
    end_a = c.now();
  });
  test::TestThread bt("b", [&] {
    CpuThread& c = b.cpu.thread(1);
    c.compute(3);  // 30 ns
    start_b = c.now();
    c.read32(kBusMem + 0x100);  // arrives at 40 ns, granted at 70 ns: waits 30 ns
    end_b = c.now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(a.finished() && bt.finished());
  EXPECT_EQ(end_a, ns(95));  // 10 + 60 + 25
  EXPECT_EQ(start_b, ns(30));
  EXPECT_EQ(end_b, ns(155));  // grant at 70 ns + 60 ns bus + 25 ns memory
  const ResourceCalendar& cal = b.bus.calendar();
  EXPECT_EQ(cal.busy_time(), ns(120));
  EXPECT_EQ(cal.wait_time(), ns(30));
  EXPECT_EQ(cal.reservations(), 2u);
  EXPECT_EQ(cal.contended(), 1u);
  EXPECT_EQ(b.cpu.thread(1).io_time(), ns(125));  // 155 - 30: the stall includes the wait
}

TEST(ModelOnChipBus, SimultaneousArrivalsAreSerialised) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  BusBench b(2);
  sc_core::sc_time end[2];
  test::TestThread a("a", [&] {
    b.cpu.thread(0).read32(kBusMem);
    end[0] = b.cpu.thread(0).now();
  });
  test::TestThread bt("b", [&] {
    b.cpu.thread(1).read32(kBusMem + 4);
    end[1] = b.cpu.thread(1).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(a.finished() && bt.finished());
  // Both arrive at 10 ns; whichever goes first ends at 95 ns, the other is granted at 70 ns: 70 + 60 + 25.
  EXPECT_EQ(std::min(end[0], end[1]), ns(95));
  EXPECT_EQ(std::max(end[0], end[1]), ns(155));
  EXPECT_EQ(b.bus.calendar().wait_time(), ns(60));
  EXPECT_EQ(b.bus.calendar().contended(), 1u);
}

TEST(ModelOnChipBus, InitiatorRunningAheadLeavesEarlierGapFree) {
  // With a 1 us quantum both threads run at kernel time 0; thread 0 reserves the bus for its local time
  // 510 ns first or second, and thread 1 still gets the earlier free slot [10, 70) without waiting.
  test::set_quantum(ns(1000));
  BusBench b(2);
  sc_core::sc_time end[2], kernel[2];
  test::TestThread a("a", [&] {
    CpuThread& c = b.cpu.thread(0);
    c.compute(50);  // local 500 ns
    c.read32(kBusMem);
    end[0] = c.now();
    kernel[0] = sc_core::sc_time_stamp();
  });
  test::TestThread bt("b", [&] {
    CpuThread& c = b.cpu.thread(1);
    c.read32(kBusMem + 4);
    end[1] = c.now();
    kernel[1] = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  ASSERT_TRUE(a.finished() && bt.finished());
  EXPECT_EQ(end[0], ns(595));  // 500 + 95
  EXPECT_EQ(end[1], ns(95));
  EXPECT_EQ(kernel[0], sc_core::SC_ZERO_TIME);  // neither thread reached the quantum
  EXPECT_EQ(kernel[1], sc_core::SC_ZERO_TIME);
  EXPECT_EQ(b.bus.calendar().wait_time(), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(b.bus.calendar().busy_time(), ns(120));
}

}  // namespace
}  // namespace rsoc::models
