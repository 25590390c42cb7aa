// Memory: data round trips, the latency formula, range checks, sparse pages and debug transport.
#include "models/memory.h"

#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

// A 1 MiB memory at 200 MHz (5 ns) with 3 latency cycles and 2 cycles per word, bound straight to a 100 MHz
// CPU.
MemoryParams slow_memory(std::uint64_t size = 1 << 20) {
  return MemoryParams{size, ns(5), 3, 2};
}

TEST(ModelMemory, LatencyFormulaAndRoundTrip) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  SoftCpu cpu("cpu", CpuParams{ns(10), 1, 1, 1024});
  Memory mem("mem", slow_memory());
  cpu.initiator.bind(mem.target);
  std::vector<sc_core::sc_time> t;
  std::uint32_t word = 0;
  std::array<std::uint32_t, 16> in{}, out{};
  std::iota(in.begin(), in.end(), 0xB0000000u);
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    c.write32(0x100, 0xDEADBEEF);
    t.push_back(c.now());
    word = c.read32(0x100);
    t.push_back(c.now());
    EXPECT_EQ(c.write(0x2000, in.data(), 64), tlm::TLM_OK_RESPONSE);
    t.push_back(c.now());
    EXPECT_EQ(c.read(0x2000, out.data(), 64), tlm::TLM_OK_RESPONSE);
    t.push_back(c.now());
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(word, 0xDEADBEEFu);
  EXPECT_EQ(out, in);
  ASSERT_EQ(t.size(), 4u);
  // One word: 1 issue cycle * 10 ns + (3 + 1 * 2) memory cycles * 5 ns = 35 ns.
  EXPECT_EQ(t[0], ns(35));
  EXPECT_EQ(t[1], ns(70));
  // Sixteen words: 10 ns + (3 + 16 * 2) * 5 ns = 185 ns each.
  EXPECT_EQ(t[2], ns(70 + 185));
  EXPECT_EQ(t[3], ns(70 + 185 + 185));
  EXPECT_EQ(mem.writes(), 17u);
  EXPECT_EQ(mem.reads(), 17u);
  // busy_time counts the data phases: 2 * (1 + 16) words * 2 cycles * 5 ns = 340 ns.
  EXPECT_EQ(mem.busy_time(), ns(340));
  // The memory and the CPU declare their own statistics (models/statistics.h).
  std::vector<StatGroup> stats;
  const StatisticsSource& memory_source = mem;
  memory_source.statistics(1.0, stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].resource, "memory.mem");
  EXPECT_EQ(stats[0].kind, "memory");
  ASSERT_EQ(stats[0].stats.size(), 3u);
  EXPECT_EQ(stats[0].stats[0].name, "busy_ms");
  EXPECT_DOUBLE_EQ(stats[0].stats[0].value, 340e-6);
  EXPECT_EQ(stats[0].stats[1].value, 17.0);  // words read
  stats.clear();
  cpu.statistics(1e-3, stats);  // a run of 1 us: the thread's utilization is its busy time over it
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].resource, "cpu.thread0");
  EXPECT_EQ(stats[1].resource, "cpu");
  EXPECT_DOUBLE_EQ(stats[0].stats[3].value, cpu.thread(0).busy_time().to_seconds() * 1e3 / 1e-3);
  std::uint32_t peeked = 0;
  mem.peek(0x100, reinterpret_cast<std::uint8_t*>(&peeked), 4);
  EXPECT_EQ(peeked, 0xDEADBEEFu);
}

