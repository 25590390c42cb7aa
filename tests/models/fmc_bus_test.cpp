// FmcBus: asynchronous words with NWAIT polled by the CPU, double reads, byte swapping, the polling limit,
// synchronous mode, and the equivalence of burst and word-by-word timing.
//
// Clocks: CPU 180 MHz and FMC 90 MHz. With the default 1 ps resolution their periods round to
// Tcpu = 5556 ps (1/180e6 s = 5555.56 ps) and Tbus = 11111 ps (1/90e6 s = 11111.1 ps); every expected time
// below is computed from these rounded periods.
#include "models/fmc_bus.h"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ps;

constexpr std::uint64_t kTcpu = 5556;   // ps
constexpr std::uint64_t kTbus = 11111;  // ps
constexpr std::uint64_t kBase = 0x60000000;

sc_core::sc_time cpu_period() {
  return sc_core::sc_time(1.0 / 180e6, sc_core::SC_SEC);
}
sc_core::sc_time bus_period() {
  return sc_core::sc_time(1.0 / 90e6, sc_core::SC_SEC);
}

// A 180 MHz CPU (1 issue cycle) -> FMC -> a target whose NWAIT time is `nwait_cycles` FMC cycles.
struct FmcBench {
  FmcBench(const char* prefix, const FmcBusParams& params, unsigned nwait_cycles)
      : cpu((std::string(prefix) + "_cpu").c_str(), CpuParams{cpu_period(), 1, 1, 1024}),
        fmc((std::string(prefix) + "_fmc").c_str(), params),
        fpga((std::string(prefix) + "_fpga").c_str(), bus_period() * nwait_cycles) {
    fmc.add_initiator(cpu.initiator);
    fmc.add_target(fpga.target, kBase, 0x10000, "fpga");
  }
  SoftCpu cpu;
  FmcBus fmc;
  test::ProbeTarget fpga;
};

// Asynchronous: setup 1 + data 2 + hold 1 FMC cycles, a poll every 4 CPU cycles, double reads,
// 3 CPU cycles of software byte swapping per word.
FmcBusParams async_params() {
  FmcBusParams p;
  p.clock_period = bus_period();
  p.cpu_clock_period = cpu_period();
  p.mode = FmcMode::kAsync;
  p.addr_setup_cycles = 1;
  p.data_cycles = 2;
  p.hold_cycles = 1;
  p.poll_cycles = 4;
  p.max_polls = 10;
  p.double_read = true;
  p.byteswap_cycles = 3;
  return p;
}

TEST(ModelFmcBus, ClockPeriodsRoundToPicoseconds) {
  EXPECT_EQ(cpu_period(), ps(kTcpu));
  EXPECT_EQ(bus_period(), ps(kTbus));
}

