// Scenarios with an instruction-set CPU (platform.cpus[].model "iss") and software that is code
// (software.<f>.program): the shipped one loads with the program's measured costs, and every mistake in them
// is an issue at its key that says what is wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/estimate.h"
#include "platform/scenario.h"
#include "tests/test_paths.h"

namespace {

const std::string kIss = std::string(rsoc_test::kSourceDir) + "/scenarios/os_aes_des_iss.json";

// "pointer: message" of every issue of the ISS scenario with `overrides` (none when it loads).
std::vector<std::string> issues_with(const std::vector<std::string>& overrides) {
  rsoc::platform::LoadOptions opt;
  opt.overrides = overrides;
  std::vector<std::string> out;
  try {
    rsoc::platform::load_scenario_file(kIss, opt);
  } catch (const rsoc::platform::ScenarioError& e) {
    for (const auto& i : e.issues()) out.push_back(i.pointer + ": " + i.message);
  }
  return out;
}

bool has(const std::vector<std::string>& issues, const std::string& text) {
  for (const auto& i : issues)
    if (i.find(text) != std::string::npos) return true;
  return false;
}

std::string all(const std::vector<std::string>& issues) {
  std::string s;
  for (const auto& i : issues) s += i + "\n";
  return s;
}

}  // namespace

TEST(IssScenario, TheShippedOneLoadsWithItsProgramsMeasured) {
  const auto s = rsoc::platform::load_scenario_file(kIss);
  ASSERT_TRUE(s.params.cpus.at(0).params.iss);
  EXPECT_EQ(s.params.cpus.at(0).params.iss->profile.name, "picorv32");
  const auto& aes = s.params.runtime.software.at(rsoc::runtime::Functionality::kAes128);
  ASSERT_TRUE(aes.program);
  EXPECT_EQ(aes.cycles_per_block, 20000u);                // the OS's work around the call, as typed
  EXPECT_GT(aes.program->cycles_per_block, 4096u * 100);  // the code's, measured: hundreds of cycles a byte
  EXPECT_EQ(aes.block_cycles(4096, 16), 20000u + aes.program->cycles_per_block);
}

TEST(IssScenario, AnUnknownEntryNamesTheFunctionsTheProgramHas) {
  const auto issues = issues_with({"software.aes128.program.entry=aes_encrypt"});
  ASSERT_EQ(issues.size(), 1u) << all(issues);
  EXPECT_TRUE(has(issues, "/software/aes128/program/entry: no function \"aes_encrypt\" in ")) << all(issues);
  EXPECT_TRUE(has(issues, "aes128.elf (its functions: ")) << all(issues);
  EXPECT_TRUE(has(issues, "aes128_ecb")) << all(issues);
}

TEST(IssScenario, AMissingOrMalformedElfIsNamed) {
  const auto missing = issues_with({"software.des.program.elf=nothing.elf"});
  ASSERT_EQ(missing.size(), 1u) << all(missing);
  EXPECT_TRUE(has(missing, "/software/des/program/elf: no program file \"nothing.elf\" (looked for "))
      << all(missing);
  const auto not_elf = issues_with({"software.des.program.elf=os_aes_des.md"});  // next to the scenario
  ASSERT_EQ(not_elf.size(), 1u) << all(not_elf);
  EXPECT_TRUE(has(not_elf, "/software/des/program/elf: ")) << all(not_elf);
  EXPECT_TRUE(has(not_elf, "os_aes_des.md: not an ELF file")) << all(not_elf);
}

TEST(IssScenario, AProgramThatComputesSomethingElseIsRefusedAtLoad) {
  // DES's program for AES: it refuses the 16-byte key.
  const auto issues =
      issues_with({"software.aes128.program.elf=des.elf", "software.aes128.program.entry=des_ecb"});
  ASSERT_EQ(issues.size(), 1u) << all(issues);
  EXPECT_TRUE(has(issues, "/software/aes128/program: measured on CPU \"cpu\": des_ecb of ")) << all(issues);
  EXPECT_TRUE(has(issues, "des.elf returned 1 (expected 0) for 4096 bytes")) << all(issues);
}

TEST(IssScenario, ACostModelCpuCannotRunCode) {
  const auto issues = issues_with({"platform.cpus.0.model=cost"});
  EXPECT_TRUE(has(issues, "/platform/cpus/0/timing_profile: a timing profile applies to model \"iss\" only"))
      << all(issues);
  EXPECT_TRUE(has(issues, "/software/aes128/program: software that is code needs a CPU with model \"iss\""))
      << all(issues);
  EXPECT_TRUE(has(issues, "/software/des/program: software that is code needs a CPU with model \"iss\""))
      << all(issues);
}

