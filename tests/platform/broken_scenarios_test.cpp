// Every broken scenario kept in tests/broken_scenarios gives exactly the messages a user should see, all of
// them in one pass; every shipped scenario loads; and scenarios/README.md documents every key the loader
// accepts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "platform/scenario.h"
#include "platform/scenario_schema.h"
#include "tests/test_paths.h"

namespace fs = std::filesystem;
using rsoc::platform::ScenarioError;

namespace {

const std::string kBroken = std::string(rsoc_test::kSourceDir) + "/tests/broken_scenarios/";

std::vector<std::string> issues_of(const std::string& name) {
  try {
    rsoc::platform::load_scenario_file(kBroken + name);
  } catch (const ScenarioError& e) {
    std::vector<std::string> out;
    for (const auto& i : e.issues()) {
      EXPECT_EQ(i.file, kBroken + name);
      out.push_back(i.to_string().substr(kBroken.size()));
    }
    return out;
  }
  ADD_FAILURE() << name << " loaded without error";
  return {};
}

// Every issue loading `path` with `opt` gives, each as `text(issue)` (none when it loads).
template <class Text>
std::vector<std::string> issues_loading(const std::string& path, const rsoc::platform::LoadOptions& opt,
                                        Text text) {
  std::vector<std::string> out;
  try {
    rsoc::platform::load_scenario_file(path, opt);
  } catch (const ScenarioError& e) {
    for (const auto& i : e.issues()) out.push_back(text(i));
  }
  return out;
}

// "pointer: message" of every issue loading `path` with `overrides` gives (none when it loads).
std::vector<std::string> issues_with(const std::string& path, const std::vector<std::string>& overrides) {
  rsoc::platform::LoadOptions opt;
  opt.overrides = overrides;
  return issues_loading(path, opt,
                        [](const rsoc::platform::ScenarioIssue& i) { return i.pointer + ": " + i.message; });
}

struct Case {
  const char* file;
  std::vector<std::string> messages;
};

const Case kCases[] = {
    {"malformed_json.json",
     {"malformed_json.json:6:3: malformed JSON: syntax error while parsing object key - unexpected '}'; "
      "expected "
      "string literal"}},
    {"duplicate_key.json", {"duplicate_key.json: /platform/cpus/0: duplicate key \"clock_mhz\""}},
    {"unknown_key_typo.json",
     {"unknown_key_typo.json: /platform/slotz: unknown key \"slotz\"; did you mean \"slots\"?"}},
    {"wrong_type.json",
     {"wrong_type.json: /platform/cpus/0/clock_mhz: expected a number (MHz), got a string \"fast\""}},
    {"out_of_range.json",
     {"out_of_range.json: /platform/cpus/0/clock_mhz: 0 is out of range; expected a number (MHz) >= 0.001 "
      "and <= 100000"}},
    {"unknown_enum.json",
     {"unknown_enum.json: /platform/buses/0/kind: \"onchp\" is not one of \"onchip\", \"fmc\"; did you mean "
      "\"onchip\"?"}},
    {"missing_required.json",
     {"missing_required.json: /platform/cpus/0: missing required key \"bus\" (string: name of the bus the "
      "CPU's "
      "initiator port is bound to)"}},
    {"dangling_bus.json",
     {"dangling_bus.json: /platform/slots/0/bus: unknown bus \"opb\"; did you mean \"plb\"?"}},
    {"unknown_core.json",
     {"unknown_core.json: /platform/slots/0/core: unknown core \"aes_cor\"; did you mean \"aes_core\"?"}},
    {"bitstream_too_large.json",
     {"bitstream_too_large.json: /platform/cores/0/bitstream/size_kib: bitstream of core \"aes_core\" "
      "(716800 bytes) "
      "is larger than every reconfigurable slot"}},
    {"address_overlap.json",
     {"address_overlap.json: /platform/config_port/base: bus \"plb\": device \"config_port\" [0x40000000, "
      "0x40002000) overlaps device \"slot0\" [0x40001000, 0x40003000)"}},
    {"duplicate_name.json",
     {"duplicate_name.json: /platform/slots/1/name: duplicate name \"slot0\" in /platform/slots"}},
    {"bad_address.json",
     {"bad_address.json: /platform/config_port/base: expected an address: a non-negative integer or a hex "
      "string "
      "like \"0x40000000\", got a string \"0x4000ZZ00\""}},
    {"static_slot_without_core.json",
     {"static_slot_without_core.json: /platform/slots/0/core: a static slot (reconfigurable: false) needs "
      "the core "
      "it is configured with"}},
    {"dma_feed_without_dma.json",
     {"dma_feed_without_dma.json: /platform/config_port/dma: feed \"dma\" needs the name of a DMA engine "
      "(got null)"}},
    {"bitstream_outside_memory.json",
     {"bitstream_outside_memory.json: /platform/cores/0/bitstream/address: bitstream [0x3ff0000, 0x406d000) "
      "lies "
      "outside memory \"ddr\" [0x0, 0x4000000)"}},
    {"empty_apps.json",
     {"empty_apps.json: /workload/apps: the workload needs at least one application (or an hsm firmware)"}},
    {"threshold_policy_without_threshold.json",
     {"threshold_policy_without_threshold.json: /workload/apps/0/functionality: the threshold policy needs "
      "/runtime/thresholds/aes128 or /software/aes128 for aes128"}},
    {"core_no_slot_can_hold.json",
     {"core_no_slot_can_hold.json: /workload/apps/0/functionality: nothing can run aes128: /software/aes128 is "
      "not defined and no slot in /platform/slots can hold a core of type \"aes128\""}},
    {"software_policy_without_cost.json",
     {"software_policy_without_cost.json: /workload/apps/0/functionality: the software policy needs "
      "/software/aes128, which the scenario does not define"}},
    {"hw_thread_missing.json",
     {"hw_thread_missing.json: /workload/apps/0/hw_thread: hardware thread 3 does not exist (the CPU \"cpu\" "
      "has 1)"}},
    {"hw_thread_without_cpu.json",
     {"hw_thread_without_cpu.json: /workload/apps/0/hw_thread: a hardware thread of which CPU? The platform "
      "has 2 (\"cpu0\", \"cpu1\"): name one in /workload/apps/0/cpu, or leave hw_thread null"}},
    {"cpu_unknown.json",
     {"cpu_unknown.json: /workload/apps/0/cpu: unknown CPU \"cpu2x\"; did you mean \"cpu0\"?"}},
    {"cpu_idle.json",
     {"cpu_idle.json: /platform/cpus/1: no process can run on CPU \"cpu1\": every application and background "
      "process is pinned to other CPUs (their cpu); leave cpu null on one of them, set it to \"cpu1\" on "
      "one, "
      "or remove this CPU"}},
    {"two_block_counts.json",
     {"two_block_counts.json: /workload/apps/0: give exactly one of blocks, blocks_list and "
      "blocks_distribution (got "
      "2)"}},
    {"timeline_window_backwards.json",
     {"timeline_window_backwards.json: /outputs/trace/end_ms: end_ms (5.0) must be greater than start_ms "
      "(10.0)",
      "timeline_window_backwards.json: /outputs/vcd/end_ms: end_ms (2.0) must be greater than start_ms "
      "(2.0)"}},
    {"unit_not_whole_cipher_blocks.json",
     {"unit_not_whole_cipher_blocks.json: /runtime/unit_bytes/aes128: 1000 is not a whole number of aes128 "
      "cipher blocks; expected a multiple of 16 bytes",
      "unit_not_whole_cipher_blocks.json: /runtime/unit_bytes/modexp1024: 200 is not a whole number of "
      "modexp1024 messages; expected a multiple of 128 bytes"}},
    {"energy_incomplete.json",
     {"energy_incomplete.json: /energy/cpus/cpu/active_mw: active_mw (50.0) is below idle_mw (60.0); "
      "expected "
      "at least idle_mw",
      "energy_incomplete.json: /energy/slots/slot1: unknown slot \"slot1\"; did you mean \"slot0\"?",
      "energy_incomplete.json: /energy/cores: no energy values for core \"aes_core\"; expected an entry for "
      "every one of /platform/cores",
      "energy_incomplete.json: /energy/config_port: the platform has a configuration port; expected its "
      "energy "
      "({\"nj_per_word\": ...})"}},
    {"several_errors.json",
     {"several_errors.json: /platform/cpus/0/clock_mhz: -5 is out of range; expected a number (MHz) >= 0.001 "
      "and <= 100000",
      "several_errors.json: /platform/buses/0/latency_cycle: unknown key \"latency_cycle\"; did you mean "
      "\"latency_cycles\"?",
      "several_errors.json: /workload/apps/0/operation: \"encript\" is not one of \"encrypt\", \"decrypt\"; "
      "did you mean \"encrypt\"?"}},
};

}  // namespace

