// Where the time went: every request's latency split into its parts, which sum to it exactly (integer
// picoseconds) whatever the scenario — background load, software only, slot waits, the DMA data path, FMC
// NWAIT polling, cooperative scheduling — and take the values the timing contracts give where they are known.
#include <gtest/gtest.h>

#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;
using runtime::TimeUse;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

using rsoc::test::kScenarioDir;

std::uint64_t ps(const sc_time& t) {
  return t.value();
}

struct BreakdownRun {
  std::vector<runtime::RequestRecord> records;
  std::vector<analysis::StatGroup> stats;
  std::uint64_t slot_waits = 0;
  std::uint64_t end_ps = 0;  // when the simulation ended
};

BreakdownRun run_breakdown(const std::string& scenario, const std::vector<std::string>& overrides = {}) {
  platform::LoadOptions options;
  options.overrides = overrides;
  const auto s = platform::load_scenario_file(kScenarioDir + scenario, options);
  BreakdownRun out;
  platform::Simulation sim(s.params, [&](const runtime::RequestRecord& r) { out.records.push_back(r); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  out.stats = sim.stats(sc_core::sc_time_stamp().to_seconds() * 1e3);
  out.slot_waits = sim.manager().slots().slot_waits();
  out.end_ps = ps(sc_core::sc_time_stamp());
  return out;
}

double breakdown_stat(const BreakdownRun& r, const std::string& resource, const std::string& name) {
  return test::stat(r.stats, resource, name);
}

// Every request completed, and its parts sum exactly to its latency; its reconfiguration part is
// requests.csv's.
runtime::LatencyBreakdown expect_exact(const BreakdownRun& run) {
  runtime::LatencyBreakdown sum;
  EXPECT_FALSE(run.records.empty());
  for (const auto& r : run.records) {
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.breakdown.total(), r.end_ps - r.issue_ps) << "request " << r.id;
    EXPECT_EQ(r.breakdown[TimeUse::kReconfig], r.reconfig_ps) << "request " << r.id;
    for (std::size_t i = 0; i < runtime::kRequestTimeUses; ++i) sum.ps[i] += r.breakdown.ps[i];
  }
  return sum;
}

// CPU cycles per block (4 KiB) of the reference's software implementations at 100 MHz: 20,000 per execution
// and the bytes at 316.8 (AES) or 447.72 (DES) cycles each, rounded: 20,000 + 1,297,613 or 20,000 +
// 1,833,861.
sc_time reference_software_block(const std::string& functionality) {
  return sc_time(10, SC_NS) * (functionality == "aes128" ? 1317613.0 : 1853861.0);
}

}  // namespace

TEST(Breakdown, ReferenceSplitsBackgroundLoadReconfigurationAndProgrammedIo) {
  const BreakdownRun r = run_breakdown("os_aes_des.json");
  const auto sum = expect_exact(r);
  EXPECT_GT(sum[TimeUse::kCpuWait], 0u);  // the kernel daemon and the user load share the CPU
  EXPECT_GT(sum[TimeUse::kReconfig], 0u);
  EXPECT_GT(sum[TimeUse::kCpuIo], 0u);
  EXPECT_GT(sum[TimeUse::kCpuCompute], 0u);
  EXPECT_EQ(sum[TimeUse::kBusTransfer], 0u);  // PIO, and the CPU copies the bitstreams
  EXPECT_EQ(sum[TimeUse::kSlotWait], 0u);     // two slots, two cores
  // A status read (100 CPU cycles to issue) outlasts a block (11 or 16 core cycles): no poll finds a core
  // busy.
  EXPECT_EQ(sum[TimeUse::kCoreCompute], 0u);
  for (const auto& x : r.records)
    if (x.decision == "software") {  // exactly its cycles, nothing on devices; the rest is time sharing
      EXPECT_EQ(x.breakdown[TimeUse::kCpuCompute], ps(reference_software_block(x.functionality) * x.blocks));
      EXPECT_EQ(x.breakdown[TimeUse::kCpuIo], 0u);
    }
}

