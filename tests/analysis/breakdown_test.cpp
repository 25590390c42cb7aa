// breakdown.csv, the latency totals and the line `rsoc run` ends with (plain C++: no simulation).
#include "analysis/breakdown.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace rsoc;
using runtime::TimeUse;

namespace {

analysis::StatGroup group(const std::string& resource, const std::string& kind, const std::string& stat,
                          double value) {
  analysis::StatGroup g{resource, kind, {}};
  g.add("busy_ms", 1.0, "ms", "").add(stat, value, "ratio", "");
  return g;
}

double stat(const analysis::StatGroup& g, const std::string& name) {
  for (const auto& s : g.stats)
    if (s.name == name) return s.value;
  ADD_FAILURE() << name;
  return 0;
}

}  // namespace

TEST(AnalysisBreakdown, ExactMillisecondsFromPicoseconds) {
  EXPECT_EQ(analysis::exact_ms(0), "0.000000000");
  EXPECT_EQ(analysis::exact_ms(1), "0.000000001");
  EXPECT_EQ(analysis::exact_ms(153600100000), "153.600100000");
  // Beyond double precision (2^53 ps is about 2.5 simulated hours): still every digit.
  EXPECT_EQ(analysis::exact_ms(18446744073709551615ull), "18446744073.709551615");
}

TEST(AnalysisBreakdown, BusiestResourceSkipsSchedulersAndKeepsTheFirstOfEquals) {
  EXPECT_FALSE(analysis::busiest_resource({}).has_value());
  const std::vector<analysis::StatGroup> groups{
      group("cpu.thread0", "cpu_thread", "utilization", 0.5),
      group("scheduler.cpu.thread0", "scheduler", "utilization",
            0.9),  // the CPU thread again, as the OS sees it
      group("bus.plb", "bus", "utilization", 0.7),
      group("slot.slot0", "slot", "core_utilization", 0.7),  // a tie: the bus came first
      group("process.app", "process", "cpu_share", 0.95),    // not a utilization
  };
  const auto busiest = analysis::busiest_resource(groups);
  ASSERT_TRUE(busiest.has_value());
  EXPECT_EQ(busiest->resource, "bus.plb");
  EXPECT_DOUBLE_EQ(busiest->utilization, 0.7);
  const auto core = analysis::busiest_resource({group("slot.slot1", "slot", "core_utilization", 0.25)});
  ASSERT_TRUE(core.has_value());
  EXPECT_EQ(core->resource, "slot.slot1");
}

TEST(AnalysisBreakdown, WhereTimeWentNamesTheBusiestResourceAndTheLargestPart) {
  runtime::LatencyBreakdown totals;
  EXPECT_EQ(analysis::where_time_went({}, totals),
            "busiest resource: none (no resource reports a utilization); largest share of latency: none (no "
            "request time)");
  totals[TimeUse::kCpuCompute] = 200;
  totals[TimeUse::kReconfig] = 612;
  totals[TimeUse::kCoreCompute] = 188;
  EXPECT_EQ(
      analysis::where_time_went({group("cpu.thread0", "cpu_thread", "utilization", 0.8734)}, totals),
      "busiest resource: cpu.thread0 (87.3 % busy); largest share of latency: reconfiguration (61.2 % of "
      "all request time)");
  totals[TimeUse::kCpuCompute] = 612;  // equal parts: the first column wins
  EXPECT_NE(analysis::where_time_went({}, totals).find("largest share of latency: CPU compute"),
            std::string::npos);
}