TEST(ScenarioBroken, EachGivesItsExactMessages) {
  for (const auto& c : kCases) EXPECT_EQ(issues_of(c.file), c.messages) << c.file;
}

TEST(ScenarioBroken, EveryKeptFileIsCovered) {
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(kBroken)) {
    if (e.path().extension() != ".json") continue;
    ++files;
    bool covered = false;
    for (const auto& c : kCases) covered = covered || e.path().filename() == c.file;
    EXPECT_TRUE(covered) << e.path() << " has no expected message";
  }
  EXPECT_GE(files, 15u);
}

TEST(ScenarioShipped, EveryShippedScenarioLoads) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(std::string(rsoc_test::kSourceDir) + "/scenarios")) {
    if (e.path().extension() != ".json") continue;
    ++n;
    EXPECT_NO_THROW(rsoc::platform::load_scenario_file(e.path().string())) << e.path();
  }
  EXPECT_GE(n, 1u);
}

TEST(ScenarioShipped, DefaultScenarioIsTheReferenceExperiment) {
  const auto embedded =
      rsoc::platform::load_scenario_text(rsoc::platform::default_scenario_text(), "default");
  const auto file =
      rsoc::platform::load_scenario_file(std::string(rsoc_test::kSourceDir) + "/scenarios/os_aes_des.json");
  EXPECT_EQ(embedded.sha256, file.sha256);
}

