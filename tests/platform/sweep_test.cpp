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

TEST(SweepTable, EachColumnHasOneFormat) {
  // A column of whole numbers stays whole; one with a fraction anywhere gives every value six decimals (a
  // mean that came out whole is not written as an integer among decimals).
  const auto path =
      std::filesystem::temp_directory_path() / ("rsoc_sweep_formats_" + std::to_string(::getpid()));
  std::vector<rsoc::analysis::SweepPoint> points(2);
  points[0] = {0, "ok", "", {"1"}, {{"requests", 10}, {"latency_ms", 10}}, "v", "h", "1"};
  points[1] = {1, "ok", "", {"2"}, {{"requests", 26}, {"latency_ms", 25.9999999999}}, "v", "h", "1"};
  rsoc::analysis::write_sweep_csv(path.string(), {"p"}, points);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "point,status,error,p,requests,latency_ms,rsoc_version,scenario_sha256,seed\n"
            "0,ok,,1,10,10.000000,v,h,1\n"
            "1,ok,,2,26,26.000000,v,h,1\n");
  std::filesystem::remove(path);
}

TEST(SweepList, SplitsOutsideJsonAtAnySeparator) {
  EXPECT_EQ(rsoc::platform::split_outside_json(R"(["a:b","c"]:{"k":1}:x)", ':'),
            (std::vector<std::string>{R"(["a:b","c"])", R"({"k":1})", "x"}));
  EXPECT_EQ(rsoc::platform::split_outside_json("a=1:2,b=[3,4]:5", ','),
            (std::vector<std::string>{"a=1:2", "b=[3,4]:5"}));
  EXPECT_EQ(rsoc::platform::split_outside_json("", ':'), (std::vector<std::string>{""}));
}

TEST(SweepList, ExplicitPointsNameEveryPathAnyPointSets) {
  rsoc::platform::SweepSpec spec;
  spec.points = {{}, {{"a", "1"}}, {{"b", "[1,2]"}, {"a", "3"}}};
  ASSERT_EQ(rsoc::platform::point_count(spec), 3u);
  EXPECT_EQ(rsoc::platform::parameter_paths(spec), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(rsoc::platform::point_values(spec, 0), (std::vector<std::string>{"", ""}));
  EXPECT_EQ(rsoc::platform::point_values(spec, 1), (std::vector<std::string>{"1", ""}));
  EXPECT_EQ(rsoc::platform::point_values(spec, 2), (std::vector<std::string>{"3", "[1,2]"}));
  EXPECT_TRUE(rsoc::platform::point_overrides(spec, 0).empty());
  // In the point's own order: the last assignment to a path wins, as with --set.
  EXPECT_EQ(rsoc::platform::point_overrides(spec, 2), (std::vector<std::string>{"b=[1,2]", "a=3"}));
  // A grid gives its parameters' values as overrides.
  rsoc::platform::SweepSpec grid;
  grid.parameters = {parse_parameter("a=1,2"), parse_parameter("b=x,y")};
  EXPECT_EQ(rsoc::platform::point_overrides(grid, 3), (std::vector<std::string>{"a=2", "b=y"}));
}

namespace {
std::filesystem::path scratch_dir(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rsoc_sweep_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}
}  // namespace

TEST(SweepList, DescriptionRoundTripsAndResumesOnlyTheSamePoints) {
  const auto dir = scratch_dir("list");
  rsoc::platform::SweepSpec spec;
  spec.scenario_name = "s.json";
  spec.scenario_text = "{}";
  spec.points = {{}, {{"a", "1"}}, {{"a", "2"}}};
  spec.sensitivity = rsoc::platform::SensitivitySpec{{"requests"}};
  rsoc::platform::prepare_sweep(spec, dir, false);
  const auto loaded = rsoc::platform::load_sweep(dir);
  EXPECT_EQ(loaded.points, spec.points);
  ASSERT_TRUE(loaded.sensitivity);
  EXPECT_EQ(loaded.sensitivity->metrics, (std::vector<std::string>{"requests"}));
  // Resuming with other metrics keeps the points (and records the new metrics); other points are another
  // sweep. A table of the earlier run is gone until it is written again.
  std::ofstream(dir / "sensitivity.csv") << "old";
  spec.sensitivity->metrics = {"failed"};
  rsoc::platform::prepare_sweep(spec, dir, true);
  EXPECT_EQ(rsoc::platform::load_sweep(dir).sensitivity->metrics, (std::vector<std::string>{"failed"}));
  EXPECT_FALSE(std::filesystem::exists(dir / "sensitivity.csv"));
  spec.points.back() = {{"a", "5"}};
  EXPECT_THROW(rsoc::platform::prepare_sweep(spec, dir, true), SweepError);
  // A grid and a list at once is not a sweep.
  spec.parameters = {parse_parameter("b=1,2")};
  EXPECT_THROW(rsoc::platform::prepare_sweep(spec, dir, false), SweepError);
  std::filesystem::remove_all(dir);
}

TEST(SweepList, GridDescriptionHasNoListKeys) {
  // A grid sweep's sweep.json stays as before the lists, so earlier sweeps can be resumed.
  const auto dir = scratch_dir("grid");
  rsoc::platform::SweepSpec spec;
  spec.scenario_name = "s.json";
  spec.scenario_text = "{}";
  spec.parameters = {parse_parameter("a=1,2")};
  rsoc::platform::prepare_sweep(spec, dir, false);
  std::ifstream in(dir / "sweep.json");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str().find("\"points\""), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("\"sensitivity\""), std::string::npos) << text.str();
  std::filesystem::remove_all(dir);
}
