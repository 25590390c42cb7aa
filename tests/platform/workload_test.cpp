// Workload: block counts (fixed, list, distribution), closed and open (Poisson) arrivals, priorities and
// background load, through the scenario loader and a whole simulation.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;

namespace {

using rsoc::test::kSmoke;

std::vector<runtime::RequestRecord> run_workload(const std::vector<std::string>& overrides,
                                        std::vector<analysis::StatGroup>* stats = nullptr) {
  platform::LoadOptions options;
  options.overrides = overrides;
  const auto scenario = platform::load_scenario_file(kSmoke, options);
  std::vector<runtime::RequestRecord> records;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  if (stats) *stats = sim.stats(sc_core::sc_time_stamp().to_seconds() * 1e3);
  return records;
}

using rsoc::test::stat;

}  // namespace

TEST(Workload, BlockListsCycle) {
  const auto listed = run_workload(
      {"workload.apps.0.blocks=null", "workload.apps.0.blocks_list=[3,1,2]", "workload.apps.0.requests=7"});
  std::vector<std::uint64_t> blocks;
  for (const auto& r : listed) blocks.push_back(r.blocks);
  EXPECT_EQ(blocks, (std::vector<std::uint64_t>{3, 1, 2, 3, 1, 2, 3}));
}

TEST(Workload, DistributionsStayInRange) {
  const auto drawn = run_workload({"workload.apps.0.blocks=null",
                          "workload.apps.0.blocks_distribution={\"kind\":\"uniform\",\"min\":5,\"max\":9}",
                          "workload.apps.0.requests=40"});
  std::set<std::uint64_t> seen;
  for (const auto& r : drawn) {
    EXPECT_GE(r.blocks, 5u);
    EXPECT_LE(r.blocks, 9u);
    seen.insert(r.blocks);
  }
  EXPECT_EQ(seen.size(), 5u);  // 40 draws cover the 5 values
}

TEST(Workload, PoissonArrivalsQueueWhenTheyComeFasterThanService) {
  // Hardware requests of 64 blocks take ~0.19 ms once the core is resident; 20,000 arrivals per second
  // (every 50 us on average) queue up behind each other.
  const auto records = run_workload(
      {"workload.apps.0.arrival=poisson", "workload.apps.0.rate_per_s=20000", "workload.apps.0.requests=30"});
  ASSERT_EQ(records.size(), 30u);
  int queued = 0;
  for (std::size_t i = 1; i < records.size(); ++i) {
    EXPECT_GE(records[i].start_ps, records[i - 1].end_ps);  // served one after the other
    if (records[i].start_ps > records[i].issue_ps) ++queued;
    EXPECT_LT(records[i - 1].issue_ps, records[i].issue_ps);  // arrivals in order
  }
  EXPECT_GT(queued, 20);
}

TEST(Workload, BackgroundLoadGetsTheCpuOnlyWhenTheApplicationSleeps) {
  // A 50 % background process at priority 0 and the application (priority 10) thinking 1 ms between requests.
  std::vector<analysis::StatGroup> stats;
  const auto records = run_workload({"workload.background=[{\"name\":\"load\",\"busy_us\":500,\"idle_us\":500}]",
                            "workload.apps.0.think_us=1000", "workload.apps.0.requests=6"},
                           &stats);
  ASSERT_EQ(records.size(), 6u);
  const double app_ms = stat(stats, "process.encryptor", "cpu_ms");
  const double load_ms = stat(stats, "process.load", "cpu_ms");
  EXPECT_GT(load_ms, 0.5);
  // The application's requests are not slowed by the lower-priority load beyond one 500 us activation.
  for (std::size_t i = 1; i < records.size(); ++i)
    EXPECT_LT(records[i].end_ps - records[i].issue_ps, 200'000'000u + 500'000'000u);
  EXPECT_GT(app_ms, 150);  // the first request copies the bitstream (153.6 ms of CPU)
  EXPECT_GT(stat(stats, "scheduler.cpu.thread0", "context_switches"), 5);
}