TEST(ModelFmcBus, AsyncDoubleReadWithWaitStatesAndPolling) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  FmcBench b("a", async_params(), 7);  // k = 7 wait states
  std::uint32_t value = 0;
  sc_core::sc_time end;
  test::TestThread th("th", [&] {
    value = b.cpu.thread(0).read32(kBase + 0x40);
    end = b.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(value, test::ProbeTarget::pattern(0x40));
  // NWAIT = 7 * 11111 = 77777 ps; a poll = 4 * 5556 = 22224 ps; ceil(77777 / 22224) = ceil(3.4996) = 4 polls
  // until release, + 1 that sees it released = 5 polls per bus read, 2 bus reads (double read).
  EXPECT_EQ(b.fmc.polls(), 10u);
  EXPECT_EQ(b.fmc.bus_reads(), 2u);
  EXPECT_EQ(b.fmc.words_read(), 1u);
  EXPECT_EQ(b.fmc.failed_words(), 0u);
  EXPECT_EQ(b.fpga.accesses(), 2u);
  EXPECT_EQ(b.fmc.poll_time(), ps(10 * 4 * kTcpu));  // 222240 ps
  EXPECT_EQ(b.fmc.byteswap_time(), ps(3 * kTcpu));   // 16668 ps
  // issue 1 * 5556
  // + 2 * ((1 + 2 + 1 + 7) * 11111 + 5 * 4 * 5556) = 2 * (122221 + 111120) = 466682
  // + byteswap 3 * 5556 = 16668
  // = 488906 ps
  EXPECT_EQ(end, ps(kTcpu + 2 * ((1 + 2 + 1 + 7) * kTbus + 5 * 4 * kTcpu) + 3 * kTcpu));
  EXPECT_EQ(end, ps(488906));
  // The second bus read is issued after the first one's polls: 5556 + 122221 + 111120 ps, and the target
  // sees each access after the 4 address/data/hold cycles.
  ASSERT_EQ(b.fpga.arrivals().size(), 2u);
  EXPECT_EQ(b.fpga.arrivals()[0], ps(kTcpu + 4 * kTbus));
  EXPECT_EQ(b.fpga.arrivals()[1], ps(kTcpu + 11 * kTbus + 20 * kTcpu + 4 * kTbus));
  EXPECT_EQ(b.fmc.calendar().busy_time(), ps(2 * 11 * kTbus));
}

TEST(ModelFmcBus, AsyncWriteIsNotDoubled) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  FmcBench b("a", async_params(), 7);
  sc_core::sc_time end;
  test::TestThread th("th", [&] {
    b.cpu.thread(0).write32(kBase + 0x8, 0x0BADF00D);
    end = b.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(b.fpga.word(0x8), 0x0BADF00Du);
  EXPECT_EQ(b.fmc.polls(), 5u);
  EXPECT_EQ(b.fmc.bus_reads(), 0u);
  EXPECT_EQ(b.fmc.words_written(), 1u);
  // 5556 + (11 * 11111 + 5 * 4 * 5556) + 3 * 5556 = 5556 + 233341 + 16668 = 255565 ps
  EXPECT_EQ(end, ps(255565));
}

TEST(ModelFmcBus, NoWaitStatesStillPollsOnce) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  FmcBusParams p = async_params();
  p.byteswap_cycles = 0;
  FmcBench b("a", p, 0);
  sc_core::sc_time end;
  test::TestThread th("th", [&] {
    b.cpu.thread(0).read32(kBase);
    end = b.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(b.fmc.polls(), 2u);  // one poll per bus read, which already sees NWAIT released
  // 5556 + 2 * (4 * 11111 + 1 * 4 * 5556) = 5556 + 2 * (44444 + 22224) = 138892 ps
  EXPECT_EQ(end, ps(138892));
}

TEST(ModelFmcBus, PollCountRoundsUpPartialPolls) {
  // NWAIT of 5 FMC cycles = 55555 ps against a poll of 10 CPU cycles = 55560 ps: one poll covers it
  // (ceil(0.9999) = 1), + 1 = 2 polls. Single read, no byte swapping.
  test::set_quantum(sc_core::SC_ZERO_TIME);
  FmcBusParams p = async_params();
  p.poll_cycles = 10;
  p.double_read = false;
  p.byteswap_cycles = 0;
  FmcBench b("a", p, 5);
  sc_core::sc_time end;
  test::TestThread th("th", [&] {
    b.cpu.thread(0).read32(kBase);
    end = b.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(b.fmc.polls(), 2u);
  // 5556 + (4 + 5) * 11111 + 2 * 10 * 5556 = 5556 + 99999 + 111120 = 216675 ps
  EXPECT_EQ(end, ps(216675));
}

TEST(ModelFmcBus, TooManyPollsFailTheAccess) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  FmcBusParams p = async_params();
  p.max_polls = 4;  // 7 wait states need 5 polls
  p.byteswap_cycles = 0;
  FmcBench b("a", p, 7);
  bool threw = false;
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  sc_core::sc_time end;
  test::TestThread th("th", [&] {
    try {
      b.cpu.thread(0).read32(kBase + 0x10);
    } catch (const BusError& e) {
      threw = true;
      status = e.status();
    }
    end = b.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_TRUE(threw);
  EXPECT_EQ(status, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(b.fmc.failed_words(), 1u);
  EXPECT_EQ(b.fmc.bus_reads(), 1u);  // the double read stops at the failing first read
  EXPECT_EQ(b.fmc.polls(), 4u);      // the CPU gives up after max_polls
  // 5556 + 11 * 11111 + 4 * 4 * 5556 = 5556 + 122221 + 88896 = 216673 ps
  EXPECT_EQ(end, ps(216673));
}

TEST(ModelFmcBus, NwaitInHardwareHasNoPollingAndSyncModeAFixedLatency) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  FmcBusParams p = async_params();
  p.mode = FmcMode::kSync;
  p.nwait = FmcNwait::kHardware;
  p.double_read = false;
  p.sync_latency_cycles = 9;
  p.byteswap_cycles = 2;
  FmcBench b("a", p, 7);
  std::uint32_t value = 0;
  sc_core::sc_time end;
  test::TestThread th("th", [&] {
    value = b.cpu.thread(0).read32(kBase + 0x20);
    end = b.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(value, test::ProbeTarget::pattern(0x20));
  EXPECT_EQ(b.fmc.polls(), 0u);
  EXPECT_EQ(b.fmc.bus_reads(), 1u);
  EXPECT_EQ(b.fmc.poll_time(), sc_core::SC_ZERO_TIME);
  // 5556 + (9 + 7) * 11111 + 2 * 5556 = 5556 + 177776 + 11112 = 194444 ps
  EXPECT_EQ(end, ps(194444));
}

// The Cryptech Alpha's configuration (scenarios/hsm_rsa2048.md): a synchronous bus whose controller ignores
// NWAIT, so the CPU still polls it after every access and reads twice; its driver software costs cycles per
// word read and written.
TEST(ModelFmcBus, SyncModeWithNwaitPolledPollsReadsTwiceAndChargesTheDriverPerWord) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  FmcBusParams p = async_params();
  p.mode = FmcMode::kSync;
  p.sync_latency_cycles = 5;
  p.read_software_cycles = 20;
  p.write_software_cycles = 9;
  FmcBench b("a", p, 7);
  std::uint32_t value = 0;
  sc_core::sc_time read_end, write_end;
  test::TestThread th("th", [&] {
    value = b.cpu.thread(0).read32(kBase + 0x40);
    read_end = b.cpu.thread(0).now();
    b.cpu.thread(0).write32(kBase + 0x8, 1);
    write_end = b.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(value, test::ProbeTarget::pattern(0x40));
  EXPECT_EQ(b.fmc.bus_reads(), 2u);
  EXPECT_EQ(b.fmc.polls(), 15u);  // 5 after each of the two reads and after the write
  // issue 1 + 2 * ((5 + 7) bus cycles + 5 polls of 4) + swap 3 + read software 20 CPU cycles
  EXPECT_EQ(read_end, ps(kTcpu + 2 * (12 * kTbus + 20 * kTcpu) + 3 * kTcpu + 20 * kTcpu));
  // issue 1 + (5 + 7) bus cycles + 5 polls of 4 + swap 3 + write software 9
  EXPECT_EQ(write_end - read_end, ps(kTcpu + 12 * kTbus + 20 * kTcpu + 3 * kTcpu + 9 * kTcpu));
}

// The timing of a word as its Params state it, which the model and platform/estimate.cpp both use: the phases
// of each mode, a poll right after the access and then one per poll time started while NWAIT holds, the
// driver's routine of each direction and a read made twice.
TEST(ModelFmcBus, ParamsStateTheTimingOfAWord) {
  FmcBusParams p;
  p.clock_period = test::ps(kTbus);
  p.cpu_clock_period = test::ps(kTcpu);
  p.addr_setup_cycles = 2;
  p.data_cycles = 3;
  p.hold_cycles = 1;
  p.sync_latency_cycles = 9;
  EXPECT_EQ(p.phase_cycles(), 6u);
  p.mode = FmcMode::kSync;
  EXPECT_EQ(p.phase_cycles(), 9u);
  p.poll_cycles = 4;                   // 22224 ps a poll
  EXPECT_EQ(p.nwait_polls(0), 1u);     // released at once: the one poll after the access
  EXPECT_EQ(p.nwait_polls(2), 2u);     // 22222 ps: one poll covers it
  EXPECT_EQ(p.nwait_polls(3), 3u);     // 33333 ps: a second poll starts
  EXPECT_EQ(p.nwait_polls(100), 51u);  // 1111100 ps: 49.99 polls
  p.poll_cycles = 0;
  EXPECT_EQ(p.nwait_polls(100), 1u);
  p.read_software_cycles = 7;
  p.write_software_cycles = 5;
  EXPECT_EQ(p.software_cycles(true), 7u);
  EXPECT_EQ(p.software_cycles(false), 5u);
  EXPECT_EQ(p.accesses_per_word(true), 1u);
  p.double_read = true;
  EXPECT_EQ(p.accesses_per_word(true), 2u);
  EXPECT_EQ(p.accesses_per_word(false), 1u);
}

TEST(ModelFmcBus, MisalignedAccessIsABurstError) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  FmcBench b("a", async_params(), 0);
  std::vector<tlm::tlm_response_status> status;
  test::TestThread th("th", [&] {
    std::array<std::uint8_t, 6> buf{};
    status.push_back(b.cpu.thread(0).read(kBase + 2, buf.data(), 4));
    status.push_back(b.cpu.thread(0).read(kBase, buf.data(), 6));
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(status.size(), 2u);
  EXPECT_EQ(status[0], tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(status[1], tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(b.fpga.accesses(), 0u);
}

TEST(ModelFmcBus, BurstAndWordByWordTimingAreIdentical) {
  // Two independent CPU/FMC/target systems, one per timing style, each reading the same 16-word burst.
  test::set_quantum(sc_core::SC_ZERO_TIME);
  FmcBusParams burst = async_params();
  burst.timing = FmcTiming::kBurst;
  FmcBusParams word_by_word = async_params();
  word_by_word.timing = FmcTiming::kWordByWord;
  FmcBench a("burst", burst, 7);
  FmcBench w("wbw", word_by_word, 7);
  std::array<std::uint32_t, 16> data_a{}, data_w{};
  sc_core::sc_time end_a, end_w;
  test::TestThread ta("ta", [&] {
    EXPECT_EQ(a.cpu.thread(0).read(kBase + 0x100, data_a.data(), 64), tlm::TLM_OK_RESPONSE);
    end_a = a.cpu.thread(0).now();
  });
  test::TestThread tw("tw", [&] {
    EXPECT_EQ(w.cpu.thread(0).read(kBase + 0x100, data_w.data(), 64), tlm::TLM_OK_RESPONSE);
    end_w = w.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(ta.finished() && tw.finished());
  // Per word: 2 * (11 * 11111 + 5 * 4 * 5556) + 3 * 5556 = 466682 + 16668 = 483350 ps;
  // 5556 + 16 * 483350 = 7739156 ps.
  EXPECT_EQ(end_a, ps(7739156));
  EXPECT_EQ(end_w, end_a);
  EXPECT_EQ(a.fmc.polls(), 160u);  // 16 words * 2 reads * 5 polls
  EXPECT_EQ(w.fmc.polls(), a.fmc.polls());
  EXPECT_EQ(a.fmc.bus_reads(), 32u);
  EXPECT_EQ(w.fmc.bus_reads(), 32u);
  EXPECT_EQ(a.fmc.poll_time(), w.fmc.poll_time());
  EXPECT_EQ(a.fpga.arrivals(), w.fpga.arrivals());
  for (unsigned i = 0; i < 16; ++i) {
    EXPECT_EQ(data_a[i], test::ProbeTarget::pattern(0x100 + 4 * i)) << i;
    EXPECT_EQ(data_w[i], data_a[i]) << i;
  }
}

TEST(ModelFmcBus, BurstAndWordByWordTimingAreIdenticalWithAQuantum) {
  // Same comparison with the CPUs running 100 cycles ahead of the kernel inside a 10 us quantum.
  test::set_quantum(sc_core::sc_time(10, sc_core::SC_US));
  FmcBusParams burst = async_params();
  burst.timing = FmcTiming::kBurst;
  FmcBusParams word_by_word = async_params();
  word_by_word.timing = FmcTiming::kWordByWord;
  FmcBench a("burst", burst, 7);
  FmcBench w("wbw", word_by_word, 7);
  std::array<std::uint32_t, 16> data_a{}, data_w{};
  sc_core::sc_time end_a, end_w;
  test::TestThread ta("ta", [&] {
    a.cpu.thread(0).compute(100);
    a.cpu.thread(0).read(kBase, data_a.data(), 64);
    end_a = a.cpu.thread(0).now();
  });
  test::TestThread tw("tw", [&] {
    w.cpu.thread(0).compute(100);
    w.cpu.thread(0).read(kBase, data_w.data(), 64);
    end_w = w.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(ta.finished() && tw.finished());
  // 100 * 5556 + 7739156 = 8294756 ps
  EXPECT_EQ(end_a, ps(8294756));
  EXPECT_EQ(end_w, end_a);
  EXPECT_EQ(w.fmc.polls(), a.fmc.polls());
  EXPECT_EQ(a.fpga.arrivals(), w.fpga.arrivals());
  EXPECT_EQ(data_w, data_a);
}

}  // namespace
}  // namespace rsoc::models