// Energy arrives with the Params: a memory spends its costs per word read and written, a CPU its power over
// the run; without them neither counts energy nor reports it (models/energy.h).
TEST(ModelMemory, EnergyComesWithTheParams) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  CpuParams cpu_params{ns(10), 1, 1, 1024};
  cpu_params.power = CpuPower{30, 10};
  SoftCpu cpu("cpu", cpu_params);
  MemoryParams params = slow_memory();
  params.energy = MemoryEnergy{2, 3};  // nJ per word read, written
  Memory mem("mem", params);
  SoftCpu plain_cpu("plain_cpu", CpuParams{});
  Memory plain("plain", slow_memory());
  cpu.initiator.bind(mem.target);
  plain_cpu.initiator.bind(plain.target);
  std::array<std::uint32_t, 16> words{};
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    EXPECT_EQ(c.write(0x2000, words.data(), 64), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(c.read(0x2000, words.data(), 48), tlm::TLM_OK_RESPONSE);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_TRUE(mem.energy().on());
  EXPECT_DOUBLE_EQ(mem.energy().total_nj(), 16 * 3 + 12 * 2);
  EXPECT_FALSE(plain.energy().on());
  EXPECT_TRUE(cpu.has_power());
  EXPECT_DOUBLE_EQ(cpu.idle_mw(), 10);
  EXPECT_DOUBLE_EQ(cpu.busy_thread_mw(), 20);
  EXPECT_FALSE(plain_cpu.has_power());
  std::vector<StatGroup> stats;
  mem.statistics(1.0, stats);
  plain.statistics(1.0, stats);
  ASSERT_EQ(stats.size(), 2u);
  ASSERT_EQ(stats[0].stats.back().name, "energy_mj");
  EXPECT_DOUBLE_EQ(stats[0].stats.back().value, 72e-6);
  for (const Stat& s : stats[1].stats) EXPECT_NE(s.name, "energy_mj");
}

TEST(ModelMemory, PartialWordAccessesMoveExactBytes) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  SoftCpu cpu("cpu", CpuParams{});
  Memory mem("mem", slow_memory());
  cpu.initiator.bind(mem.target);
  const std::array<std::uint8_t, 6> in{1, 2, 3, 4, 5, 6};
  std::array<std::uint8_t, 8> out{};
  sc_core::sc_time t_write;
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    c.write(0x13, in.data(), 6);  // misaligned, two words' worth
    t_write = c.now();
    c.read(0x12, out.data(), 8);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  // 6 bytes count as 2 words: 10 ns + (3 + 2 * 2) * 5 ns = 45 ns.
  EXPECT_EQ(t_write, ns(45));
  EXPECT_EQ(out, (std::array<std::uint8_t, 8>{0, 1, 2, 3, 4, 5, 6, 0}));
}

