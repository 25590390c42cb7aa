// Configuration prefetching end to end on scenarios/smoke_aes.json: one slot, a CPU that copies a 500 KiB
// bitstream into the port at 120 cycles per word (153.6001 ms per configuration), four requests of 64
// blocks. The prefetcher copies in pieces of 4,096 words (4.9152 ms of copying each) and is cancelled between
// two of them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;

namespace {

using rsoc::test::kSmoke;
constexpr std::uint64_t kConfigurationPs = 153600100000;  // 128,000 words x 1.2 us, START and the status read

using Outcome = test::RunOutcome;

Outcome run_prefetch(std::vector<std::string> overrides) {
  return test::run_scenario(kSmoke, std::move(overrides));
}

double manager(const Outcome& r, const char* name) {
  return test::stat(r.stats, "manager", name);
}

// An AES core and a DES core that share the one slot.
const std::string kTwoCores =
    R"(platform.cores=[{"name": "aes_core", "type": "aes128", "clock_mhz": 100, "key_setup_cycles": 10,
                        "block_cycles": 11, "bitstream": {"memory": "ddr", "address": "0x01000000",
                        "size_kib": 500}},
                       {"name": "des_core", "type": "des", "clock_mhz": 100, "block_cycles": 16,
                        "bitstream": {"memory": "ddr", "address": "0x01100000", "size_kib": 500}}])";

}  // namespace

TEST(Prefetch, AHintLoadsTheFirstCoreBeforeItsRequestAndHidesTheWholeConfiguration) {
  // The application starts at 200 ms; its core was prefetched from time zero.
  const Outcome r = run_prefetch({"runtime.prefetch.predictor=hint", "workload.apps.0.start_us=200000"});
  ASSERT_EQ(r.records.size(), 4u);
  const auto& first = r.records[0];
  EXPECT_FALSE(first.reconfigured);
  EXPECT_EQ(first.reconfig_hidden_ps, kConfigurationPs);
  EXPECT_EQ(first.breakdown[runtime::TimeUse::kReconfig], 0u);
  EXPECT_EQ(first.end_ps - first.issue_ps, first.exec_ps);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(r.records[i].reconfig_hidden_ps, 0u) << i;  // cached
  EXPECT_EQ(manager(r, "prefetches"), 1);
  EXPECT_EQ(manager(r, "prefetches_useful"), 1);
  EXPECT_EQ(manager(r, "prefetches_wasted"), 0);
  EXPECT_NEAR(manager(r, "reconfiguration_hidden_ms"), 153.6001, 1e-9);
  EXPECT_EQ(manager(r, "cache_misses"), 0);
}

TEST(Prefetch, HistoryLearnsTheSuccessorAndReloadsTheCoreDuringTheThinkTime) {
  // No module caching: every core leaves after its request. After two requests the history knows that aes128
  // follows aes128; the 200 ms pauses leave time for the whole configuration.
  const Outcome r =
      run_prefetch({"runtime.prefetch.predictor=history", "runtime.caching=false", "workload.apps.0.think_us=200000"});
  ASSERT_EQ(r.records.size(), 4u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(r.records[i].reconfigured) << i;
    EXPECT_EQ(r.records[i].reconfig_hidden_ps, 0u) << i;
  }
  for (std::size_t i = 2; i < 4; ++i) {
    EXPECT_FALSE(r.records[i].reconfigured) << i;
    EXPECT_EQ(r.records[i].reconfig_hidden_ps, kConfigurationPs) << i;
  }
  EXPECT_EQ(manager(r, "prefetches_useful"), 2);
}

TEST(Prefetch, ARequestForTheCoreBeingPrefetchedWaitsForItAndOnlyTheRestIsHidden) {
  // 100 ms pauses: the next request comes while its core is still being prefetched.
  const Outcome r =
      run_prefetch({"runtime.prefetch.predictor=hint", "runtime.caching=false", "workload.apps.0.think_us=100000"});
  ASSERT_EQ(r.records.size(), 4u);
  for (std::size_t i = 1; i < 4; ++i) {
    const auto& rec = r.records[i];
    EXPECT_FALSE(rec.reconfigured) << i;
    // Hidden: the part done when it came, about the 100 ms pause; the rest it waited for, and then the
    // prefetcher's wake-up, within a microsecond.
    const std::uint64_t waited = rec.breakdown[runtime::TimeUse::kReconfig];
    EXPECT_GT(rec.reconfig_hidden_ps, 90000000000u) << i;
    EXPECT_LT(rec.reconfig_hidden_ps, 110000000000u) << i;
    EXPECT_GE(rec.reconfig_hidden_ps + waited, kConfigurationPs) << i;
    EXPECT_LE(rec.reconfig_hidden_ps + waited, kConfigurationPs + 1000000) << i;
    EXPECT_EQ(rec.reconfig_ps, waited) << i;  // requests.csv's reconfig_ms says what breakdown.csv says
    EXPECT_EQ(rec.breakdown.total(), rec.end_ps - rec.issue_ps) << i;
  }
  EXPECT_EQ(manager(r, "prefetches_useful"), 4);  // the first request overtakes the prefetch from time zero
}

