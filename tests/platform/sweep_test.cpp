// Sweep grids: parameter parsing (lists with JSON values, ranges), point numbering, sweep.csv's columns.
#include "platform/sweep.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using rsoc::platform::parse_parameter;
using rsoc::platform::SweepError;

TEST(SweepGrid, ListsSplitAtTopLevelCommasOnly) {
  const auto p = parse_parameter("platform.slots.0.count=1,2,4");
  EXPECT_EQ(p.path, "platform.slots.0.count");
  EXPECT_EQ(p.values, (std::vector<std::string>{"1", "2", "4"}));
  const auto json = parse_parameter(R"(workload.apps.0.blocks_list=[1,2],[3],"a,b",lru)");
  EXPECT_EQ(json.values, (std::vector<std::string>{"[1,2]", "[3]", "\"a,b\"", "lru"}));
  EXPECT_EQ(parse_parameter("/runtime/policy=software").path, "/runtime/policy");
}

TEST(SweepGrid, RangesIncludeTheirEndWithoutFloatNoise) {
  EXPECT_EQ(parse_parameter("x=25:200:35").values,
            (std::vector<std::string>{"25", "60", "95", "130", "165", "200"}));
  EXPECT_EQ(parse_parameter("x=0.1:0.3:0.1").values, (std::vector<std::string>{"0.1", "0.2", "0.3"}));
  EXPECT_EQ(parse_parameter("x=1:1:5").values, (std::vector<std::string>{"1"}));
  EXPECT_EQ(parse_parameter("x=a:b:c").values, (std::vector<std::string>{"a:b:c"}));  // not numbers: a value
  EXPECT_THROW(parse_parameter("x=5:1:1"), SweepError);
  EXPECT_THROW(parse_parameter("x=1:5:0"), SweepError);
  EXPECT_THROW(parse_parameter("x="), SweepError);
  EXPECT_THROW(parse_parameter("=1,2"), SweepError);
  EXPECT_THROW(parse_parameter("x=1,,2"), SweepError);
}

TEST(SweepGrid, PointsAreRowMajorWithTheFirstParameterSlowest) {
  rsoc::platform::SweepSpec spec;
  spec.parameters = {parse_parameter("a=1,2"), parse_parameter("b=x,y,z")};
  ASSERT_EQ(rsoc::platform::point_count(spec), 6u);
  EXPECT_EQ(rsoc::platform::point_values(spec, 0), (std::vector<std::string>{"1", "x"}));
  EXPECT_EQ(rsoc::platform::point_values(spec, 2), (std::vector<std::string>{"1", "z"}));
  EXPECT_EQ(rsoc::platform::point_values(spec, 4), (std::vector<std::string>{"2", "y"}));
  EXPECT_EQ(rsoc::platform::point_name(spec, 4), "0004");
}

TEST(SweepTable, UnionOfMetricsInFirstAppearanceOrderAndEmptyCellsWhereMissing) {
  const auto path =
      std::filesystem::temp_directory_path() / ("rsoc_sweep_table_" + std::to_string(::getpid()));
  std::vector<rsoc::analysis::SweepPoint> points(3);
  points[0] = {0, "ok", "", {"1"}, {{"requests", 4}, {"aes.latency_ms", 1.5}}, "v", "h0", "1"};
  points[1] = {1, "failed", "bad, value", {"2"}, {}, "v", "", ""};
  points[2] = {2, "ok", "", {"3"}, {{"requests", 4}, {"des.latency_ms", 0.25}}, "v", "h2", "1"};
  rsoc::analysis::write_sweep_csv(path.string(), {"p"}, points);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "point,status,error,p,requests,aes.latency_ms,des.latency_ms,rsoc_version,scenario_sha256,seed\n"
            "0,ok,,1,4,1.500000,,v,h0,1\n"
            "1,failed,\"bad, value\",2,,,,v,,\n"
            "2,ok,,3,4,,0.250000,v,h2,1\n");
  std::filesystem::remove(path);
}