TEST(ModelMemory, OutOfRangeAnswersAddressError) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  SoftCpu cpu("cpu", CpuParams{});
  Memory mem("mem", slow_memory(0x10000));
  cpu.initiator.bind(mem.target);
  std::vector<tlm::tlm_response_status> status;
  sc_core::sc_time t_fail;
  bool threw = false;
  tlm::tlm_response_status thrown = tlm::TLM_OK_RESPONSE;
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    std::uint32_t v = 0;
    status.push_back(c.read(0x10000, &v, 4));  // first byte past the end
    t_fail = c.now();
    status.push_back(c.read(0xFFFE, &v, 4));   // straddles the end
    status.push_back(c.write(0xFFFC, &v, 4));  // last word: fine
    try {
      c.read32(0x20000);
    } catch (const BusError& e) {
      threw = true;
      thrown = e.status();
    }
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(status.size(), 3u);
  EXPECT_EQ(status[0], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(status[1], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(status[2], tlm::TLM_OK_RESPONSE);
  EXPECT_TRUE(threw);
  EXPECT_EQ(thrown, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(t_fail, ns(10));  // only the issue cycle: a rejected access adds no memory time
  EXPECT_EQ(mem.reads(), 0u);
  EXPECT_EQ(mem.writes(), 1u);

  std::uint8_t byte = 0;
  EXPECT_THROW(mem.load(0xFFFF, &byte, 2), std::out_of_range);
  EXPECT_THROW(mem.peek(0x10000, &byte, 1), std::out_of_range);
  EXPECT_NO_THROW(mem.peek(0xFFFF, &byte, 1));
}

TEST(ModelMemory, SparsePagesReadZerosUntilWritten) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  SoftCpu cpu("cpu", CpuParams{});
  Memory mem("mem", MemoryParams{1ull << 32, ns(10), 1, 1});  // 4 GiB, never allocated as a whole
  cpu.initiator.bind(mem.target);
  std::uint32_t top = 1, middle = 1, across_lo = 0, across_hi = 0, next_page = 1;
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    top = c.read32((1ull << 32) - 4);
    middle = c.read32(0x80000000);
    const std::array<std::uint32_t, 2> two{0x11111111, 0x22222222};
    c.write(0x1FFFC, two.data(), 8);  // crosses from page 1 into page 2
    across_lo = c.read32(0x1FFFC);
    across_hi = c.read32(0x20000);
    next_page = c.read32(0x20004);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(top, 0u);
  EXPECT_EQ(middle, 0u);
  EXPECT_EQ(across_lo, 0x11111111u);
  EXPECT_EQ(across_hi, 0x22222222u);
  EXPECT_EQ(next_page, 0u);

  // Untimed loads cross pages too.
  std::vector<std::uint8_t> image(3 * 65536 + 7);
  for (std::size_t i = 0; i < image.size(); ++i) image[i] = static_cast<std::uint8_t>(i * 7 + 3);
  mem.load(0x70000001, image.data(), image.size());
  std::vector<std::uint8_t> back(image.size() + 2);
  mem.peek(0x70000000, back.data(), back.size());
  EXPECT_EQ(back.front(), 0u);
  EXPECT_EQ(back.back(), 0u);
  EXPECT_TRUE(std::equal(image.begin(), image.end(), back.begin() + 1));
}

TEST(ModelMemory, PayloadChecksAndDebugTransport) {
  Memory mem("mem", slow_memory());
  test::RawInitiator raw("raw");
  raw.initiator.bind(mem.target);
  std::vector<tlm::tlm_response_status> status;
  std::vector<sc_core::sc_time> delays;
  unsigned debug_written = 0, debug_read = 0;
  std::uint32_t debug_word = 0, timed_word = 0;
  test::TestThread th("th", [&] {
    std::uint32_t v = 0x01020304;
    std::array<unsigned char, 4> enable{0xFF, 0, 0xFF, 0};
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    status.push_back(raw.transport(tlm::TLM_WRITE_COMMAND, 0x40, &v, 4, d, enable.data()));
    delays.push_back(d);
    tlm::tlm_response_status s = tlm::TLM_INCOMPLETE_RESPONSE;
    debug_written = raw.debug(tlm::TLM_WRITE_COMMAND, 0x40, &v, 4, &s);
    status.push_back(s);
    debug_read = raw.debug(tlm::TLM_READ_COMMAND, 0x40, &debug_word, 4, &s);
    status.push_back(s);
    d = sc_core::SC_ZERO_TIME;
    status.push_back(raw.transport(tlm::TLM_IGNORE_COMMAND, 0x40, &v, 4, d));
    delays.push_back(d);
    d = ns(100);
    status.push_back(raw.transport(tlm::TLM_READ_COMMAND, 0x40, &timed_word, 4, d));
    delays.push_back(d);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(status.size(), 5u);
  EXPECT_EQ(status[0], tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  EXPECT_EQ(delays[0], sc_core::SC_ZERO_TIME);
  EXPECT_EQ(status[1], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(debug_written, 4u);
  EXPECT_EQ(status[2], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(debug_read, 4u);
  EXPECT_EQ(debug_word, 0x01020304u);
  EXPECT_EQ(status[3], tlm::TLM_OK_RESPONSE);  // ignored command
  EXPECT_EQ(delays[1], sc_core::SC_ZERO_TIME);
  EXPECT_EQ(status[4], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(timed_word, 0x01020304u);
  EXPECT_EQ(delays[2], ns(100 + (3 + 2) * 5));  // added to the incoming annotation
  EXPECT_EQ(mem.reads(), 1u);                   // debug accesses are not counted
  EXPECT_EQ(mem.writes(), 0u);
}

}  // namespace
}  // namespace rsoc::models
