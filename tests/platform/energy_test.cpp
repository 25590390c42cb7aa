// The energy model end to end (section energy, models/energy.h). On scenarios/smoke_aes.json: one CPU at
// 100 MHz (150 mW with its thread busy, 60 mW idle), one bus (100 pJ per word), DDR (3 nJ per word read, 2.5
// written), a CPU-fed configuration port (0.5 nJ per word) and one slot (15 mW static) whose AES core spends
// 1.5 nJ per cycle; a 100 mW baseline. Four requests of 64 AES blocks, the first configures the slot with a
// 500 KiB bitstream (128,000 words read from DDR by the CPU's copy loop).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "platform/crossover.h"
#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;
using models::EnergyPart;

namespace {

using rsoc::test::kScenarioDir;

const std::string kSmokeEnergy =
    R"(energy={"baseline_mw": 100, "cpus": {"cpu": {"active_mw": 150, "idle_mw": 60}},
               "buses": {"plb": {"pj_per_word": 100}},
               "memories": {"ddr": {"read_nj_per_word": 3, "write_nj_per_word": 2.5}},
               "config_port": {"nj_per_word": 0.5}, "slots": {"slot0": {"static_mw": 15}},
               "cores": {"aes_core": {"pj_per_cycle": 1500}}})";
constexpr double kBusyThreadMw = 150 - 60, kFloorMw = 100 + 60 + 15;
constexpr double kBitstreamWords = 500 * 1024 / 4;

double stat(const test::RunOutcome& r, const std::string& resource, const std::string& name) {
  return test::stat(r.stats, resource, name);
}

bool has_group(const test::RunOutcome& r, const std::string& resource) {
  for (const auto& g : r.stats)
    if (g.resource == resource) return true;
  return false;
}

double held_ps(const runtime::RequestRecord& r) {
  return static_cast<double>(std::accumulate(r.held_ps.begin(), r.held_ps.end(), std::uint64_t{0}));
}

}  // namespace

TEST(Energy, TheRunsEnergyIsWhatItsComponentsSpentAndTheFloorPowerOverItsTime) {
  const auto r = test::run_scenario(kScenarioDir + "smoke_aes.json", {kSmokeEnergy});
  const double end_ms = r.end_ms;
  // The bitstream, read once by the copy loop: nothing else touches the DDR.
  EXPECT_DOUBLE_EQ(stat(r, "memory.ddr", "words_read"), kBitstreamWords);
  EXPECT_DOUBLE_EQ(stat(r, "energy", "memory_mj"), kBitstreamWords * 3e-6);
  EXPECT_DOUBLE_EQ(stat(r, "energy", "config_port_mj"), kBitstreamWords * 0.5e-6);
  EXPECT_NEAR(stat(r, "energy", "bus_mj"), stat(r, "bus.plb", "words") * 100e-9, 1e-12);
  // 100 MHz: 1e5 cycles per ms.
  EXPECT_NEAR(stat(r, "energy", "core_mj"), stat(r, "slot.slot0", "core_busy_ms") * 1e5 * 1.5e-6, 1e-12);
  EXPECT_GT(stat(r, "energy", "core_mj"), 0);
  EXPECT_NEAR(stat(r, "energy", "cpu_mj"), stat(r, "cpu", "busy_ms") * kBusyThreadMw * 1e-3, 1e-9);
  EXPECT_NEAR(stat(r, "energy", "floor_mj"), kFloorMw * end_ms * 1e-3, 1e-9);
  EXPECT_NEAR(stat(r, "energy", "slot_static_mj"), 15 * end_ms * 1e-3, 1e-9);
  double parts = 0;
  for (const char* part : {"cpu_mj", "bus_mj", "memory_mj", "dma_mj", "config_port_mj", "core_mj"})
    parts += stat(r, "energy", part);
  EXPECT_NEAR(stat(r, "energy", "dynamic_mj"), parts, 1e-12);
  EXPECT_NEAR(stat(r, "energy", "total_mj"), parts + stat(r, "energy", "floor_mj"), 1e-12);
  // Each model reports its own share.
  EXPECT_DOUBLE_EQ(stat(r, "memory.ddr", "energy_mj"), stat(r, "energy", "memory_mj"));
  EXPECT_DOUBLE_EQ(stat(r, "config_port", "energy_mj"), stat(r, "energy", "config_port_mj"));
  EXPECT_DOUBLE_EQ(stat(r, "slot.slot0", "core_energy_mj"), stat(r, "energy", "core_mj"));
}

