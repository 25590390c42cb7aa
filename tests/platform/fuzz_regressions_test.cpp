// The inputs of tests/fuzz_regressions (problems the fuzzers of tools/fuzz found, fixed): every one loads, or
// is refused with a ScenarioError that names its problems, as the fuzzers require of any input; and what each
// fix changed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "platform/scenario.h"
#include "platform/sensitivity.h"
#include "platform/sweep.h"
#include "runtime/functionality.h"
#include "tests/test_paths.h"

namespace fs = std::filesystem;
using namespace rsoc;

namespace {

const fs::path kRegressions = fs::path(rsoc_test::kSourceDir) / "tests" / "fuzz_regressions";

std::vector<fs::path> inputs(const std::string& folder, const std::string& extension) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(kRegressions / folder))
    if (entry.path().extension() == extension) out.push_back(entry.path());
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Loads `text` as the fuzzers do: it loads, or every problem is a ScenarioIssue. Returns whether it loaded.
bool loads(const std::string& text, const std::string& name, const platform::LoadOptions& options = {}) {
  try {
    platform::load_scenario_text(text, name, options);
    return true;
  } catch (const platform::ScenarioError& e) {
    EXPECT_FALSE(e.issues().empty()) << name;
    return false;
  }
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST(FuzzRegressions, EveryScenarioLoadsOrIsRefusedWithItsProblems) {
  const auto files = inputs("scenario", ".json");
  EXPECT_FALSE(files.empty());
  for (const auto& file : files) (void)loads(slurp(file), file.filename().string());
}

// Each line as --param and --vary (parsed, then checked against the reference scenario), all of them as
// --set.
TEST(FuzzRegressions, EveryOverrideIsAppliedOrRefusedWithItsProblems) {
  for (const auto& file : inputs("override", ".txt")) {
    const auto lines = lines_of(slurp(file));
    platform::SweepSpec spec;
    spec.scenario_name = "os_aes_des.json";
    spec.scenario_text = std::string(platform::default_scenario_text());
    for (const auto& line : lines) {
      try {
        platform::SweepSpec grid = spec;
        grid.parameters.push_back(platform::parse_parameter(line));
        platform::validate_parameters(grid);
      } catch (const platform::SweepError&) {
      } catch (const platform::ScenarioError& e) {
        EXPECT_FALSE(e.issues().empty()) << file << ": " << line;
      }
      try {
        platform::validate_assumptions(spec, {platform::parse_assumption(line)});
      } catch (const platform::SweepError&) {
      } catch (const platform::ScenarioError& e) {
        EXPECT_FALSE(e.issues().empty()) << file << ": " << line;
      }
    }
    platform::LoadOptions options;
    options.overrides = lines;
    (void)loads(spec.scenario_text, file.filename().string(), options);
  }
}

// Loading drew every RSA key (a search for primes: a 13 kB scenario of 100 RSA applications took 79 s to
// validate). The loader keeps the seed the key is drawn from when the simulation is built.
TEST(FuzzRegressions, RsaKeysAreDrawnWhenTheSimulationIsBuiltNotWhenTheScenarioLoads) {
  const auto scenario =
      platform::load_scenario_file((kRegressions / "scenario/rsa_keys_drawn_at_load.json").string());
  const auto& apps = scenario.params.apps;
  ASSERT_EQ(apps.size(), 30u);  // sign0..14, verify0..14
  std::set<std::uint64_t> seeds;
  for (const auto& app : apps) {
    ASSERT_TRUE(app.key_seed) << app.name;
    EXPECT_TRUE(app.key.empty()) << app.name;
    seeds.insert(*app.key_seed);
  }
  EXPECT_EQ(seeds.size(), 2u);  // the copies of an entry share its key
  // The seed as the loader drew the key from: the scenario seed and the entry's index.
  EXPECT_EQ(*apps.front().key_seed, 2008u * 0x9E3779B97F4A7C15ull + 0);
  EXPECT_EQ(*apps.back().key_seed, 2008u * 0x9E3779B97F4A7C15ull + 1);
  const auto verify_key = platform::key_of(apps.back());
  EXPECT_EQ(verify_key, runtime::draw_key(runtime::Functionality::kRsaVerify4096, *apps.back().key_seed));
  EXPECT_EQ(runtime::key_problem(runtime::Functionality::kRsaVerify4096, verify_key), "");
}

// A key given in the scenario is kept as it is, and none is drawn.
TEST(FuzzRegressions, AGivenKeyIsKeptAndNoneIsDrawn) {
  platform::LoadOptions options;
  options.overrides = {"workload.apps.0.key_hex=\"000102030405060708090a0b0c0d0e0f\""};
  const auto scenario =
      platform::load_scenario_file(std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json", options);
  const auto& app = scenario.params.apps.at(0);
  EXPECT_FALSE(app.key_seed);
  const std::vector<std::uint8_t> expected{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  EXPECT_EQ(app.key, expected);
  EXPECT_EQ(platform::key_of(app), expected);
}

// A clock so slow that its period is no time the simulation holds (SystemC turned 1e-300 MHz into 2^63 ps,
// and the run failed with exit 1) is refused where it is given: clocks from 1 kHz, UARTs from 1 baud.
TEST(FuzzRegressions, ClocksTooSlowForTheirPeriodAreRefused) {
  const std::string smoke = std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json";
  for (const std::string path : {"platform.cpus.0", "platform.buses.0", "platform.memories.0",
                                 "platform.config_port", "platform.slots.0", "platform.cores.0"}) {
    platform::LoadOptions options;
    options.overrides = {path + ".clock_mhz=1e-300"};
    try {
      platform::load_scenario_file(smoke, options);
      ADD_FAILURE() << path << " loaded";
    } catch (const platform::ScenarioError& e) {
      ASSERT_EQ(e.issues().size(), 1u) << e.what();
      EXPECT_NE(e.issues()[0].message.find("1e-300 is out of range; expected a number (MHz) >= 0.001 and <= "
                                           "100000"),
                std::string::npos)
          << e.what();
    }
    options.overrides = {path + ".clock_mhz=0.001"};  // 1 kHz: a period of 1 ms
    const auto slowest = platform::load_scenario_file(smoke, options);
    EXPECT_EQ(slowest.params.cpus.at(0).params.clock_period == sc_core::sc_time(1, sc_core::SC_MS),
              path == "platform.cpus.0");
  }
  const std::string hsm = std::string(rsoc_test::kSourceDir) + "/scenarios/hsm_rsa2048.json";
  platform::LoadOptions options;
  options.overrides = {"platform.uarts.0.baud=1e-300"};
  try {
    platform::load_scenario_file(hsm, options);
    ADD_FAILURE() << "a UART of 1e-300 baud loaded";
  } catch (const platform::ScenarioError& e) {
    ASSERT_EQ(e.issues().size(), 1u) << e.what();
    EXPECT_EQ(e.issues()[0].pointer, "/platform/uarts/0/baud");
  }
  options.overrides = {"platform.uarts.0.baud=1"};
  EXPECT_EQ(platform::load_scenario_file(hsm, options).params.uarts.at(0).params.baud, 1.0);
}

// A --set, --param or --vary value that is neither JSON nor UTF-8 text became a string no JSON output can
// hold: every command failed with exit 1 on a JSON library error. It is refused where it is given, the flag
// quoted with \xHH for each byte that is not UTF-8.
TEST(FuzzRegressions, AValueThatIsNotUtf8IsRefusedWhereItIsGiven) {
  const std::string smoke = std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json";
  const std::tuple<std::string, std::string, std::string> cases[] = {
      {"\xff\xfe", "\\xff\\xfe", "byte 0xff at offset 12"},
      {"\"caf\xe9\"", "\"caf\\xe9\"", "byte 0xe9 at offset 16"},
      {"ok\xc3", "ok\\xc3", "byte 0xc3 at offset 14"},
  };
  for (const auto& [value, printed, where] : cases) {
    platform::LoadOptions options;
    options.overrides = {"description=" + value};
    try {
      platform::load_scenario_file(smoke, options);
      ADD_FAILURE() << printed << " loaded";
    } catch (const platform::ScenarioError& e) {
      ASSERT_EQ(e.issues().size(), 1u) << e.what();
      EXPECT_EQ(e.issues()[0].file, "--set description=" + printed);
      EXPECT_EQ(e.issues()[0].message, "malformed override: not UTF-8 text (" + where + ")");
    }
  }
  platform::LoadOptions options;
  options.overrides = {"description=caf\xc3\xa9 \xe2\x82\xac"};  // UTF-8 text is taken as it is
  EXPECT_EQ(platform::load_scenario_file(smoke, options).resolved["description"], "caf\xc3\xa9 \xe2\x82\xac");

  platform::SweepSpec spec;
  spec.scenario_name = "smoke_aes.json";
  spec.scenario_text = slurp(smoke);
  spec.parameters.push_back(platform::parse_parameter("description=a,\xff"));
  try {
    platform::validate_parameters(spec);
    ADD_FAILURE() << "--param with a value that is not UTF-8 passed";
  } catch (const platform::ScenarioError& e) {
    ASSERT_EQ(e.issues().size(), 1u) << e.what();
    EXPECT_EQ(e.issues()[0].file, "--param description=\\xff");
  }
}
