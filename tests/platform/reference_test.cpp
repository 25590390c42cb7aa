// The reference experiment (scenarios/os_aes_des.json; published: scenarios/os_aes_des.md) against the
// published figures, the thresholds moving the way the physics says, and the adaptive policy converging on
// the cost model. Each test is its own process (CTest), so each may elaborate one simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "platform/crossover.h"
#include "platform/estimate.h"
#include "platform/reproduce.h"
#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;
using runtime::Functionality;

namespace {

const std::string kReference = std::string(rsoc_test::kSourceDir) + "/scenarios/os_aes_des.json";

platform::Scenario reference(std::vector<std::string> overrides = {}) {
  platform::LoadOptions options;
  options.overrides = std::move(overrides);
  return platform::load_scenario_file(kReference, options);
}

const platform::CrossoverRow& row(const platform::CrossoverResult& r, Functionality f, std::uint64_t n) {
  for (const auto& x : r.rows)
    if (x.functionality == f && x.blocks == n) return x;
  throw std::out_of_range("no row");
}

const platform::CrossoverSummary& summary(const platform::CrossoverResult& r, Functionality f) {
  for (const auto& s : r.summary)
    if (s.functionality == f) return s;
  throw std::out_of_range("no summary");
}

// A block of the reference: a 4 KiB chunk of the text (256 AES or 512 DES cipher blocks).
constexpr std::uint64_t kBlockBytes = 4096;

double kbps(std::uint64_t n, double s) {
  return static_cast<double>(n * kBlockBytes) / s / 1e3;
}

}  // namespace

TEST(Reference, PublishedFiguresOfTheOsManagedSoc) {
  const auto r = platform::run_crossover(reference(), platform::CrossoverOptions{{}, 200});
  // Crossovers: 40 blocks (AES), 80 blocks (DES), within one block.
  ASSERT_TRUE(summary(r, Functionality::kAes128).simulated.has_value());
  ASSERT_TRUE(summary(r, Functionality::kDes).simulated.has_value());
  EXPECT_NEAR(static_cast<double>(*summary(r, Functionality::kAes128).simulated), 40, 1);
  EXPECT_NEAR(static_cast<double>(*summary(r, Functionality::kDes).simulated), 80, 1);
  // Cached throughput within 1 % of 436 and 246 kB/s, at 1 and at 200 blocks.
  for (std::uint64_t n : {1, 200}) {
    EXPECT_NEAR(kbps(n, row(r, Functionality::kAes128, n).hw_cached_s), 436, 4.36) << n;
    EXPECT_NEAR(kbps(n, row(r, Functionality::kDes, n).hw_cached_s), 246, 2.46) << n;
  }
  // One reconfiguration within 2 % of 150 ms.
  const auto& one = row(r, Functionality::kAes128, 1);
  EXPECT_NEAR((one.hw_cold_s - one.hw_cached_s) * 1e3, 150, 3);
  // Hardware with reconfiguration: throughput grows about linearly with size for small inputs, while the
  // blocks take much less than the reconfiguration (150 ms against 9.4 ms a block: up to a few blocks).
  const double t1 = kbps(1, row(r, Functionality::kAes128, 1).hw_cold_s);
  const double t2 = kbps(2, row(r, Functionality::kAes128, 2).hw_cold_s);
  EXPECT_NEAR(t2 / t1, 2.0, 0.15);
  // Every row is of 4 KiB blocks.
  for (const auto& x : r.rows) EXPECT_EQ(x.unit_bytes, kBlockBytes);
  EXPECT_EQ(r.cipher_blocks, 3 * (20100 * 256 + 20100 * 512));
}