TEST(Prefetch, AWrongHintIsWastedWhenItsCoreIsEvictedUnused) {
  // The application declares des after each request but asks for aes128 again: every prefetched DES core is
  // configured over unused.
  const Outcome r = run_prefetch({kTwoCores, "runtime.prefetch.predictor=hint", "workload.apps.0.prefetch_hint=des",
                         "workload.apps.0.think_us=200000"});
  ASSERT_EQ(r.records.size(), 4u);
  // The first request overtakes the prefetch of its own core, started at time zero: the piece the prefetcher
  // copied before the application had the CPU is hidden.
  EXPECT_FALSE(r.records[0].reconfigured);
  EXPECT_EQ(r.records[0].reconfig_hidden_ps, 4915250000u);
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_TRUE(r.records[i].reconfigured) << i;
    EXPECT_EQ(r.records[i].reconfig_hidden_ps, 0u) << i;
  }
  EXPECT_EQ(manager(r, "prefetches"), 5);  // aes128 at time zero, then des after each request
  EXPECT_EQ(manager(r, "prefetches_useful"), 1);
  EXPECT_EQ(manager(r, "prefetches_wasted"), 3);  // the fourth is still in its slot at the end
  EXPECT_EQ(manager(r, "prefetches_cancelled"), 0);
}

TEST(Prefetch, ARequestCancelsAPrefetchOfAnotherCoreAtTheEndOfItsPiece) {
  // 100 us pauses: each request comes while the DES core it does not want is being prefetched into its slot;
  // the prefetch stops after its current piece, and the request configures its own core.
  const Outcome r = run_prefetch({kTwoCores, "runtime.prefetch.predictor=hint", "workload.apps.0.prefetch_hint=des",
                         "workload.apps.0.think_us=100"});
  ASSERT_EQ(r.records.size(), 4u);
  for (std::size_t i = 1; i < 4; ++i) {
    const auto& rec = r.records[i];
    EXPECT_TRUE(rec.reconfigured) << i;
    EXPECT_EQ(rec.reconfig_ps, kConfigurationPs) << i;
    // It waited (for the CPU, which the prefetcher's copy loop held, then for the slot) until the piece in
    // progress ended: at most one piece of 4,096 words.
    const std::uint64_t waited =
        rec.breakdown[runtime::TimeUse::kCpuWait] + rec.breakdown[runtime::TimeUse::kSlotWait];
    EXPECT_GT(waited, 0u) << i;
    EXPECT_LE(waited, 4096ull * 1200000ull + 1000000ull) << i;
  }
  EXPECT_EQ(manager(r, "prefetches_cancelled"), 3);
  EXPECT_EQ(manager(r, "prefetches_useful"), 1);  // the first request's, of its own core
}

TEST(Prefetch, WithoutAPredictorNoPrefetcherRunsAndNothingOfItIsCounted) {
  const Outcome r = run_prefetch({});
  for (const auto& g : r.stats)
    for (const auto& s : g.stats) EXPECT_EQ(s.name.find("prefetch"), std::string::npos) << g.resource;
  for (const auto& rec : r.records) EXPECT_EQ(rec.reconfig_hidden_ps, 0u);
  for (const auto& g : r.stats) EXPECT_EQ(g.resource.find("prefetcher"), std::string::npos);
}

TEST(Prefetch, RequestsWaitingForASlotAreNeverStarvedByPrefetches) {
  // scenarios/zynq7000.json without module caching: four applications on two CPUs take turns in two slots,
  // and each wants its core back. A prefetch cancelled for a waiting request is not followed by another
  // before that request has its slot: the run ends, every request served.
  platform::LoadOptions options;
  options.overrides = {"runtime.prefetch.predictor=history", "runtime.caching=false",
                       "limits.events=50000000"};
  const auto scenario =
      platform::load_scenario_file(std::string(rsoc_test::kSourceDir) + "/scenarios/zynq7000.json", options);
  std::vector<runtime::RequestRecord> records;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();  // throws when the limit is passed
  EXPECT_EQ(records.size(), 80u);
  for (const auto& r : records) EXPECT_TRUE(r.ok) << r.id << ": " << r.error;
  const auto stats = sim.stats(sc_core::sc_time_stamp().to_seconds() * 1e3);
  EXPECT_GT(test::stat(stats, "manager", "prefetches_useful"), 0);
  EXPECT_LT(sc_core::sc_time_stamp().to_seconds(), 2.0);
}

TEST(Prefetch, AMistakeInItsKeysIsReportedAtItsPointer) {
  auto issues_with = [](std::vector<std::string> overrides) {
    return test::load_issues(kSmoke, std::move(overrides));
  };
  using Lines = std::vector<std::string>;
  EXPECT_EQ(issues_with({"runtime.prefetch.predictor=oracle"}),
            (Lines{"/runtime/prefetch/predictor: \"oracle\" is not one of \"none\", \"hint\", \"history\""}));
  EXPECT_EQ(
      issues_with({"runtime.prefetch.predictor=hint", "platform.config_port=null",
                   "platform.slots.0.reconfigurable=false", "platform.slots.0.core=aes_core"}),
      (Lines{"/runtime/prefetch/predictor: prefetching configures slots: it needs a configuration port, "
             "and the platform has none"}));
  const Lines unknown = issues_with({"workload.apps.0.prefetch_hint=aes256"});
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].rfind("/workload/apps/0/prefetch_hint: ", 0), 0u) << unknown[0];
}