TEST(Breakdown, SoftwareOnlyRunIsComputingAndWaitingForTheCpu) {
  const BreakdownRun r = run_breakdown("os_aes_des.json", {"runtime.policy=software"});
  expect_exact(r);
  for (const auto& x : r.records) {
    EXPECT_EQ(x.breakdown[TimeUse::kCpuCompute], ps(reference_software_block(x.functionality) * x.blocks));
    EXPECT_EQ(x.breakdown[TimeUse::kCpuCompute] + x.breakdown[TimeUse::kCpuWait], x.end_ps - x.issue_ps);
  }
}

TEST(Breakdown, SoftwareRequestWithoutCompetitionIsAllComputing) {
  const BreakdownRun r = run_breakdown("smoke_aes.json", {"runtime.policy=software"});
  expect_exact(r);
  for (const auto& x : r.records) {
    // 20,000 + 64 x 3,000 cycles at 100 MHz.
    EXPECT_EQ(x.breakdown[TimeUse::kCpuCompute], ps(sc_time(2120, sc_core::SC_US)));
    EXPECT_EQ(x.breakdown[TimeUse::kCpuCompute], x.end_ps - x.issue_ps);
  }
}

TEST(Breakdown, BackToBackRequestsAreIssuedWhenThePreviousEndedAndTheRunEndsWithTheLast) {
  // No think time, and a quantum (100 ms) far longer than a request (2.12 ms): the process runs ahead of the
  // kernel, and its next request is issued at its own time, not the kernel's.
  const BreakdownRun r = run_breakdown("smoke_aes.json", {"runtime.policy=software", "workload.apps.0.think_us=0",
                                           "platform.quantum_ns=100000000"});
  expect_exact(r);
  for (const auto& x : r.records) {
    EXPECT_EQ(x.breakdown[TimeUse::kCpuCompute], ps(sc_time(2120, sc_core::SC_US)));
    EXPECT_EQ(x.breakdown[TimeUse::kCpuCompute], x.end_ps - x.issue_ps);
  }
  EXPECT_EQ(r.end_ps, r.records.back().end_ps);
}

TEST(Breakdown, SmokeHardwareRequestsTakeTheTimesOfTheTimingContracts) {
  const BreakdownRun r = run_breakdown("smoke_aes.json");
  expect_exact(r);
  ASSERT_EQ(r.records.size(), 4u);
  // 128,000 bitstream words copied at 120 CPU cycles each, the START write and the final status read.
  EXPECT_EQ(r.records[0].breakdown[TimeUse::kReconfig], ps(sc_time(153600100, SC_NS)));
  for (std::size_t i = 1; i < 4; ++i) {
    const auto& b = r.records[i].breakdown;
    // Driver: 2,000 cycles per request, 200 per block, 4 around each of the 2 status reads of a block.
    EXPECT_EQ(b[TimeUse::kCpuCompute], ps(sc_time(10, SC_NS) * (2000 + 64 * (200 + 2 * 4))));
    // Every access: 1 CPU cycle to issue, 2 + 1 bus cycles, 1 core cycle = 50 ns. A block: 4 block words,
    // CTRL.NEXT, the status read that finds the core ready and 4 result words; before it, one status read
    // finds the core still computing (11 core cycles).
    EXPECT_EQ(b[TimeUse::kCpuIo], ps(sc_time(50, SC_NS) * (64 * 10)));
    EXPECT_EQ(b[TimeUse::kCoreCompute], ps(sc_time(50, SC_NS) * 64));
    EXPECT_EQ(b[TimeUse::kCpuWait], 0u);   // no other process
    EXPECT_EQ(b[TimeUse::kReconfig], 0u);  // the core is resident
  }
}

TEST(Breakdown, WithoutCachingOneSlotMakesRequestsWaitForIt) {
  // The configuration port fed by DMA: the configuring process sleeps, so the other application runs and
  // finds the only slot in use.
  const BreakdownRun r = run_breakdown(
      "os_aes_des.json",
      {"runtime.policy=hardware", "runtime.caching=false", "energy=null",
       "platform.slots=[{\"name\":\"slot0\",\"bus\":\"plb\",\"base\":\"0x80000000\",\"capacity_kib\":600}]",
       "platform.dmas=[{\"name\":\"dma\",\"bus\":\"plb\",\"base\":\"0x40100000\"}]",
       "platform.config_port.feed=dma", "platform.config_port.dma=dma"});
  const auto sum = expect_exact(r);
  EXPECT_GT(r.slot_waits, 0u);
  EXPECT_GT(sum[TimeUse::kSlotWait], 0u);
  for (const auto& x : r.records) EXPECT_TRUE(x.reconfigured);
}