TEST(Reference, SoftwareThroughputIsNearlyConstantFrom1To1000Blocks) {
  const auto scenario = reference();
  platform::Simulation sim(scenario.params, nullptr);
  std::map<std::uint64_t, double> kBps;
  sim.spawn_background();
  sim.scheduler().spawn("probe", 20, [&](runtime::Process& p) {
    for (std::uint64_t n : {1, 3, 10, 40, 100, 333, 1000}) {
      const auto out =
          sim.manager().request(p, "probe", Functionality::kAes128, std::vector<std::uint8_t>(16, 1),
                                std::vector<std::uint8_t>(kBlockBytes * n, 2), true, std::nullopt, false);
      EXPECT_EQ(out.record.blocks, n);
      kBps[n] = kbps(n, static_cast<double>(out.record.end_ps - out.record.issue_ps) * 1e-12);
    }
    sim.finish();
  });
  sim.run();
  double lo = 1e9, hi = 0;
  for (const auto& [n, v] : kBps) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_LT((hi - lo) / hi, 0.05) << lo << " .. " << hi;
  EXPECT_GT(hi - lo, 0.0) << "time sharing leaves no trace at all";
}

TEST(Reference, HalfTheBitstreamHalvesTheCrossoverAsTheAnalyticEstimateSays) {
  const auto r = platform::run_crossover(
      reference({"platform.cores.0.bitstream.size_kib=250", "platform.cores.1.bitstream.size_kib=250"}),
      platform::CrossoverOptions{{}, 200});
  for (auto f : {Functionality::kAes128, Functionality::kDes}) {
    const auto& s = summary(r, f);
    ASSERT_TRUE(s.simulated && s.analytic);
    EXPECT_NEAR(static_cast<double>(*s.simulated), static_cast<double>(*s.analytic), 1);
  }
  EXPECT_NEAR(static_cast<double>(*summary(r, Functionality::kAes128).simulated), 20, 1);
  EXPECT_NEAR(static_cast<double>(*summary(r, Functionality::kDes).simulated), 40, 1);
}

TEST(Reference, ADmaFedConfigurationPortMakesHardwareWinAlmostAtOnce) {
  // A DMA engine (1 cycle per word at 100 MHz) feeds the port: the bus (two crossings per word) becomes the
  // slowest stage, ~2.6 ms instead of ~150 ms.
  const auto r = platform::run_crossover(
      reference({"platform.dmas=[{\"name\":\"dma\",\"bus\":\"plb\",\"base\":\"0x40100000\"}]", "energy=null",
                 "platform.config_port.feed=dma", "platform.config_port.dma=dma"}),
      platform::CrossoverOptions{{}, 100});
  for (auto f : {Functionality::kAes128, Functionality::kDes}) {
    const auto& s = summary(r, f);
    ASSERT_TRUE(s.simulated && s.analytic);
    EXPECT_NEAR(static_cast<double>(*s.simulated), static_cast<double>(*s.analytic), 1);
    EXPECT_LE(*s.simulated, 2u);
  }
  const auto& one = row(r, Functionality::kAes128, 1);
  EXPECT_NEAR((one.hw_cold_s - one.hw_cached_s) * 1e3, 2.57, 0.05);
}

TEST(Reference, DmaDataPathStreamsBlocksAndMatchesTheEstimate) {
  // The cores' data moved by a DMA engine through their FIFO windows instead of by CPU loads and stores.
  const auto scenario =
      reference({"platform.dmas=[{\"name\":\"dma\",\"bus\":\"plb\",\"base\":\"0x40100000\"}]", "energy=null",
                 "runtime.driver.data_path=dma",
                 "runtime.driver.dma={\"engine\":\"dma\",\"memory\":\"ddr\",\"address\":"
                 "\"0x02000000\",\"size_kib\":4}",
                 "runtime.policy=hardware", "workload.background=[]", "workload.apps.0.blocks_list=null",
                 "workload.apps.0.blocks=3", "workload.apps.0.requests=3", "workload.apps.1.blocks_list=null",
                 "workload.apps.1.blocks=3", "workload.apps.1.requests=3",
                 "workload.apps.1.start_us=1000000"});  // DES after AES: each request alone,
                                                        // as the estimate assumes
  const runtime::CostModel model(platform::estimate_costs(scenario.params));
  std::vector<runtime::RequestRecord> records;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  ASSERT_EQ(records.size(), 6u);
  std::uint64_t blocks_words = 0;
  for (const auto& r : records) {
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.verified);
    const Functionality f = *runtime::functionality_from_name(r.functionality);
    blocks_words += r.bytes / 4;
    if (r.reconfigured) continue;
    // A cached request: within 2 % of the estimate (three 4 KiB blocks: 768 AES or 1,536 DES cipher blocks;
    // 4 KiB buffer -> pieces of 128 / 256 cipher blocks).
    const double predicted = model.hardware_s(f, r.blocks, true);
    EXPECT_NEAR(static_cast<double>(r.exec_ps) * 1e-12, predicted, predicted * 0.02) << r.functionality;
  }
  const auto stats = sim.stats(sc_core::sc_time_stamp().to_seconds() * 1e3);
  // Every block word went in and came out through the engine; the CPU issued a few accesses per piece
  // (key, DMA programming), far fewer than the 6,912 cipher blocks moved (PIO: 6 or 10 per cipher block).
  EXPECT_EQ(test::stat(stats, "dma.dma", "words"), static_cast<double>(2 * blocks_words));
  EXPECT_LT(test::stat(stats, "cpu.thread0", "accesses"), 6912 / 10);
}