TEST(AnalysisBreakdown, RowsAreExactAndCarryProvenanceTotalsFeedTheStats) {
  const auto dir = std::filesystem::temp_directory_path() / ("rsoc_breakdown_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  analysis::BreakdownLog log(analysis::Provenance{"9.9", "abc", 7});
  log.open_csv((dir / "breakdown.csv").string());
  runtime::RequestRecord r;
  r.id = 3;
  r.app = "app";
  r.functionality = "aes128";
  r.blocks = 40;
  r.bytes = 40 * 4096;
  r.decision = "hardware";
  r.issue_ps = 1000;
  r.end_ps = 1000 + 300000000001;
  r.breakdown[TimeUse::kCpuCompute] = 1;
  r.breakdown[TimeUse::kCpuWait] = 150000000000;
  r.breakdown[TimeUse::kReconfig] = 150000000000;
  log.add(r);
  r.id = 4;
  r.end_ps = r.issue_ps + 2;
  r.breakdown = {};
  r.breakdown[TimeUse::kCpuIo] = 2;
  r.reconfig_hidden_ps = 153600100000;  // a prefetch hid it: beside the parts, not one of them
  log.add(r);
  log.close_csv();
  std::ifstream in(dir / "breakdown.csv");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "id,app,functionality,blocks,bytes,decision,latency_ms,cpu_compute_ms,cpu_io_ms,cpu_wait_ms,"
            "bus_transfer_ms,slot_wait_ms,reconfig_ms,core_compute_ms,host_ms,recovery_ms,reconfig_hidden_ms,"
            "rsoc_version,scenario_sha256,seed\n"
            "3,app,aes128,40,163840,hardware,300.000000001,0.000000001,0.000000000,150.000000000,0.000000000,"
            "0.000000000,150.000000000,0.000000000,0.000000000,0.000000000,0.000000000,9.9,abc,7\n"
            "4,app,aes128,40,163840,hardware,0.000000002,0.000000000,0.000000002,0.000000000,0.000000000,"
            "0.000000000,0.000000000,0.000000000,0.000000000,0.000000000,153.600100000,9.9,abc,7\n");
  std::filesystem::remove_all(dir);
  EXPECT_EQ(log.latency_total_ps(), 300000000003u);
  EXPECT_EQ(log.totals().total(), 300000000003u);
  const analysis::StatGroup g = log.stats();
  EXPECT_EQ(g.resource, "latency");
  EXPECT_DOUBLE_EQ(stat(g, "requests_ms"), 300.000000003);
  EXPECT_DOUBLE_EQ(stat(g, "reconfig_ms"), 150.0);
  EXPECT_DOUBLE_EQ(stat(g, "reconfig_share"), 150000000000.0 / 300000000003.0);
  EXPECT_DOUBLE_EQ(stat(g, "cpu_io_share"), 2.0 / 300000000003.0);
}

TEST(AnalysisBreakdown, WithSeveralCpusTheLineGivesEachCpusUtilization) {
  runtime::LatencyBreakdown totals;
  totals[TimeUse::kCpuCompute] = 1;
  const std::vector<analysis::StatGroup> one{group("a.thread0", "cpu_thread", "utilization", 0.5),
                                             group("a", "cpu", "utilization", 0.5)};
  EXPECT_EQ(
      analysis::where_time_went(one, totals),
      "busiest resource: a.thread0 (50.0 % busy); largest share of latency: CPU compute (100.0 % of all "
      "request time)");
  std::vector<analysis::StatGroup> two = one;
  two.push_back(group("b.thread0", "cpu_thread", "utilization", 0.99));
  two.push_back(group("b", "cpu", "utilization", 0.99));
  EXPECT_EQ(
      analysis::where_time_went(two, totals),
      "busiest resource: b.thread0 (99.0 % busy; CPUs a 50.0 %, b 99.0 %); largest share of latency: CPU "
      "compute (100.0 % of all request time)");
}

TEST(AnalysisBreakdown, TheTimeRequestsHeldEachCpuIsSummedOverItsThreads) {
  analysis::BreakdownLog log(analysis::Provenance{"9.9", "abc", 7});
  runtime::RequestRecord r;
  r.issue_ps = 0;
  r.end_ps = 1000;
  r.breakdown[TimeUse::kCpuCompute] = 1000;
  r.held_ps = {100, 200, 300};  // a's two threads, then b's
  log.add(r);
  r.held_ps = {0, 0, 400};
  log.add(r);
  const auto groups = log.cpu_stats({{"a", 2}, {"b", 1}});
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].resource, "latency.a");
  EXPECT_DOUBLE_EQ(stat(groups[0], "held_ms"), 300e-9);
  EXPECT_DOUBLE_EQ(stat(groups[0], "held_share"), 300.0 / 2000);
  EXPECT_EQ(groups[1].resource, "latency.b");
  EXPECT_DOUBLE_EQ(stat(groups[1], "held_ms"), 700e-9);
  EXPECT_DOUBLE_EQ(stat(groups[1], "held_share"), 700.0 / 2000);
}