TEST(IssScenario, AnIssCpuNeedsAProfileAndALocalMemoryOfItsOwn) {
  const auto no_profile = issues_with({"platform.cpus.0.timing_profile=null"});
  EXPECT_TRUE(has(no_profile,
                  "/platform/cpus/0/timing_profile: model \"iss\" needs a timing profile (one of "
                  "picorv32, picorv32_fast, neorv32, neorv32_fast, hazard3)"))
      << all(no_profile);
  const auto overlap = issues_with({"platform.cpus.0.local_memory.base=0x0"});
  EXPECT_TRUE(has(overlap,
                  "/platform/cpus/0/local_memory/base: the local memory [0x0, 0x1400000) overlaps "
                  "\"ddr\""))
      << all(overlap);
  const auto unaligned = issues_with({"platform.cpus.0.local_memory.base=0x10000100"});
  EXPECT_TRUE(has(unaligned, "/platform/cpus/0/local_memory: expected whole 4 KiB pages")) << all(unaligned);
}

TEST(IssScenario, TheCodesCyclesPerByteAreMeasuredNotTyped) {
  const auto issues = issues_with({"software.aes128.cycles_per_byte=316.8"});
  ASSERT_EQ(issues.size(), 1u) << all(issues);
  EXPECT_EQ(issues[0],
            "/software/aes128/cycles_per_byte: measured from the program (expected 0 with "
            "/software/aes128/program)");
}

namespace {
// The reference SoC's cores driven by the C drivers of scenarios/software/core_driver.c.
const std::string kDriverPrograms =
    R"(runtime.driver.programs={"aes128": {"elf": "core_driver.elf", "entry": "aes128_core_pio"},)"
    R"( "des": {"elf": "core_driver.elf", "entry": "des_core_pio"}})";
}  // namespace

TEST(IssScenario, DriversThatAreCodeAreMeasuredAtLoadAndPriceTheEstimate) {
  rsoc::platform::LoadOptions opt;
  opt.overrides = {kDriverPrograms};
  const auto s = rsoc::platform::load_scenario_file(kIss, opt);
  const auto& programs = s.params.runtime.driver_programs;
  ASSERT_EQ(programs.size(), 2u);
  const auto& aes = *programs.at(rsoc::runtime::Functionality::kAes128);
  const auto& des = *programs.at(rsoc::runtime::Functionality::kDes);
  EXPECT_EQ(aes.code->entry, "aes128_core_pio");
  EXPECT_EQ(aes.code->key, "/runtime/driver/programs/aes128");
  // A cipher block's loop: its stores, loads and their byte work, far below the typed 2,630 of the
  // calibrated (Linux) driver; AES's four words a cipher block cost more than DES's two.
  EXPECT_GT(aes.cycles_per_cipher_block, 50u);
  EXPECT_LT(aes.cycles_per_cipher_block, 2630u);
  EXPECT_GT(aes.cycles_per_cipher_block, des.cycles_per_cipher_block);
  EXPECT_GT(aes.poll_loop_cycles, 0u);
  // The estimate prices a hardware block with the code's cycles: cheaper than with the typed driver.
  const auto typed = rsoc::platform::estimate_costs(rsoc::platform::load_scenario_file(kIss).params);
  const auto coded = rsoc::platform::estimate_costs(s.params);
  EXPECT_LT(coded.hardware.at(rsoc::runtime::Functionality::kAes128).block_s,
            typed.hardware.at(rsoc::runtime::Functionality::kAes128).block_s / 2);
}

TEST(IssScenario, ADriverProgramIsRefusedWhereItCannotDrive) {
  const auto wrong = issues_with({kDriverPrograms, "runtime.driver.programs.aes128.entry=des_core_pio"});
  ASSERT_EQ(wrong.size(), 1u) << all(wrong);
  EXPECT_TRUE(has(wrong, "/runtime/driver/programs/aes128: measured on CPU \"cpu\": des_core_pio of "))
      << all(wrong);
  EXPECT_TRUE(has(wrong, "core_driver.elf returned 1 (expected 0)")) << all(wrong);
  const auto watchdog = issues_with({kDriverPrograms, "runtime.recovery.watchdog_cycles=100000"});
  EXPECT_TRUE(has(watchdog,
                  "/runtime/driver/programs/aes128: the recovery watchdog times the driver model's waits, a "
                  "driver program bounds its own polls (expected /runtime/recovery/watchdog_cycles 0)"))
      << all(watchdog);
  const auto cost = issues_with({kDriverPrograms, "platform.cpus.0.model=cost"});
  EXPECT_TRUE(has(cost, "/runtime/driver/programs/des: a driver that is code needs a CPU with model \"iss\""))
      << all(cost);
  const auto unknown = issues_with({R"(runtime.driver.programs={"sha": {"elf": "x.elf", "entry": "y"}})"});
  EXPECT_TRUE(has(unknown, "/runtime/driver/programs/sha: ")) << all(unknown);
}