TEST(Reference, AdaptivePolicyDecidesLikeTheCostModelAfterItsWarmUp) {
  // Without module caching every hardware request reconfigures, so the right choice depends on the block
  // count. The adaptive policy knows no parameter; after its warm-up (2 software + 2 hardware requests per
  // functionality) its decisions must equal the cost model's (which knows them).
  const auto scenario =
      reference({"runtime.policy=adaptive", "runtime.caching=false",
                 "workload.apps.0.blocks_list=[10,100,10,100,20,39,41,60,80,30,45,200,5,50]",
                 "workload.apps.0.requests=14",
                 "workload.apps.1.blocks_list=[10,150,10,150,40,79,81,120,60,100,5,300,90,70]",
                 "workload.apps.1.requests=14"});
  std::vector<runtime::RequestRecord> records;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  ASSERT_EQ(records.size(), 28u);
  std::map<std::string, int> seen;
  int compared = 0;
  for (const auto& r : records) {
    const Functionality f = *runtime::functionality_from_name(r.functionality);
    if (++seen[r.functionality] <= 4) {
      EXPECT_NE(r.reason.find("adaptive: exploring"), std::string::npos) << r.reason;
      continue;
    }
    const bool model_says_hw =
        sim.costs().hardware_s(f, r.blocks, false) < sim.costs().software_s(f, r.blocks);
    EXPECT_EQ(r.decision == "hardware", model_says_hw)
        << r.functionality << " " << r.blocks << ": " << r.reason;
    ++compared;
  }
  EXPECT_EQ(compared, 20);
}

namespace {

// The reference alone on the CPU (no background load), with the PIO loop simulated as `timing` says: for
// AES and DES, 3 blocks in software, 3 in hardware (configuring the core) and 5 with the core cached. Checks
// every request against the analytic estimate and returns the records and the statistics.
struct Quiet {
  std::vector<runtime::RequestRecord> records;
  std::vector<analysis::StatGroup> stats;
  std::uint64_t recordings = 0, replays = 0, replay_payloads = 0;
};

Quiet quiet_reference(const std::string& timing) {
  const auto scenario = reference({"workload.background=[]", "runtime.driver.pio_timing=" + timing});
  platform::Simulation sim(scenario.params, nullptr);
  Quiet q;
  sim.scheduler().spawn("probe", 20, [&](runtime::Process& p) {
    for (auto f : {Functionality::kAes128, Functionality::kDes}) {
      std::vector<std::uint8_t> key(runtime::info(f).key_bytes, 7);
      for (auto [blocks, hardware] : {std::pair<std::uint64_t, bool>{3, false}, {3, true}, {5, true}}) {
        std::vector<std::uint8_t> data(kBlockBytes * blocks);
        for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 131 + blocks);
        q.records.push_back(
            sim.manager().request(p, "probe", f, key, data, true, std::nullopt, hardware).record);
      }
    }
    sim.finish();
  });
  sim.run();
  q.stats = sim.stats(sc_core::sc_time_stamp().to_seconds() * 1e3);
  q.recordings = sim.manager().driver().recordings();
  q.replays = sim.manager().driver().replays();
  q.replay_payloads = sim.manager().driver().replay_payloads();
  return q;
}