TEST(Workload, ADurationStopsTheLoopAndTheRunningRequestCompletes) {
  // Software requests of 64 blocks: 20,000 + 64 * 3,000 cycles = 2.12 ms each at 100 MHz, 100 us apart. In
  // 10 ms the loop issues 5 (at 0, 2.22, 4.44, 6.66 and 8.88 ms); the fifth runs past 10 ms and completes.
  const auto records = run_workload({"runtime.policy=software", "workload.apps.0.requests=1000",
                            "workload.apps.0.duration_ms=10", "workload.apps.0.start_us=50"});
  ASSERT_EQ(records.size(), 5u);
  const std::uint64_t first = records.front().issue_ps;
  EXPECT_EQ(first, 50'000'000u);
  EXPECT_LE(records.back().issue_ps, first + 10'000'000'000u);
  EXPECT_GT(records.back().end_ps, first + 10'000'000'000u);
}

TEST(Workload, AnApplicationAfterAnotherStartsWhenItsCopyEnds) {
  // Two encryptors, then two deciphering processes, copy k after copy k, each 30 us after the end of the one
  // it follows (at a higher priority, so that it gets the one hardware thread as soon as it wants it).
  const auto records =
      run_workload({"runtime.policy=software",
           "workload.apps=[{\"name\":\"enc\",\"functionality\":\"aes128\",\"blocks\":4,\"requests\":3,"
           "\"count\":2},"
           "{\"name\":\"dec\",\"functionality\":\"aes128\",\"blocks\":4,\"requests\":2,\"count\":2,"
           "\"operation\":\"decrypt\",\"after\":\"enc\",\"start_us\":30,\"priority\":20}]"});
  std::map<std::string, std::vector<runtime::RequestRecord>> by_app;
  for (const auto& r : records) by_app[r.app].push_back(r);
  ASSERT_EQ(by_app.size(), 4u);
  for (const char* k : {"0", "1"}) {
    const auto& enc = by_app["enc" + std::string(k)];
    const auto& dec = by_app["dec" + std::string(k)];
    ASSERT_EQ(enc.size(), 3u);
    ASSERT_EQ(dec.size(), 2u);
    EXPECT_EQ(dec.front().issue_ps, enc.back().end_ps + 30'000'000u) << k;
  }
  // dec0 waited for enc0 alone, not for enc1.
  EXPECT_LT(by_app["dec0"].front().issue_ps, by_app["enc1"].back().end_ps);
}

TEST(Workload, AnApplicationAfterAnotherCountsItsStartFromThatEndEvenWhenItComesEarly) {
  // The encryptor ends long before the 5 ms start of the application that follows it: that one starts 5 ms
  // after the encryptor's end, not 5 ms after the simulation's start plus 5 ms more.
  const auto records =
      run_workload({"runtime.policy=software",
           "workload.apps=[{\"name\":\"enc\",\"functionality\":\"aes128\",\"blocks\":1,\"requests\":1},"
           "{\"name\":\"dec\",\"functionality\":\"aes128\",\"blocks\":1,\"requests\":1,"
           "\"operation\":\"decrypt\",\"after\":\"enc\",\"start_us\":5000}]"});
  ASSERT_EQ(records.size(), 2u);
  ASSERT_LT(records[0].end_ps, 5'000'000'000u);
  EXPECT_EQ(records[1].issue_ps, records[0].end_ps + 5'000'000'000u);
}

namespace {
// Two software AES applications (4 requests of 64 blocks, 2.12 ms each) on the smoke platform with `cpus`
// (JSON list) and `more` overrides: when the last request ends, and the run's stats.
sc_core::sc_time two_software_apps(const std::string& cpus, std::vector<std::string> more,
                                   std::vector<analysis::StatGroup>* stats) {
  std::vector<std::string> overrides = {
      "platform.cpus=" + cpus, "runtime.policy=\"software\"",
      "workload.apps=[{\"name\":\"a\",\"functionality\":\"aes128\",\"blocks\":64,\"requests\":4},"
      "{\"name\":\"b\",\"functionality\":\"aes128\",\"blocks\":64,\"requests\":4}]"};
  overrides.insert(overrides.end(), more.begin(), more.end());
  const auto records = run_workload(overrides, stats);
  EXPECT_EQ(records.size(), 8u);
  std::uint64_t end = 0;
  for (const auto& r : records) {
    EXPECT_TRUE(r.ok) << r.error;
    end = std::max(end, r.end_ps);
  }
  return sc_core::sc_time::from_value(end);
}
const std::string kOneCpu = "[{\"name\":\"cpu0\",\"bus\":\"plb\"}]";
const std::string kTwoCpus = "[{\"name\":\"cpu0\",\"bus\":\"plb\"},{\"name\":\"cpu1\",\"bus\":\"plb\"}]";
}  // namespace

TEST(Workload, TwoSoftwareApplicationsOnTwoCpusFinishInTheTimeOfOne) {
  // 4 x (20,000 + 64 x 3,000) cycles at 100 MHz: 8.48 ms of work per application.
  // (On one CPU they take twice that: TwoSoftwareApplicationsOnOneCpuShareIt.)
  std::vector<analysis::StatGroup> two_stats;
  const sc_core::sc_time two = two_software_apps(kTwoCpus, {}, &two_stats);
  EXPECT_EQ(two, sc_core::sc_time(8480, sc_core::SC_US));  // one CPU each
  EXPECT_DOUBLE_EQ(stat(two_stats, "cpu0.thread0", "busy_ms"), 8.48);
  EXPECT_DOUBLE_EQ(stat(two_stats, "cpu1.thread0", "busy_ms"), 8.48);
  EXPECT_DOUBLE_EQ(stat(two_stats, "cpu0", "utilization"), 1.0);
  EXPECT_EQ(stat(two_stats, "scheduler.cpu1.thread0", "context_switches"), 0);
  // The OS counts the interval each process still held its thread when the run ended.
  EXPECT_DOUBLE_EQ(stat(two_stats, "scheduler.cpu1.thread0", "busy_ms"), 8.48);
  EXPECT_DOUBLE_EQ(stat(two_stats, "process.b", "cpu_ms"), 8.48);
}

TEST(Workload, EachRequestSaysHowLongItHeldEachThread) {
  // Two CPUs, the two applications one each: every request held one thread for its whole latency.
  platform::LoadOptions options;
  options.overrides = {"platform.cpus=" + kTwoCpus, "runtime.policy=\"software\"",
                       "workload.apps=[{\"name\":\"a\",\"functionality\":\"aes128\",\"blocks\":64},"
                       "{\"name\":\"b\",\"functionality\":\"aes128\",\"blocks\":64}]"};
  const auto scenario = platform::load_scenario_file(kSmoke, options);
  std::vector<runtime::RequestRecord> records;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_apps();
  sim.run();
  ASSERT_EQ(records.size(), 2u);
  for (const auto& r : records) {
    const std::uint64_t latency = r.end_ps - r.issue_ps;
    EXPECT_EQ(r.held_ps, r.app == "a" ? (std::vector<std::uint64_t>{latency, 0})
                                      : (std::vector<std::uint64_t>{0, latency}))
        << r.app;
  }
}

TEST(Workload, TwoSoftwareApplicationsOnOneCpuShareIt) {
  std::vector<analysis::StatGroup> stats;
  EXPECT_EQ(two_software_apps(kOneCpu, {}, &stats), sc_core::sc_time(2 * 8480, sc_core::SC_US));
  EXPECT_DOUBLE_EQ(stat(stats, "cpu0.thread0", "busy_ms"), 2 * 8.48);
}

TEST(Workload, ApplicationsPinnedToOneCpuShareItWhileTheOtherRunsTheirBackground) {
  // Both applications on cpu1, a background load pinned to cpu0: the applications take as long as on one
  // CPU, and cpu0 runs only the load.
  std::vector<analysis::StatGroup> stats;
  const sc_core::sc_time end =
      two_software_apps(kTwoCpus,
                        {"workload.apps.0.cpu=\"cpu1\"", "workload.apps.1.cpu=\"cpu1\"",
                         "workload.background=[{\"name\":\"load\",\"busy_us\":100,\"idle_us\":900,"
                         "\"cpu\":\"cpu0\"}]"},
                        &stats);
  EXPECT_EQ(end, sc_core::sc_time(2 * 8480, sc_core::SC_US));
  EXPECT_DOUBLE_EQ(stat(stats, "cpu1.thread0", "busy_ms"), 2 * 8.48);
  EXPECT_LT(stat(stats, "cpu0.thread0", "busy_ms"), 0.1 * 2 * 8.48 + 0.1);
  EXPECT_EQ(stat(stats, "process.a", "migrations"), 0);
  EXPECT_EQ(stat(stats, "process.load", "migrations"), 0);
}