TEST(Energy, EveryRequestPaysForWhatItUsedAndTogetherForEverythingTheComponentsSpent) {
  const auto r = test::run_scenario(kScenarioDir + "smoke_aes.json", {kSmokeEnergy});
  ASSERT_EQ(r.records.size(), 4u);
  double sum_nj = 0;
  for (const auto& rec : r.records) {
    ASSERT_TRUE(rec.energy.has_value());
    const models::EnergyAccount& e = *rec.energy;
    // Its CPU time above idle: mW x ps = 1e-6 nJ.
    EXPECT_NEAR(e[EnergyPart::kCpu], held_ps(rec) * kBusyThreadMw * 1e-6, 1e-6) << rec.id;
    EXPECT_GT(e[EnergyPart::kBus], 0) << rec.id;
    EXPECT_GT(e[EnergyPart::kCore], 0) << rec.id;
    EXPECT_EQ(e[EnergyPart::kDma], 0) << rec.id;
    // Only the first configured the slot: the bitstream's reads and the port's words are its own.
    EXPECT_DOUBLE_EQ(e[EnergyPart::kMemory], rec.reconfigured ? kBitstreamWords * 3 : 0.0) << rec.id;
    EXPECT_DOUBLE_EQ(e[EnergyPart::kConfigPort], rec.reconfigured ? kBitstreamWords * 0.5 : 0.0) << rec.id;
    sum_nj += e.total_nj();
  }
  EXPECT_TRUE(r.records[0].reconfigured);
  // The cached requests did the same work on the same core.
  EXPECT_DOUBLE_EQ((*r.records[1].energy)[EnergyPart::kCore], (*r.records[2].energy)[EnergyPart::kCore]);
  EXPECT_DOUBLE_EQ((*r.records[1].energy)[EnergyPart::kBus], (*r.records[2].energy)[EnergyPart::kBus]);
  // One application, nothing else running: the requests paid for every joule the components spent.
  EXPECT_NEAR(sum_nj * 1e-6, stat(r, "energy", "dynamic_mj"), 1e-9);
  EXPECT_NEAR(stat(r, "process.encryptor", "energy_mj"), stat(r, "energy", "dynamic_mj"), 1e-9);
}

TEST(Energy, WithoutTheSectionNothingIsMeasuredOrReported) {
  const auto r = test::run_scenario(kScenarioDir + "smoke_aes.json", {});
  ASSERT_EQ(r.records.size(), 4u);
  for (const auto& rec : r.records) EXPECT_FALSE(rec.energy.has_value()) << rec.id;
  EXPECT_FALSE(has_group(r, "energy"));
  for (const auto& g : r.stats)
    for (const auto& s : g.stats)
      EXPECT_EQ(s.name.find("energy"), std::string::npos) << g.resource << "." << s.name;
}

TEST(Energy, ACpuPowerMeasuredAtAnotherClockScalesWithTheClock) {
  // Given at 50 MHz for a CPU at 100 MHz: a busy thread adds twice the 90 mW; idle power stays.
  const auto r =
      test::run_scenario(kScenarioDir + "smoke_aes.json", {kSmokeEnergy, "energy.cpus.cpu.at_clock_mhz=50"});
  EXPECT_NEAR(stat(r, "energy", "cpu_mj"), stat(r, "cpu", "busy_ms") * 2 * kBusyThreadMw * 1e-3, 1e-9);
  EXPECT_NEAR(stat(r, "energy", "cpu_idle_mj"), 60 * r.end_ms * 1e-3, 1e-9);
}