// 5 cached blocks: per cipher block the driver's 2,630 cycles and ten (AES) or six (DES) register accesses
// of 1.04 us (100 CPU cycles to issue, 3 bus cycles, 1 core cycle); no key load, no poll finding a core busy.
void expect_exact_quiet_times(const Quiet& q) {
  ASSERT_EQ(q.records.size(), 6u);
  for (const auto& r : q.records) {
    EXPECT_TRUE(r.ok && r.verified) << r.error;
    EXPECT_EQ(r.bytes, r.blocks * kBlockBytes);
  }
  const std::uint64_t aes_cipher_block_ps = 26300000 + 10 * 1040000,
                      des_cipher_block_ps = 26300000 + 6 * 1040000;
  EXPECT_EQ(q.records[2].exec_ps, 5 * 256 * aes_cipher_block_ps);
  EXPECT_EQ(q.records[5].exec_ps, 5 * 512 * des_cipher_block_ps);
}

// What the bus and the cores carried: 8 AES blocks in hardware (2,048 cipher blocks of 10 accesses each) and
// 8 DES blocks (4,096 of 6), the key loads (AES: 4 key words, CONFIG, INIT and a status read; DES: 2 key
// words and the same 3), and two reconfigurations (START, final status read, and 128,000 words read from the
// DDR and written to the port in 125 chunks of 1,024: 250 bus transactions each).
void expect_exact_quiet_counts(const Quiet& q) {
  auto stat = [&](const char* resource, const char* name) { return test::stat(q.stats, resource, name); };
  const double cpu_accesses = (2048 * 10 + 7 + 2) + (4096 * 6 + 5 + 2);
  EXPECT_EQ(stat("cpu.thread0", "accesses"), cpu_accesses);
  EXPECT_EQ(stat("bus.plb", "transactions"), cpu_accesses + 2 * 250);
  EXPECT_EQ(stat("bus.plb", "words"), cpu_accesses + 2 * 2 * 128000);
  // 3 bus cycles per access; a chunk of the copy 2 x (2 + 1,024) cycles.
  EXPECT_NEAR(stat("bus.plb", "busy_ms"), (cpu_accesses * 3 + 2 * 125 * 2052) * 1e-5, 1e-9);
  EXPECT_EQ(stat("slot.slot0", "words_written"), 2048 * 5 + 6);
  EXPECT_EQ(stat("slot.slot0", "words_read"), 2048 * 5 + 1);
  EXPECT_EQ(stat("slot.slot0", "status_reads"), 2048 + 1);
  EXPECT_EQ(stat("slot.slot1", "words_written"), 4096 * 3 + 4);
  EXPECT_EQ(stat("slot.slot1", "words_read"), 4096 * 3 + 1);
  EXPECT_EQ(stat("slot.slot1", "status_reads"), 4096 + 1);
  EXPECT_NEAR(stat("slot.slot0", "core_busy_ms"), (2048 * 11 + 10) * 1e-5, 1e-9);  // INIT: 10 cycles
  EXPECT_NEAR(stat("slot.slot1", "core_busy_ms"), 4096 * 16 * 1e-5, 1e-9);
}

}  // namespace

TEST(Reference, TheEstimateIsTheSimulatedTimeOfEveryRequest) {
  const Quiet q = quiet_reference("burst");
  expect_exact_quiet_times(q);
  const auto scenario = reference({"workload.background=[]"});
  const runtime::CostModel model(platform::estimate_costs(scenario.params));
  for (const auto& r : q.records) {
    const Functionality f = *runtime::functionality_from_name(r.functionality);
    const double simulated = static_cast<double>(r.end_ps - r.issue_ps) * 1e-12;
    const double estimate = r.decision == "software" ? model.software_s(f, r.blocks)
                                                     : model.hardware_s(f, r.blocks, !r.reconfigured);
    // The estimate always counts the key set-up (7 or 5 accesses), which a cached core no longer needs.
    const double key_setup =
        r.decision == "hardware" && !r.reconfigured ? (f == Functionality::kAes128 ? 7 : 5) * 1.04e-6 : 0.0;
    EXPECT_NEAR(simulated, estimate - key_setup, 1e-11)
        << r.functionality << " " << r.decision << " " << r.blocks;
  }
}

