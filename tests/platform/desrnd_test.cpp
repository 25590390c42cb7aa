// The desrnd reference (scenarios/desrnd_3des.json and its baseline): software on the extension unit, its
// cycles per block, the baseline's identical platform, and the scenario errors of extension software.
#include <gtest/gtest.h>

#include <fstream>

#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;

namespace {

const std::string kDir = std::string(rsoc_test::kSourceDir) + "/scenarios/";

platform::Scenario load(const std::string& file, std::vector<std::string> overrides = {}) {
  platform::LoadOptions options;
  options.overrides = std::move(overrides);
  return platform::load_scenario_file(kDir + file, options);
}

using rsoc::test::stat;

}  // namespace

TEST(Desrnd, ReferenceSoftwareRunsOnTheUnitAtItsInstructionMix) {
  std::vector<runtime::RequestRecord> records;
  const platform::Scenario scenario = load("desrnd_3des.json");  // the simulation keeps a reference
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  ASSERT_EQ(records.size(), 8u);
  for (const auto& r : records) {
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.verified);  // the unit's output equals the reference cipher
    EXPECT_EQ(r.decision, "software");
    EXPECT_NE(r.reason.find("on the desrnd extension (inline_asm)"), std::string::npos) << r.reason;
    // In-line assembly, two rounds per instruction, 1-cycle instructions and a 4-cycle loop at 200 MHz:
    // DES 15 + 4 = 19 cycles per block, 3DES 37 + 4 = 41 (desrnd_3des.md).
    const double cycles = r.breakdown[runtime::TimeUse::kCpuCompute] / 5000.0 / static_cast<double>(r.blocks);
    EXPECT_DOUBLE_EQ(cycles, r.functionality == "des" ? 19.0 : 41.0) << r.functionality;
  }
  const double sim_ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
  // 4 requests of 1,024 blocks each: 8 desrnd per DES block, 24 per 3DES block.
  EXPECT_EQ(stat(sim.stats(sim_ms), "arc.thread0", "desrnd_instructions"), 4 * 1024 * (8 + 24.0));
}

TEST(Desrnd, BaselineScenarioDiffersFromTheReferenceOnlyInItsSoftware) {
  auto read = [](const std::string& file) {
    std::ifstream in(kDir + file);
    return nlohmann::json::parse(in);
  };
  nlohmann::json reference = read("desrnd_3des.json"), baseline = read("desrnd_3des_baseline.json");
  EXPECT_NE(reference["software"], baseline["software"]);
  for (auto* j : {&reference, &baseline}) {
    j->erase("software");
    j->erase("description");
  }
  EXPECT_EQ(reference, baseline);
  EXPECT_FALSE(
      load("desrnd_3des_baseline.json").params.runtime.software.at(runtime::Functionality::kDes).extension);
}

TEST(ScenarioDesrnd, ExtensionSoftwareNeedsACipherTheUnitRunsAndACpuThatHasIt) {
  try {
    load("desrnd_3des.json", {"software.aes128={\"cycles_per_block\":100,\"extension\":{}}",
                              "platform.cpus.0.extensions.desrnd=null"});
    FAIL() << "two problems must be reported";
  } catch (const platform::ScenarioError& e) {
    std::vector<std::string> got;
    for (const auto& i : e.issues()) got.push_back(i.pointer + ": " + i.message);
    EXPECT_EQ(got,
              (std::vector<std::string>{
                  "/software/3des/extension/unit: the CPU \"arc\" has no desrnd extension (declare "
                  "/platform/cpus/0/extensions/desrnd)",
                  "/software/aes128/extension: aes128 has no implementation on the desrnd unit (des and 3des "
                  "have)",
                  "/software/des/extension/unit: the CPU \"arc\" has no desrnd extension (declare "
                  "/platform/cpus/0/extensions/desrnd)"}));
  }
  // The unit's configuration changes the cost: one round per instruction, DES 23 + 4 cycles per cipher
  // block, for each cipher block of a block.
  const auto des = load("desrnd_3des.json", {"platform.cpus.0.extensions.desrnd.rounds_per_instruction=1"})
                       .params.runtime.software.at(runtime::Functionality::kDes);
  EXPECT_EQ(des.cycles_per_cipher_block, 27u);
  EXPECT_EQ(des.block_cycles(8, 8), des.cycles_per_block + 27u);
  EXPECT_EQ(des.block_cycles(64, 8), des.cycles_per_block + 8 * 27u);
}

TEST(ScenarioDesrnd, SoftwareOnTheUnitRunsOnlyOnCpusThatHaveIt) {
  // A plain CPU beside the ARC: the DES applications (their software uses desrnd) run on the ARC only; the
  // plain CPU runs a background load.
  const std::vector<std::string> two = {
      "platform.cpus=[{\"name\":\"plain\",\"clock_mhz\":200,\"bus\":\"ahb\"},{\"name\":\"arc\",\"clock_mhz\":"
      "200,"
      "\"mmio_cycles\":2,\"bus\":\"ahb\",\"extensions\":{\"desrnd\":{\"rounds_per_instruction\":2,"
      "\"cycles_per_instruction\":1}}}]",
      "workload.background=[{\"name\":\"load\",\"busy_us\":100,\"idle_us\":100}]",
      "energy.cpus={\"plain\": {\"active_mw\": 40, \"idle_mw\": 5}, \"arc\": {\"active_mw\": 50, "
      "\"idle_mw\": 5}}"};
  const platform::Scenario scenario = load("desrnd_3des.json", two);
  for (const auto& a : scenario.params.apps)
    EXPECT_EQ(a.placement.cpus, std::vector<std::size_t>{1}) << a.name;
  EXPECT_TRUE(scenario.params.background.at(0).placement.cpus.empty());
  std::vector<runtime::RequestRecord> records;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  ASSERT_EQ(records.size(), 8u);
  for (const auto& r : records) EXPECT_TRUE(r.ok && r.verified) << r.error;
  const double sim_ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
  EXPECT_EQ(stat(sim.stats(sim_ms), "arc.thread0", "desrnd_instructions"), 4 * 1024 * (8 + 24.0));

  // Pinned to the plain CPU: refused; two different units: refused.
  auto issues = [&](std::vector<std::string> overrides) {
    std::vector<std::string> got;
    try {
      load("desrnd_3des.json", overrides);
    } catch (const platform::ScenarioError& e) {
      for (const auto& i : e.issues()) got.push_back(i.pointer + ": " + i.message);
    }
    return got;
  };
  std::vector<std::string> pinned = two;
  pinned.push_back("workload.apps.0.cpu=\"plain\"");
  EXPECT_EQ(issues(pinned),
            std::vector<std::string>{"/workload/apps/0/cpu: CPU \"plain\" has no desrnd extension, "
                                     "which this application's software uses; expected a CPU that "
                                     "has it: \"arc\""});
  std::vector<std::string> differ = two;
  differ.push_back("platform.cpus.0.extensions.desrnd={\"rounds_per_instruction\":1}");
  EXPECT_EQ(issues(differ),
            std::vector<std::string>{"/platform/cpus/1/extensions/desrnd: differs from the desrnd "
                                     "unit of \"plain\": software that uses it is costed once, so "
                                     "every CPU's unit must be the same"});
}