TEST(Energy, ConcurrentRequestsOnTwoCpusEachPayForTheirOwnTransfersAndConfigurations) {
  // zynq7000: two A9s, four applications, data by AXI DMA, bitstreams by the PCAP's own DMA (devc).
  const std::string energy =
      R"(energy={"baseline_mw": 400, "cpus": {"a9_0": {"active_mw": 220, "idle_mw": 25},
                                            "a9_1": {"active_mw": 220, "idle_mw": 25}},
                 "buses": {"axi": {"pj_per_word": 80}},
                 "memories": {"ddr": {"read_nj_per_word": 1.1, "write_nj_per_word": 1.6}},
                 "dmas": {"devc": {"pj_per_word": 200, "idle_mw": 1}, "axidma": {"pj_per_word": 70, "idle_mw": 1}},
                 "config_port": {"nj_per_word": 0.5}, "slots": {"pr0": {"static_mw": 6}, "pr1": {"static_mw": 6}},
                 "cores": {"aes_core": {"pj_per_cycle": 600}, "des_core": {"pj_per_cycle": 150},
                           "sha256_core": {"pj_per_cycle": 400}, "fft_core": {"pj_per_cycle": 600}}})";
  const auto r = test::run_scenario(kScenarioDir + "zynq7000.json", {energy});
  ASSERT_EQ(r.records.size(), 80u);
  std::map<std::string, double> by_app_nj;
  double sum_nj = 0;
  for (const auto& rec : r.records) {
    ASSERT_TRUE(rec.energy.has_value());
    const models::EnergyAccount& e = *rec.energy;
    by_app_nj[rec.app] += e.total_nj();
    sum_nj += e.total_nj();
    if (rec.decision == "software") {  // the CPU only
      EXPECT_EQ(e.total_nj(), e[EnergyPart::kCpu]) << rec.id;
    } else {  // its data moved by the AXI DMA from and to DDR, and the core computed
      EXPECT_GT(e[EnergyPart::kDma], 0) << rec.id;
      EXPECT_GT(e[EnergyPart::kMemory], 0) << rec.id;
      EXPECT_GT(e[EnergyPart::kCore], 0) << rec.id;
    }
    // A configuration is paid by the request that made it: the port's words.
    EXPECT_EQ(e[EnergyPart::kConfigPort] > 0, rec.reconfigured) << rec.id;
  }
  // Each application's process ran nothing but its requests.
  for (const auto& [app, nj] : by_app_nj)
    EXPECT_NEAR(stat(r, "process." + app, "energy_mj"), nj * 1e-6, 1e-9) << app;
  // The rest of what the components spent went to no request (the OS's context switches, nothing else here).
  EXPECT_LE(sum_nj * 1e-6, stat(r, "energy", "dynamic_mj") + 1e-9);
  EXPECT_NEAR(
      stat(r, "energy", "memory_mj") + stat(r, "energy", "dma_mj") + stat(r, "energy", "config_port_mj") +
          stat(r, "energy", "core_mj") + stat(r, "energy", "bus_mj"),
      [&] {
        double nj = 0;
        for (const auto& rec : r.records) nj += rec.energy->total_nj() - (*rec.energy)[EnergyPart::kCpu];
        return nj * 1e-6;
      }(),
      1e-9);
}

TEST(Energy, TheCrossoverGivesEachModesEnergyAndWhereHardwareCostsLessEnergy) {
  // os_aes_des without its background load: the smoke platform's values, two slots; AES in 4 KiB blocks,
  // hardware faster from 40 blocks.
  const std::string energy =
      R"(energy={"baseline_mw": 100, "cpus": {"cpu": {"active_mw": 150, "idle_mw": 60}},
                 "buses": {"plb": {"pj_per_word": 100}},
                 "memories": {"ddr": {"read_nj_per_word": 3, "write_nj_per_word": 2.5}},
                 "config_port": {"nj_per_word": 0.5}, "slots": {"slot0": {"static_mw": 15}, "slot1": {"static_mw": 15}},
                 "cores": {"aes_core": {"pj_per_cycle": 1500}, "des_core": {"pj_per_cycle": 400}}})";
  constexpr double kFloor = 100 + 60 + 2 * 15;
  platform::LoadOptions options;
  options.overrides = {energy, "workload.background=[]"};
  const auto scenario = platform::load_scenario_file(kScenarioDir + "os_aes_des.json", options);
  const auto result = platform::run_crossover(scenario, platform::CrossoverOptions{{"aes128"}, 45});
  ASSERT_TRUE(result.energy);
  ASSERT_EQ(result.rows.size(), 45u);
  std::optional<std::uint64_t> first_cheaper;
  for (const auto& row : result.rows) {
    ASSERT_TRUE(row.sw_j && row.hw_cold_j && row.hw_cached_j);
    // Software keeps the CPU busy for its whole latency and nothing else: (floor + a busy thread) x latency.
    EXPECT_NEAR(*row.sw_j, row.sw_s * (kFloor + kBusyThreadMw) * 1e-3, 1e-12) << row.blocks;
    // The cold request pays for its configuration: the bitstream's reads and the port's words at least.
    EXPECT_GT(*row.hw_cold_j - *row.hw_cached_j, kBitstreamWords * 3.5e-9) << row.blocks;
    if (!first_cheaper && *row.hw_cold_j < *row.sw_j) first_cheaper = row.blocks;
  }
  ASSERT_EQ(result.summary.size(), 1u);
  EXPECT_EQ(result.summary[0].simulated, std::optional<std::uint64_t>(40));
  EXPECT_EQ(result.summary[0].energy, first_cheaper);
  EXPECT_TRUE(first_cheaper.has_value());
}