TEST(Reference, BurstTimingIsWordTimingAlone) {
  // The same requests with every cipher block's words through the bus models: the same times as the burst
  // timing's replays give (above), and the same counts on the bus and the cores (below, for both).
  const Quiet word = quiet_reference("word");
  expect_exact_quiet_times(word);
  expect_exact_quiet_counts(word);
}

TEST(Reference, BurstTimingCountsEveryReplayedAccess) {
  const Quiet q = quiet_reference("burst");
  expect_exact_quiet_counts(q);
  // Every cipher block of the 16 hardware blocks (6,144) but the recorded ones is replayed, those of one
  // block up to the CPU's next synchronisation (the 1 ms quantum: about 30 cipher blocks of 33-37 us) in one
  // payload.
  EXPECT_EQ(q.recordings + q.replays, 2048u + 4096u);
  EXPECT_LE(q.recordings, 16u * 2u);
  EXPECT_GT(q.replay_payloads, 0u);
  EXPECT_LT(q.replay_payloads * 10, q.replays);
}

TEST(Reproduction, TheLongestExperimentsAreExpectedLongest) {
  // reproduce starts experiments longest first: the 1,200-point crossover, then Cell's 15 processes with the
  // engine, the HSM's runs with several clients before those with one, desrnd's analytic ones last.
  using platform::reproduction_cost;
  double longest = 0, shortest = 1e9;
  std::string longest_name, shortest_system;
  for (const std::string& s : platform::reproduction_systems())
    for (const std::string& e : platform::reproduction_experiments(s)) {
      const double c = reproduction_cost(s, e);
      EXPECT_GT(c, 0) << s << " " << e;
      if (c > longest) longest = c, longest_name = s + "/" + e;
      if (c < shortest) shortest = c, shortest_system = s;
    }
  EXPECT_EQ(longest_name, "soc/crossover");
  EXPECT_EQ(shortest_system, "desrnd");
  EXPECT_GT(reproduction_cost("cell", "engine=on.procs=15"), reproduction_cost("hsm", "clients=4.hw_nwait"));
  EXPECT_GT(reproduction_cost("hsm", "clients=4"), reproduction_cost("hsm", "clients=1"));
  EXPECT_GT(reproduction_cost("hsm", "clients=2.hw_nwait"), reproduction_cost("hsm", "clients=2"));
  EXPECT_LT(reproduction_cost("hsm", "clients=1.aes_2x"), reproduction_cost("hsm", "clients=2.aes_2x"));
}

TEST(Reference, ASmallRequestWaitsAtMostOneSliceForALongOneOfItsPriorityUnderThePreemptingDaemon) {
  // SCHED_RR (runtime/scheduler.h): the kernel daemon wakes inside every slice of the long request's process,
  // which keeps the unexpired part of its slice when it resumes; the one-block request of the other application
  // of its priority waits one slice (10 ms of the long one's CPU time) and the daemon's turns, not the whole
  // long request (5 s).
  const auto scenario = reference(
      {"runtime.unit_bytes={}", "runtime.policy=software",
       R"(workload.apps=[{"name":"long","functionality":"aes128","priority":20,"requests":1,"blocks_list":[20000]},)"
       R"({"name":"small","functionality":"aes128","priority":20,"requests":1,"blocks_list":[1],"start_us":1000}])",
       R"(workload.background=[{"name":"daemon","priority":50,"busy_us":20,"idle_us":9980}])"});
  std::map<std::string, runtime::RequestRecord> records;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records[r.app] = r; });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  ASSERT_EQ(records.size(), 2u);
  const runtime::RequestRecord& small = records.at("small");
  ASSERT_TRUE(small.ok) << small.error;
  // At most a slice, and the daemon's turns meanwhile (two of 20 us, at 0 and 10 ms) with the context
  // switches (5 us each) around them.
  const double waited_ms = static_cast<double>(small.start_ps - small.issue_ps) * 1e-9;
  EXPECT_LE(waited_ms, 10.0 + 2 * (0.020 + 2 * 0.005)) << waited_ms;
  EXPECT_GT(records.at("long").end_ps, small.end_ps);
}
