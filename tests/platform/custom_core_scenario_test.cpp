// Custom cores described in a scenario: what a valid description resolves to, each mistake named at its
// pointer, and a request for a custom functionality that runs in hardware and in software with verified
// output and a simulated crossover that agrees with the analytic one.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "platform/crossover.h"
#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/test_paths.h"

namespace rsoc::platform {
namespace {

const std::string kSha = std::string(rsoc_test::kSourceDir) + "/scenarios/custom_sha256.json";
const std::string kFft = std::string(rsoc_test::kSourceDir) + "/scenarios/custom_fft.json";

// "pointer: message" of every issue loading `path` with `overrides` (none when it loads).
std::vector<std::string> issues_with(const std::string& path, const std::vector<std::string>& overrides) {
  LoadOptions opt;
  opt.overrides = overrides;
  std::vector<std::string> out;
  try {
    load_scenario_file(path, opt);
  } catch (const ScenarioError& e) {
    for (const auto& i : e.issues()) out.push_back(i.pointer + ": " + i.message);
  }
  return out;
}

using Lines = std::vector<std::string>;

TEST(CustomCoreScenario, ADescriptionResolvesToTheCoreAndItsFunctionality) {
  const Scenario s = load_scenario_file(kSha);
  const auto f = s.params.functionalities->find("sha256");
  ASSERT_TRUE(f);
  const runtime::FunctionalityInfo& fi = runtime::info(*f);
  EXPECT_EQ(fi.block_bytes, 1024u);
  EXPECT_EQ(fi.output_bytes(), 32u);  // what sha256 gives, output_bytes null
  EXPECT_EQ(fi.key_bytes, 0u);
  EXPECT_GE(f->id(), runtime::kFirstCustomFunctionalityId);
  const CoreSpec& core = s.params.cores.at(0);
  EXPECT_EQ(core.params.kind, models::CoreKind::kCustom);
  EXPECT_EQ(core.serves, f);
  EXPECT_FALSE(core.params.custom.pio);
  EXPECT_EQ(s.params.apps.at(0).functionality, *f);
  EXPECT_TRUE(s.params.runtime.software.count(*f));
  EXPECT_EQ(s.params.functionalities->names().back(), "sha256");
  // The built-in functionalities stay where they were.
  EXPECT_EQ(s.params.functionalities->find("aes128"), runtime::Functionality::kAes128);
}

TEST(CustomCoreScenario, EachMistakeIsNamedWhereItIsWritten) {
  const std::string core = "platform.cores.0.";
  // Without it, nothing names sha256: the built-in functionalities are offered instead (the kinds' own
  // lists, models/core_kinds.h: one of them is looked for, not the whole list).
  const Lines unnamed = issues_with(kSha, {core + "custom=null"});
  ASSERT_EQ(unnamed.size(), 3u);
  EXPECT_EQ(unnamed[0],
            "/platform/cores/0/custom: a custom core needs its description (functionality, computes, "
            "input_bytes); expected an object");
  EXPECT_EQ(unnamed[1].rfind("/software/sha256: unknown key \"sha256\" (allowed: aes128, ", 0), 0u)
      << unnamed[1];
  EXPECT_NE(unnamed[1].find(", rsa4096_verify"), std::string::npos) << unnamed[1];
  EXPECT_EQ(unnamed[1].find(", sha256"), std::string::npos) << unnamed[1];
  EXPECT_EQ(unnamed[2].rfind("/workload/apps/0/functionality: \"sha256\" is not one of \"aes128\", ", 0), 0u)
      << unnamed[2];
  EXPECT_NE(unnamed[2].find(", \"rsa4096_verify\""), std::string::npos) << unnamed[2];
  EXPECT_EQ(unnamed[2].find(", \"sha256\""), std::string::npos) << unnamed[2];
  EXPECT_EQ(
      issues_with(kSha, {core + "type=des"}),
      (Lines{"/platform/cores/0/custom: only a custom core takes a custom description (this core is des); "
             "expected null",
             "/workload/apps/0/functionality: the hardware policy needs a custom core serving sha256 in "
             "/platform/cores for sha256"}));
  EXPECT_EQ(issues_with(kSha, {core + "custom.functionality=aes128", "software={}",
                               "workload.apps.0.functionality=aes128"}),
            (Lines{
                "/platform/cores/0/custom/functionality: \"aes128\" is a built-in functionality; expected a "
                "name of the custom core's own",
            }));
  EXPECT_EQ(
      issues_with(kSha, {core + "custom.output_bytes=16"}),
      (Lines{"/platform/cores/0/custom/output_bytes: 16 bytes is not what sha256 gives for a block of 1024 "
             "bytes; expected 32 (or null)"}));
  EXPECT_EQ(
      issues_with(kSha, {core + "custom.input_bytes=1022"}),
      (Lines{"/platform/cores/0/custom/input_bytes: 1022 is not a whole number of 32-bit words; expected a "
             "multiple of 4"}));
  EXPECT_EQ(issues_with(kSha, {core + "custom.key_bytes=16"}),
            (Lines{"/platform/cores/0/custom/key_bytes: sha256 takes no key; expected 0"}));
  EXPECT_EQ(
      issues_with(kSha, {core + "custom.computes=xor_key", core + "custom.output_bytes=1024"}),
      (Lines{"/platform/cores/0/custom/key_bytes: xor_key takes a key; expected a multiple of 4 from 4 to "
             "64"}));
  EXPECT_EQ(issues_with(kSha, {core + "custom.interface=pio", core + "custom.input_bytes=4096"}),
            (Lines{"/platform/cores/0/custom/input_bytes: 4096 bytes do not fit the PIO bank (2048 bytes); "
                   "expected at most that, or interface stream"}));
  EXPECT_EQ(
      issues_with(kSha, {"runtime.driver.data_path=pio", "runtime.driver.dma=null"}),
      (Lines{"/platform/cores/0/custom/interface: a core with the streaming windows only needs the DMA data "
             "path; expected runtime.driver.data_path dma, or interface pio"}));
  EXPECT_EQ(
      issues_with(kSha, {core + "initiation_interval_cycles=2000"}),
      (Lines{"/platform/cores/0/initiation_interval_cycles: 2000 is more than block_cycles (1122); expected "
             "a number of cycles <= block_cycles (a block enters the pipeline at most as late as the one "
             "before it leaves)"}));
  const Lines misspelt = issues_with(kSha, {"workload.apps.0.functionality=sha265"});
  ASSERT_EQ(misspelt.size(), 1u);
  EXPECT_EQ(misspelt[0].rfind("/workload/apps/0/functionality: \"sha265\" is not one of \"aes128\", ", 0), 0u)
      << misspelt[0];
  const std::string suggestion = ", \"sha256\"; did you mean \"sha256\"?";  // the custom one last
  EXPECT_EQ(misspelt[0].substr(misspelt[0].size() - std::min(misspelt[0].size(), suggestion.size())),
            suggestion);
  EXPECT_EQ(issues_with(kSha, {"software.sha25.cycles_per_block=1"}),
            (Lines{"/software/sha25: unknown key \"sha25\"; did you mean \"sha256\"?"}));
}

TEST(CustomCoreScenario, CoresServingOneFunctionalityAgreeOnIt) {
  const std::string second =
      "platform.cores.1={\"name\":\"sha_b\",\"type\":\"custom\",\"clock_mhz\":100,\"block_cycles\":1122,"
      "\"custom\":{\"functionality\":\"sha256\",\"computes\":\"sha256\",\"input_bytes\":";
  const std::string bitstream =
      ",\"interface\":\"stream\"},\"bitstream\":{\"memory\":\"ddr\",\"address\":\"0x11000000\",\"size_kib\":"
      "200}}";
  // The second core has its energy too (section energy names every core).
  const std::string energy = "energy.cores.sha_b={\"pj_per_cycle\": 400}";
  EXPECT_EQ(issues_with(kSha, {second + "1024" + bitstream, energy}), Lines{});
  EXPECT_EQ(issues_with(kSha, {second + "512" + bitstream, energy}),
            (Lines{"/platform/cores/1/custom: another core serves \"sha256\" with other blocks, key or "
                   "computation; expected the same computes, input_bytes, output_bytes and key_bytes for one "
                   "functionality"}));
}

// 16 KiB digested in 1 KiB records: hardware (after a reconfiguration, then resident) and software give the
// digests OpenSSL gives; the FFT core, timing only, runs unverified.
TEST(CustomCoreScenario, RequestsRunInHardwareAndSoftwareWithVerifiedOutput) {
  LoadOptions opt;
  opt.overrides = {"workload.apps.0.blocks=16", "workload.apps.0.requests=2"};
  const Scenario s = load_scenario_file(kSha, opt);
  std::vector<runtime::RequestRecord> records;
  Simulation sim(s.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_apps();
  sim.run();
  ASSERT_EQ(records.size(), 2u);
  for (const auto& r : records) {
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.verified);
    EXPECT_EQ(r.decision, "hardware");
    EXPECT_EQ(r.bytes, 16u * 1024);
  }
  EXPECT_TRUE(records[0].reconfigured);
  EXPECT_FALSE(records[1].reconfigured);
}

// Within 10 %: the analytic estimate counts the same words, cycles and pipeline as the models.
void expect_crossovers_agree(const std::string& file) {
  const Scenario s = load_scenario_file(file);
  CrossoverOptions options;
  options.max_blocks = 150;
  const CrossoverResult r = run_crossover(s, options);
  ASSERT_EQ(r.summary.size(), 1u) << file;
  ASSERT_TRUE(r.summary[0].simulated && r.summary[0].analytic) << file;
  const double simulated = static_cast<double>(*r.summary[0].simulated);
  const double analytic = static_cast<double>(*r.summary[0].analytic);
  EXPECT_NEAR(simulated, analytic, 0.1 * simulated) << file;
}

TEST(CustomCoreScenario, TheSimulatedSha256CrossoverAgreesWithTheAnalyticOne) {
  expect_crossovers_agree(kSha);
}

TEST(CustomCoreScenario, TheSimulatedPipelinedFftCrossoverAgreesWithTheAnalyticOne) {
  expect_crossovers_agree(kFft);
}

}  // namespace
}  // namespace rsoc::platform
