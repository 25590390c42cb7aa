// The reference experiment (REFERENCE.md section 1, scenarios/os_aes_des.json) against the published figures,
// the thresholds moving the way the physics says, and the adaptive policy converging on the cost model.
// Each test is its own process (CTest), so each may elaborate one simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "platform/crossover.h"
#include "platform/estimate.h"
#include "platform/scenario.h"
#include "platform/simulation.h"

using namespace rsoc;
using runtime::Functionality;

namespace {

const std::string kReference = std::string(RSOC_SOURCE_DIR) + "/scenarios/os_aes_des.json";

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

double kbps(Functionality f, std::uint64_t n, double s) {
  return n * runtime::info(f).block_bytes / s / 1e3;
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
    EXPECT_NEAR(kbps(Functionality::kAes128, n, row(r, Functionality::kAes128, n).hw_cached_s), 436, 4.36)
        << n;
    EXPECT_NEAR(kbps(Functionality::kDes, n, row(r, Functionality::kDes, n).hw_cached_s), 246, 2.46) << n;
  }
  // One reconfiguration within 2 % of 150 ms.
  const auto& one = row(r, Functionality::kAes128, 1);
  EXPECT_NEAR((one.hw_cold_s - one.hw_cached_s) * 1e3, 150, 3);
  // Hardware with reconfiguration: throughput grows about linearly with size for small inputs.
  const double t10 = kbps(Functionality::kAes128, 10, row(r, Functionality::kAes128, 10).hw_cold_s);
  const double t20 = kbps(Functionality::kAes128, 20, row(r, Functionality::kAes128, 20).hw_cold_s);
  EXPECT_NEAR(t20 / t10, 2.0, 0.05);
}

TEST(Reference, SoftwareThroughputIsNearlyConstantFrom1To1000Blocks) {
  const auto scenario = reference();
  platform::Simulation sim(scenario.params, nullptr);
  std::map<std::uint64_t, double> kBps;
  sim.spawn_background();
  sim.scheduler(0).spawn("probe", 20, [&](runtime::Process& p) {
    for (std::uint64_t n : {1, 3, 10, 40, 100, 333, 1000}) {
      const auto out =
          sim.manager().request(p, "probe", Functionality::kAes128, std::vector<std::uint8_t>(16, 1),
                                std::vector<std::uint8_t>(16 * n, 2), true, std::nullopt, false);
      kBps[n] = kbps(Functionality::kAes128, n,
                     static_cast<double>(out.record.end_ps - out.record.issue_ps) * 1e-12);
    }
    sc_core::sc_pause();
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
      reference({"platform.dmas=[{\"name\":\"dma\",\"bus\":\"plb\",\"base\":\"0x40100000\"}]",
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
  const auto scenario = reference(
      {"platform.dmas=[{\"name\":\"dma\",\"bus\":\"plb\",\"base\":\"0x40100000\"}]",
       "runtime.driver.data_path=dma",
       "runtime.driver.dma={\"engine\":\"dma\",\"memory\":\"ddr\",\"address\":"
       "\"0x02000000\",\"size_kib\":4}",
       "runtime.policy=hardware", "workload.background=[]", "workload.apps.0.blocks_list=null",
       "workload.apps.0.blocks=300", "workload.apps.0.requests=3", "workload.apps.1.blocks_list=null",
       "workload.apps.1.blocks=300", "workload.apps.1.requests=3",
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
    blocks_words += r.blocks * runtime::info(f).block_bytes / 4;
    if (r.reconfigured) continue;
    // A cached request: within 2 % of the estimate (300 blocks: 4 KiB buffer -> pieces of 128 / 256 blocks).
    const double predicted = model.hardware_s(f, r.blocks, true);
    EXPECT_NEAR(static_cast<double>(r.exec_ps) * 1e-12, predicted, predicted * 0.02) << r.functionality;
  }
  const auto stats = sim.stats(sc_core::sc_time_stamp().to_seconds() * 1e3);
  auto stat = [&](const std::string& resource, const std::string& name) {
    for (const auto& g : stats)
      if (g.resource == resource)
        for (const auto& x : g.stats)
          if (x.name == name) return x.value;
    ADD_FAILURE() << resource << "." << name;
    return 0.0;
  };
  // Every block word went in and came out through the engine; the CPU issued a few accesses per piece
  // (key, DMA programming), not several per block.
  EXPECT_EQ(stat("dma.dma", "words"), static_cast<double>(2 * blocks_words));
  EXPECT_LT(stat("cpu.thread0", "accesses"), 300.0);
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
