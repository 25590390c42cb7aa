// Sensitivity assumptions: parsing --vary, the points of a study, and the checks made before anything runs.
#include "platform/sensitivity.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "platform/scenario_error.h"
#include "tests/test_paths.h"

using rsoc::platform::Assignment;
using rsoc::platform::parse_assumption;
using rsoc::platform::SweepError;

namespace {
// The message parse_assumption throws for `text`.
std::string parse_error(const std::string& text) {
  try {
    parse_assumption(text);
  } catch (const SweepError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST(SensitivityVary, SplitsAtTheColonAndCommasOutsideJson) {
  const auto one = parse_assumption("platform.cpus.0.clock_mhz=50:200");
  EXPECT_EQ(one.low, (std::vector<Assignment>{{"platform.cpus.0.clock_mhz", "50"}}));
  EXPECT_EQ(one.high, (std::vector<Assignment>{{"platform.cpus.0.clock_mhz", "200"}}));
  const auto json = parse_assumption(R"(workload.hsm.modexp_slots=["a","b:c"]:["a"])");
  EXPECT_EQ(json.low, (std::vector<Assignment>{{"workload.hsm.modexp_slots", R"(["a","b:c"])"}}));
  EXPECT_EQ(json.high, (std::vector<Assignment>{{"workload.hsm.modexp_slots", R"(["a"])"}}));
  const auto two = parse_assumption("/runtime/replacement=lru:lfu,x.y=[1,2]:{\"k\":3}");
  EXPECT_EQ(two.low, (std::vector<Assignment>{{"/runtime/replacement", "lru"}, {"x.y", "[1,2]"}}));
  EXPECT_EQ(two.high, (std::vector<Assignment>{{"/runtime/replacement", "lfu"}, {"x.y", "{\"k\":3}"}}));
}

TEST(SensitivityVary, MalformedAssumptionsSayWhatIsWrong) {
  EXPECT_EQ(parse_error("clock"),
            "--vary clock: expected path=LOW:HIGH (several inputs moved together: path=LOW:HIGH,...)");
  EXPECT_EQ(parse_error("=1:2"),
            "--vary =1:2: expected path=LOW:HIGH (several inputs moved together: path=LOW:HIGH,...)");
  EXPECT_EQ(parse_error("clock=50"),
            "--vary clock=50: expected LOW:HIGH after \"clock=\", with one ':' outside JSON brackets and "
            "strings; found none");
  EXPECT_EQ(parse_error("clock=1:2:3"),
            "--vary clock=1:2:3: expected LOW:HIGH after \"clock=\", with one ':' outside JSON brackets and "
            "strings; found 2");
  EXPECT_EQ(parse_error("clock=:2"), "--vary clock=:2: empty LOW");
  EXPECT_EQ(parse_error("clock=1:"), "--vary clock=1:: empty HIGH");
  // Equal as values, whatever their spelling.
  EXPECT_EQ(parse_error("clock=100:100.0"),
            "--vary clock=100:100.0: LOW and HIGH are the same value (100); an assumption moves its input (a "
            "fixed value goes in --set)");
  EXPECT_EQ(parse_error("r=lru:\"lru\""),
            "--vary r=lru:\"lru\": LOW and HIGH are the same value (lru); an assumption moves its input (a "
            "fixed value goes in --set)");
  // In a compound assumption, the part at fault is named.
  EXPECT_EQ(
      parse_error("a=1:2,b=3"),
      "--vary a=1:2,b=3: \"b=3\": expected LOW:HIGH after \"b=\", with one ':' outside JSON brackets and "
      "strings; found none");
  EXPECT_EQ(parse_error("a=1:2,a=3:4"), "--vary a=1:2,a=3:4: \"a=3:4\": a is given twice");
  EXPECT_EQ(parse_error("a=1:2,"),
            "--vary a=1:2,: \"\": expected path=LOW:HIGH (several inputs moved together: path=LOW:HIGH,...)");
}

TEST(SensitivityVary, PointsAreTheBaseThenLowAndHighOfEachAssumption) {
  const auto points =
      rsoc::platform::sensitivity_points({parse_assumption("a=1:2"), parse_assumption("b=x:y,c=3:4")});
  ASSERT_EQ(points.size(), 5u);
  EXPECT_TRUE(points[0].empty());
  EXPECT_EQ(points[1], (std::vector<Assignment>{{"a", "1"}}));
  EXPECT_EQ(points[2], (std::vector<Assignment>{{"a", "2"}}));
  EXPECT_EQ(points[3], (std::vector<Assignment>{{"b", "x"}, {"c", "3"}}));
  EXPECT_EQ(points[4], (std::vector<Assignment>{{"b", "y"}, {"c", "4"}}));
}

TEST(SensitivityVary, EveryEndIsLoadedBeforeAnythingRuns) {
  rsoc::platform::SweepSpec spec;
  spec.scenario_name = "smoke_aes.json";
  {
    std::ifstream in(std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json");
    std::stringstream text;
    text << in.rdbuf();
    spec.scenario_text = text.str();
  }
  EXPECT_NO_THROW(rsoc::platform::validate_assumptions(
      spec, {parse_assumption("platform.cpus.0.clock_mhz=50:200,runtime.driver.cycles_per_block=1:400")}));
  try {
    rsoc::platform::validate_assumptions(spec, {parse_assumption("platform.cpus.0.clok_mhz=50:200"),
                                                parse_assumption("platform.cpus.0.clock_mhz=0:200"),
                                                parse_assumption("runtime.policy=software:fastest")});
    FAIL() << "no error";
  } catch (const rsoc::platform::ScenarioError& e) {
    // A problem at both ends is reported once; one at a single end names it.
    EXPECT_EQ(
        std::string(e.what()),
        "--vary platform.cpus.0.clok_mhz=50:200: smoke_aes.json: /platform/cpus/0/clok_mhz: unknown key "
        "\"clok_mhz\"; did you mean \"clock_mhz\"?\n"
        "--vary platform.cpus.0.clock_mhz=0:200, low end: smoke_aes.json: /platform/cpus/0/clock_mhz: 0 "
        "is out of range; expected a number (MHz) >= 0.001 and <= 100000\n"
        "--vary runtime.policy=software:fastest, high end: smoke_aes.json: /runtime/policy: \"fastest\" "
        "is not one of \"software\", \"hardware\", \"threshold\", \"cost_model\", \"adaptive\", \"energy\", "
        "\"energy_delay\"");
  }
}

TEST(SensitivityMetrics, AnUnknownMetricNamesTheNearestKnownOnes) {
  rsoc::platform::SweepSpec spec;
  spec.sensitivity =
      rsoc::platform::SensitivitySpec{{"requests_per_s", "aes128.hardware.latency_ms", "reqs"}};
  rsoc::analysis::SweepPoint base;
  base.metrics = {{"requests", 4},
                  {"failed", 0},
                  {"simulated_ms", 9},
                  {"requests_per_s", 444},
                  {"aes128.hardware.latency_mean_ms", 1},
                  {"aes128.hardware.latency_p50_ms", 1},
                  {"aes128.hardware.throughput_kBps", 1}};
  try {
    rsoc::platform::check_metrics(spec, base);
    FAIL() << "no error";
  } catch (const SweepError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--metric aes128.hardware.latency_ms: not a metric of the base point; nearest: "
              "aes128.hardware.latency_p50_ms, aes128.hardware.latency_mean_ms, "
              "aes128.hardware.throughput_kBps\n"
              "--metric reqs: not a metric of the base point; nearest: requests, failed, simulated_ms");
  }
  spec.sensitivity->metrics = {"requests_per_s", "aes128.hardware.latency_p50_ms"};
  EXPECT_NO_THROW(rsoc::platform::check_metrics(spec, base));
}