TEST(Breakdown, DmaDataPathIsBusTransferAndCoreCompute) {
  const BreakdownRun r = run_breakdown(
      "os_aes_des.json",
      {"platform.dmas=[{\"name\":\"dma\",\"bus\":\"plb\",\"base\":\"0x40100000\"}]", "energy=null",
       "runtime.driver.data_path=dma",
       "runtime.driver.dma={\"engine\":\"dma\",\"memory\":\"ddr\",\"address\":\"0x02000000\",\"size_kib\":4}",
       "runtime.driver.cycles_per_block=1000", "runtime.policy=hardware", "workload.background=[]",
       "workload.apps.0.blocks_list=null", "workload.apps.0.blocks=3", "workload.apps.0.requests=3",
       "workload.apps.1.blocks_list=null", "workload.apps.1.blocks=3", "workload.apps.1.requests=3",
       "workload.apps.1.start_us=1000000"});
  expect_exact(r);
  ASSERT_EQ(r.records.size(), 6u);
  for (const auto& x : r.records) {
    EXPECT_GT(x.breakdown[TimeUse::kBusTransfer], 0u);
    EXPECT_EQ(x.breakdown[TimeUse::kSlotWait], 0u);  // one request at a time: the engine is free
    if (x.reconfigured) continue;
    // Pieces of 2 KiB (half the buffer) stream in through the bus twice (2 + n cycles each way) while the
    // core computes; the core's excess over the bus is waiting for it. Three 4 KiB blocks are 768 AES cipher
    // blocks: six 128-block pieces, each 128 x 11 cycles against 2 x (2 + 512): 380 cycles. DES: 1,536 cipher
    // blocks, six 256-block pieces, 256 x 16 against 2 x (2 + 512): 3,068 cycles.
    const double cycles = x.functionality == "aes128" ? 6 * 380 : 6 * 3068;
    EXPECT_EQ(x.breakdown[TimeUse::kCoreCompute], ps(sc_time(10, SC_NS) * cycles)) << x.functionality;
    // The driver computes 1,000 cycles per block and 2,630 per cipher block placed in the buffer.
    const double cipher_blocks = x.functionality == "aes128" ? 768 : 1536;
    EXPECT_EQ(x.breakdown[TimeUse::kCpuCompute], ps(sc_time(10, SC_NS) * (3 * 1000 + cipher_blocks * 2630)))
        << x.functionality;
  }
}

TEST(Breakdown, FmcNwaitPollingAndByteSwappingAreCpuIo) {
  const BreakdownRun r = run_breakdown("smoke_fmc_des.json");
  const auto sum = expect_exact(r);
  // Every FMC access is a request's: its NWAIT polls and byte swaps are in the requests' device time.
  const double device_ms = static_cast<double>(sum[TimeUse::kCpuIo] + sum[TimeUse::kCoreCompute]) * 1e-9;
  EXPECT_GT(breakdown_stat(r, "bus.fmc", "poll_ms"), 0.0);
  EXPECT_GE(device_ms, breakdown_stat(r, "bus.fmc", "poll_ms") + breakdown_stat(r, "bus.fmc", "byteswap_ms"));
}

TEST(Breakdown, CooperativeProcessesYieldWhileTheyPoll) {
  // The reference in hardware with an AES core slow enough (20 us a cipher block) for status reads to find
  // it busy.
  const BreakdownRun r = run_breakdown("os_aes_des.json", {"runtime.scheduler.mode=cooperative", "runtime.policy=hardware",
                                            "platform.cores.0.block_cycles=2000"});
  const auto sum = expect_exact(r);
  EXPECT_GT(sum[TimeUse::kCoreCompute], 0u);
  // A poll that finds the core busy yields to the daemon or the other application: waiting for the CPU after
  // the request started.
  int yielded = 0;
  for (const auto& x : r.records) yielded += x.breakdown[TimeUse::kCpuWait] > x.start_ps - x.issue_ps;
  EXPECT_GT(yielded, 0);
}