TEST(ScenarioDocs, ReadmeDocumentsEveryKeyTheLoaderAccepts) {
  std::ifstream in(std::string(rsoc_test::kSourceDir) + "/scenarios/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string readme = ss.str();
  for (const auto& row : rsoc::platform::document(rsoc::platform::scenario_schema())) {
    EXPECT_NE(readme.find("| `" + row.path + "` |"), std::string::npos)
        << "scenarios/README.md does not document `" << row.path
        << "`; regenerate the table with `rsoc schema "
        << "--markdown`";
  }
  EXPECT_TRUE(rsoc::platform::undocumented_paths(rsoc::platform::scenario_schema()).empty());
  // The table in the README is exactly what the schema says (no stale rows either).
  EXPECT_NE(readme.find(rsoc::platform::document_markdown(rsoc::platform::scenario_schema())),
            std::string::npos)
      << "the key table in scenarios/README.md is stale; regenerate it with `rsoc schema --markdown`";
}

TEST(ScenarioOverrides, SetAndSeedApplyWithValidation) {
  rsoc::platform::LoadOptions opt;
  opt.overrides = {"platform.config_port.cpu_copy_cycles_per_word=60", "/workload/apps/0/blocks=8"};
  opt.seed = 42;
  const auto s = rsoc::platform::load_scenario_file(
      std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json", opt);
  EXPECT_EQ(s.params.config_port->cpu_copy_cycles_per_word, 60u);
  EXPECT_EQ(s.params.apps.at(0).blocks.list, std::vector<std::uint64_t>{8});
  EXPECT_EQ(s.params.seed, 42u);
  opt.overrides = {"platform.slots.0.capacity_kib=100"};
  try {
    rsoc::platform::load_scenario_file(std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json", opt);
    FAIL() << "a slot smaller than the only bitstream must be rejected";
  } catch (const ScenarioError& e) {
    ASSERT_EQ(e.issues().size(), 1u);
    EXPECT_EQ(e.issues()[0].pointer, "/platform/cores/0/bitstream/size_kib");
    // The value at fault is the file's, but the scenario loads without the override: the override's problem.
    EXPECT_EQ(e.issues()[0].file, "--set platform.slots.0.capacity_kib=100");
  }
}

TEST(ScenarioOverrides, AProblemIsNamedAfterTheFlagThatSetItsValue) {
  const std::string smoke = std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json";
  // "flag or file: pointer" of every issue.
  const auto files = [&](const rsoc::platform::LoadOptions& opt) {
    return issues_loading(smoke, opt,
                          [](const rsoc::platform::ScenarioIssue& i) { return i.file + ": " + i.pointer; });
  };
  rsoc::platform::LoadOptions opt;
  // At or below the value an override set, the last override of it; named by its own flag when it has one.
  opt.overrides = {"platform.cpus.0.clock_mhz=0",
                   "platform.buses=[{\"name\":\"plb\",\"clock_mhz\":\"fast\"}]"};
  EXPECT_EQ(
      files(opt),
      (std::vector<std::string>{
          "--set platform.cpus.0.clock_mhz=0: /platform/cpus/0/clock_mhz",
          "--set platform.buses=[{\"name\":\"plb\",\"clock_mhz\":\"fast\"}]: /platform/buses/0/clock_mhz",
      }));
  opt.overrides = {"outputs.trace.start_ms=20", "outputs.trace.end_ms=10"};
  opt.sources = {"--trace-window 20:10", "--trace-window 20:10"};
  EXPECT_EQ(files(opt), std::vector<std::string>{"--trace-window 20:10: /outputs/trace/end_ms"});
  opt.overrides = {"platform.cpus.0.clock_mhz=1", "platform.cpus.0.clock_mhz=-1"};
  opt.sources = {"--param platform.cpus.0.clock_mhz=1"};
  EXPECT_EQ(files(opt),
            std::vector<std::string>{"--set platform.cpus.0.clock_mhz=-1: /platform/cpus/0/clock_mhz"});
  opt.overrides = {};
  opt.sources = {};
  opt.seed = 1ULL << 60;
  EXPECT_EQ(files(opt), std::vector<std::string>{"--seed 1152921504606846976: /seed"});
}

TEST(ScenarioUnits, TheExecutionUnitAndItsCostsAreCheckedAndResolved) {
  const std::string reference = std::string(rsoc_test::kSourceDir) + "/scenarios/os_aes_des.json";
  EXPECT_EQ(issues_with(reference, {"runtime.unit_bytes={\"des\":4,\"aes\":16,\"3des\":2000000}",
                                    "software.des.cycles_per_byte=-1", "runtime.driver.pio_timing=words"}),
            (std::vector<std::string>{
                "/software/des/cycles_per_byte: -1 is out of range; expected a number (cycles) >= 0 and <= "
                "1000000",
                "/runtime/unit_bytes/des: 4 is out of range; expected an integer (bytes) >= 8 and <= 1048576",
                "/runtime/unit_bytes/3des: 2000000 is out of range; expected an integer (bytes) >= 8 and <= "
                "1048576",
                "/runtime/driver/pio_timing: \"words\" is not one of \"burst\", \"word\"; did you mean "
                "\"word\"?"}));
  // A key that is not one of the scenario's functionalities, once the values are right (the resolver knows
  // them: its custom cores add theirs).
  EXPECT_EQ(
      issues_with(reference, {"runtime.unit_bytes={\"des\":8,\"aes\":16}"}),
      (std::vector<std::string>{"/runtime/unit_bytes/aes: unknown key \"aes\"; did you mean \"aes128\"?"}));
  // Resolved: the reference's 4 KiB blocks, one cipher block for the functionalities it does not set; the
  // software's cost per block and per byte; the driver's per block and per cipher block; word timing.
  rsoc::platform::LoadOptions opt;
  opt.overrides = {"runtime.unit_bytes.3des=64", "runtime.driver.pio_timing=word"};
  const auto p = rsoc::platform::load_scenario_file(reference, opt).params;
  using rsoc::runtime::Functionality;
  EXPECT_EQ(rsoc::runtime::unit_bytes(p.runtime.unit_bytes, Functionality::kAes128), 4096u);
  EXPECT_EQ(rsoc::runtime::unit_bytes(p.runtime.unit_bytes, Functionality::kTripleDes), 64u);
  EXPECT_EQ(rsoc::runtime::unit_bytes(p.runtime.unit_bytes, Functionality::kModexp2048), 256u);
  const auto& des = p.runtime.software.at(Functionality::kDes);
  EXPECT_EQ(des.cycles_per_block, 20000u);
  EXPECT_EQ(des.cycles_per_byte, 447.72);
  EXPECT_EQ(des.block_cycles(4096, 8), 20000u + 1833861u);  // 4,096 x 447.72 = 1,833,861.12
  EXPECT_EQ(p.runtime.driver.cycles_per_block, 0u);
  EXPECT_EQ(p.runtime.driver.cycles_per_cipher_block, 2630u);
  EXPECT_EQ(p.runtime.driver.pio_timing, rsoc::runtime::PioTiming::kWord);
}

TEST(ScenarioEnergy, TheEnergyPoliciesNeedAnEnergyModelAndThePortItsEnergyOnlyWhenThereIsOne) {
  const std::string smoke = std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json";
  EXPECT_EQ(
      issues_with(smoke, {"runtime.policy=energy_delay"}),
      (std::vector<std::string>{"/runtime/policy: policy energy_delay chooses by energy: it needs section "
                                "energy (the power model); expected another policy, or an energy section"}));
  // A platform without a port (the HSM: static slots) takes no port energy; a DMA engine it lacks is named.
  const std::string hsm = std::string(rsoc_test::kSourceDir) + "/scenarios/hsm_rsa2048.json";
  EXPECT_EQ(issues_with(hsm, {"energy.config_port={\"nj_per_word\": 0.5}",
                              "energy.dmas={\"dma0\": {\"pj_per_word\": 1}}"}),
            (std::vector<std::string>{
                "/energy/dmas/dma0: unknown DMA engine \"dma0\" (/platform/dmas is empty)",
                "/energy/config_port: the platform has no configuration port; expected null"}));
  // An entry with a count is priced by its name for all its slots, so a sweep of the count keeps the section
  // valid; a slot priced by its own name besides is priced twice.
  const std::string reference = std::string(rsoc_test::kSourceDir) + "/scenarios/os_aes_des.json";
  EXPECT_EQ(issues_with(reference, {"platform.slots.0.count=1"}), std::vector<std::string>{});
  EXPECT_EQ(issues_with(reference, {"platform.slots.0.count=3"}), std::vector<std::string>{});
  EXPECT_EQ(
      issues_with(reference, {R"(energy.slots={"slot0": {"static_mw": 1}, "slot": {"static_mw": 2}})"}),
      (std::vector<std::string>{"/energy/slots/slot0: slot \"slot0\" has energy values twice (by its name "
                                "and its entry's); expected one"}));
  // Resolved: the CPU's power scaled from the clock it was measured at, the floor power summed.
  rsoc::platform::LoadOptions opt;
  opt.overrides = {
      R"(energy={"baseline_mw": 100, "cpus": {"cpu": {"active_mw": 150, "idle_mw": 60, "at_clock_mhz": 200}},
                             "buses": {"plb": {"pj_per_word": 1}},
                             "memories": {"ddr": {"read_nj_per_word": 1, "write_nj_per_word": 1}},
                             "config_port": {"nj_per_word": 0.5}, "slots": {"slot0": {"static_mw": 15}},
                             "cores": {"aes_core": {"pj_per_cycle": 1}}})"};
  const auto p = rsoc::platform::load_scenario_file(smoke, opt).params;
  ASSERT_TRUE(p.energy.has_value());
  EXPECT_DOUBLE_EQ(p.energy->cpus.at("cpu").active_mw, 60 + 90 * 100.0 / 200);  // the CPU runs at 100 MHz
  EXPECT_DOUBLE_EQ(p.energy->cpus.at("cpu").idle_mw, 60);
  EXPECT_DOUBLE_EQ(p.energy->floor_mw(), 100 + 60 + 15);
  EXPECT_DOUBLE_EQ(p.runtime.energy_floor_mw, 175);
}

TEST(ScenarioSlots, CountStandsForNamedSlotsInConsecutiveWindows) {
  const std::string reference = std::string(rsoc_test::kSourceDir) + "/scenarios/os_aes_des.json";
  rsoc::platform::LoadOptions opt;
  opt.overrides = {"platform.slots.0.count=3"};
  const auto s = rsoc::platform::load_scenario_file(reference, opt);
  ASSERT_EQ(s.params.slots.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(s.params.slots[k].name, "slot" + std::to_string(k));
    EXPECT_EQ(s.params.slots[k].base, 0x80000000u + k * 0x10000u);  // 64 KiB windows
  }
  opt.overrides = {"platform.slots.0.count=1"};
  EXPECT_EQ(rsoc::platform::load_scenario_file(reference, opt).params.slots.at(0).name, "slot");
  // A plain slot named like an expanded one is refused.
  opt.overrides = {
      "platform.slots=[{\"name\":\"slot\",\"count\":2,\"bus\":\"plb\",\"base\":\"0x80000000\",\"window_kib\":"
      "64,"
      "\"capacity_kib\":600},{\"name\":\"slot1\",\"bus\":\"plb\",\"base\":\"0x90000000\",\"capacity_kib\":"
      "600}]"};
  try {
    rsoc::platform::load_scenario_file(reference, opt);
    FAIL() << "slot1 is taken by the expansion of slot";
  } catch (const ScenarioError& e) {
    ASSERT_EQ(e.issues().size(), 1u);
    EXPECT_EQ(e.issues()[0].pointer, "/platform/slots/1/name");
    EXPECT_EQ(e.issues()[0].message, "slot name \"slot1\" is taken by another slot");
  }
}

TEST(ScenarioHsm, CrossFieldProblemsAreReportedWithTheirPointers) {
  EXPECT_EQ(
      issues_with(std::string(rsoc_test::kSourceDir) + "/scenarios/hsm_rsa2048.json",
                  {"workload.hsm.key_bits=3000", "workload.hsm.uart=uart0",
                   "workload.hsm.key_record_bytes=100", "workload.hsm.keystore_address=0x2002FFF0"}),
      (std::vector<std::string>{
          "/workload/hsm/uart: unknown UART \"uart0\" (known: uart_user)",
          "/workload/hsm/key_bits: expected 2048 or 4096 (the modexp cores take the message unreduced, at "
          "most 4096 bits), got 3000",
          "/workload/hsm/key_record_bytes: a 3000-bit key needs a record of at least 2464 bytes, got 100",
          "/workload/hsm/keystore_address: the wrapped key [0x2002fff0, 0x20030060) lies outside memory "
          "\"sram\""}));
}

// The remainder runs in the bignum steps in proportion to their cycles: with none, it cannot run there.
TEST(ScenarioHsm, ARemainderInBignumStepsWithoutCyclesIsRefusedWithWhatWouldDo) {
  const std::string file = std::string(rsoc_test::kSourceDir) + "/scenarios/hsm_rsa2048.json";
  std::vector<std::string> zero;
  for (const char* step :
       {"key_parse", "blinding_hit", "blind", "operand_unpack", "result_read", "crt", "unblind"})
    zero.push_back(std::string("workload.hsm.cycles.") + step + "=0");
  EXPECT_EQ(issues_with(file, zero),
            (std::vector<std::string>{
                "/workload/hsm/remainder_at: bignum: the remainder (13319000 cycles) runs in the bignum "
                "steps in proportion to their cycles, and cycles.key_parse, blinding_hit, blind, "
                "operand_unpack, result_read, crt and unblind are all 0; expected unwrap or dispatch, or "
                "cycles for those steps"}));
  zero.push_back("workload.hsm.remainder_at=unwrap");
  EXPECT_TRUE(issues_with(file, zero).empty());
}

// The firmware's core library takes the platform's static cores: the CRT pair needs two modexp cores that
// take the unreduced message, the unwrap an AES core.
TEST(ScenarioHsm, TheFirmwareNeedsAnAesCoreAndTwoModexpCoresThatTakeTheUnreducedMessage) {
  const std::string file = std::string(rsoc_test::kSourceDir) + "/scenarios/hsm_rsa2048.json";
  const auto problems = [&](const std::vector<std::string>& overrides) {
    return issues_with(file, overrides);
  };
  EXPECT_EQ(
      problems({"platform.cores.1.max_operand_bits=1024"}),
      (std::vector<std::string>{"/workload/hsm/key_bits: a modexp core of the platform takes at most "
                                "1024-bit operands; the unreduced message of a 2048-bit key needs 2048"}));
  EXPECT_EQ(
      problems({"platform.slots.1.count=1"}),
      (std::vector<std::string>{"/workload/hsm: the HSM firmware runs the CRT halves on two modexp cores "
                                "at once (hal_modexp2): 1 static slot holds a modexp core"}));
  EXPECT_EQ(
      problems({"platform.slots.0.core=\"modexp_core\""}),
      (std::vector<std::string>{"/workload/hsm: the HSM firmware unwraps keys on an AES core: no static "
                                "slot (reconfigurable: false) holds an aes128 core"}));
  EXPECT_TRUE(problems({"platform.slots.1.count=2", "platform.slots.0.count=1"}).empty());
}

namespace {
// The "pointer: message" of every issue of the smoke scenario with `overrides` (none: a test failure).
std::vector<std::string> smoke_issues(const std::vector<std::string>& overrides) {
  rsoc::platform::LoadOptions opt;
  opt.overrides = overrides;
  try {
    rsoc::platform::load_scenario_file(std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json", opt);
  } catch (const ScenarioError& e) {
    std::vector<std::string> got;
    for (const auto& i : e.issues()) got.push_back(i.pointer + ": " + i.message);
    return got;
  }
  ADD_FAILURE() << "loaded without error";
  return {};
}
}  // namespace

TEST(ScenarioWorkload, AfterNamesAnEarlierEntryOfTheSameCount) {
  const std::string enc = R"({"name":"enc","functionality":"aes128","blocks":1,"count":2})";
  EXPECT_EQ(
      smoke_issues({"workload.apps=[" + enc +
                    R"(,{"name":"dec","functionality":"aes128","blocks":1,"after":"enc"}])"}),
      (std::vector<std::string>{"/workload/apps/1/after: \"enc\" has count 2, this entry 1; expected the "
                                "same count (copy k follows copy k)"}));
  EXPECT_EQ(
      smoke_issues({R"(workload.apps=[{"name":"dec","functionality":"aes128","blocks":1,"after":"enc"},)" +
                    enc + "]"}),
      (std::vector<std::string>{"/workload/apps/0/after: no earlier application \"enc\"; expected one of "
                                "the entries before it (there are none)"}));
}

TEST(ScenarioSoftware, ScaledFromNeedsCountedWorkAndACalibratedCost) {
  EXPECT_EQ(
      smoke_issues({R"(software.des={"scaled_from":"aes128"})",
                    R"(software.rsa4096_verify={"scaled_from":"3des"})",
                    R"(software.rsa4096_crt={"scaled_from":"rsa4096_crt"})",
                    R"(software.rsa2048_crt={"scaled_from":"rsa4096_crt"})"}),
      (std::vector<std::string>{
          "/software/des/scaled_from: des has no counted big-number work to scale by (scaled_from applies "
          "to rsa2048_crt, rsa4096_crt, rsa4096_verify)",
          "/software/rsa2048_crt/scaled_from: /software/rsa4096_crt is scaled itself; expected a "
          "calibrated cost",
          "/software/rsa4096_crt/scaled_from: rsa4096_crt cannot be scaled from itself; expected another "
          "functionality",
          "/software/rsa4096_verify/scaled_from: 3des has no counted big-number work; expected one of "
          "rsa2048_crt, rsa4096_crt, rsa4096_verify"}));
  EXPECT_EQ(
      smoke_issues({R"(software.rsa4096_verify={"scaled_from":"rsa4096_crt"})"}),
      (std::vector<std::string>{"/software/rsa4096_verify/scaled_from: expected a functionality with its "
                                "own software cost (define /software/rsa4096_crt)"}));
}

// Names made by a count (<name>0, <name>1, ...) must not collide with declared ones or with each other: a DMA
// engine or an application named twice would be bound twice or merged in the statistics.
TEST(ScenarioNames, CountsMakeNamesThatMustNotCollide) {
  const std::string smoke = std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json";
  const std::string reference = std::string(rsoc_test::kSourceDir) + "/scenarios/os_aes_des.json";
  EXPECT_EQ(
      issues_with(smoke, {"platform.dmas=[{\"name\":\"d\",\"count\":2,\"bus\":\"plb\",\"base\":"
                          "\"0x40100000\"},{\"name\":\"d0\",\"bus\":\"plb\",\"base\":\"0x40200000\"}]"}),
      (std::vector<std::string>{
          "/platform/dmas/1/name: DMA engine name \"d0\" is taken by another DMA engine"}));
  EXPECT_EQ(
      issues_with(reference, {"workload.apps.0.count=2", "workload.apps.1.name=\"aes_app0\""}),
      (std::vector<std::string>{
          "/workload/apps/1/name: application name \"aes_app0\" is taken by a copy of another application"}));
  EXPECT_EQ(issues_with(reference, {"workload.apps.1.count=2", "workload.apps.0.name=\"des_app1\""}),
            (std::vector<std::string>{"/workload/apps/1/name: application name \"des_app1\" (copy 1 of "
                                      "\"des_app\") is taken by another application"}));
  EXPECT_EQ(
      issues_with(reference, {"workload.apps.0.count=3", "workload.background.0.name=\"aes_app2\""}),
      (std::vector<std::string>{"/workload/background/0/name: duplicate name \"aes_app2\" in /workload (apps "
                                "and background share names)"}));
  EXPECT_TRUE(issues_with(reference, {"workload.apps.0.count=3", "workload.apps.1.count=2"}).empty());
}

// Bounds that keep a valid scenario within memory: applications after counts, and the data of one request
// (every byte is really computed).
TEST(ScenarioLimits, ExpandedApplicationsAndRequestDataAreBounded) {
  const std::string reference = std::string(rsoc_test::kSourceDir) + "/scenarios/os_aes_des.json";
  EXPECT_EQ(issues_with(reference, {"workload.apps.0.count=4096"}),
            (std::vector<std::string>{
                "/workload/apps/1/count: the workload would have 4097 applications; at most 4096"}));
  EXPECT_EQ(
      issues_with(reference, {"workload.apps.0.blocks_list=[1,100000]"}),
      (std::vector<std::string>{"/workload/apps/0: a request of 100000 blocks of 4096 bytes is 409600000 "
                                "bytes of data; at most 268435456 (every byte is really computed)"}));
  EXPECT_EQ(
      issues_with(std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json",
                  {"workload.apps.0.blocks_distribution={\"kind\":\"uniform\",\"max\":100000000}",
                   "workload.apps.0.blocks=null"}),
      (std::vector<std::string>{"/workload/apps/0: a request of 100000000 blocks of 16 bytes is 1600000000 "
                                "bytes of data; at most 268435456 (every byte is really computed)"}));
  EXPECT_TRUE(issues_with(reference, {"workload.apps.0.blocks_list=[65536]"}).empty());
}

// Ranges whose end would wrap past 2^64 are refused where they are given, not compared as if they ended low.
TEST(ScenarioAddresses, RangesThatEndPastTheAddressSpaceAreRefused) {
  const std::string smoke = std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json";
  const std::string hsm = std::string(rsoc_test::kSourceDir) + "/scenarios/hsm_rsa2048.json";
  EXPECT_EQ(
      issues_with(smoke, {"platform.memories.0.base=\"0xFFFFFFFFFFFF0000\""}),
      (std::vector<std::string>{
          "/platform/memories/0/base: \"ddr\" at 0xffffffffffff0000 (67108864 bytes) ends past the last "
          "address of the 64-bit address space",
          "/platform/cores/0/bitstream/address: bitstream [0x1000000, 0x107d000) lies outside memory \"ddr\" "
          "[0xffffffffffff0000, beyond 2^64)"}));
  EXPECT_EQ(
      issues_with(hsm, {"workload.hsm.keystore_address=\"0xFFFFFFFFFFFFFFF0\""}),
      (std::vector<std::string>{"/workload/hsm/keystore_address: the wrapped key [0xfffffffffffffff0, beyond "
                                "2^64) lies outside memory \"sram\""}));
  EXPECT_EQ(
      issues_with(smoke, {"platform.cores.0.bitstream.address=\"0xFFFFFFFFFFFFFF00\""}),
      (std::vector<std::string>{"/platform/cores/0/bitstream/address: bitstream [0xffffffffffffff00, beyond "
                                "2^64) lies outside memory \"ddr\" [0x0, 0x4000000)"}));
  EXPECT_EQ(
      issues_with(hsm, {"platform.buses.1.window.base=\"0xFFFFFFFFFFFFF000\""}).front(),
      "/platform/buses/1/window/base: \"fmc\" at 0xfffffffffffff000 (67108864 bytes) ends past the last "
      "address of the 64-bit address space");
}

// A file with thousands of problems is reported in bounded memory and time: the first 100 problems and the
// count of the others; a list longer than its maximum is refused without checking each item.
TEST(ScenarioLimits, TheFirstHundredProblemsAreReportedAndTheOthersCounted) {
  const std::string smoke = std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json";
  std::string zeros = "[0";
  for (int i = 1; i < 1000; ++i) zeros += ",0";
  rsoc::platform::LoadOptions opt;
  opt.overrides = {"workload.apps.0.blocks=null", "workload.apps.0.blocks_list=" + zeros + "]"};
  std::vector<rsoc::platform::ScenarioIssue> issues;
  try {
    rsoc::platform::load_scenario_file(smoke, opt);
  } catch (const ScenarioError& e) {
    issues = e.issues();
  }
  ASSERT_EQ(issues.size(), 101u);
  EXPECT_EQ(issues[99].pointer, "/workload/apps/0/blocks_list/99");
  EXPECT_EQ(issues[100].message, "and 900 more problems (the first 100 are shown)");
  std::string ones = "[1";
  for (int i = 0; i < 1000000; ++i) ones += ",1";
  EXPECT_EQ(
      issues_with(smoke, {"workload.apps.0.blocks=null", "workload.apps.0.blocks_list=" + ones + "]"}),
      std::vector<std::string>{"/workload/apps/0/blocks_list: expected at most 1000000 items, got 1000001"});
}

TEST(ScenarioOverrides, AnOverrideThatIsNotUtf8IsRefusedAndShownWithEscapes) {
  rsoc::platform::LoadOptions opt;
  opt.overrides = {"description=\xff"};
  const auto got = issues_loading(std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json", opt,
                                  [](const rsoc::platform::ScenarioIssue& i) { return i.to_string(); });
  EXPECT_EQ(got, std::vector<std::string>{
                     "--set description=\\xff: malformed override: not UTF-8 text (byte 0xff at offset 12)"});
}
