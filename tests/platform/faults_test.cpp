// Injected faults and the runtime's recovery, end to end on scenarios/smoke_aes.json: one slot, a CPU that
// copies a 500 KiB AES bitstream into the port at 120 cycles per word (153.6 ms per configuration), four
// requests of 64 blocks. A fault window at time zero makes the first configuration fail its check at the end
// of loading; the runtime retries it, falls back to software, fails the request, or retires the slot, as
// runtime.recovery says.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;

namespace {

using rsoc::test::kSmoke;
// 500 KiB = 128,000 words, each copied in 120 cycles of 10 ns.
constexpr std::uint64_t kWordsPs = 128000ull * 1200000ull;

using Outcome = test::RunOutcome;

Outcome run_faults(std::vector<std::string> overrides, const std::string& file = kSmoke) {
  return test::run_scenario(file, std::move(overrides));
}

// A configuration fault in slot0 at time zero (the first configuration fails its check).
const std::string kFirstConfigurationFails =
    R"(faults={"at": [{"time_us": 0, "fault": "configuration", "slot": "slot0"}]})";

}  // namespace

TEST(Faults, WithoutFaultsEveryRequestIsOkAndNothingIsCountedAsRecovery) {
  const Outcome r = run_faults({});
  ASSERT_EQ(r.records.size(), 4u);
  for (const auto& rec : r.records) {
    EXPECT_STREQ(rec.outcome(), "ok");
    EXPECT_EQ(rec.faults, 0u);
    EXPECT_EQ(rec.breakdown[runtime::TimeUse::kRecovery], 0u);
  }
  EXPECT_EQ(test::stat(r.stats, "manager", "faults_detected"), 0);
}

TEST(Faults, AFailedConfigurationIsRetriedAndCostsExactlyOneMoreConfiguration) {
  const Outcome r = run_faults({kFirstConfigurationFails, "runtime.recovery.configuration_retries=1"});
  ASSERT_EQ(r.records.size(), 4u);
  const auto& first = r.records[0];
  EXPECT_STREQ(first.outcome(), "recovered");
  EXPECT_TRUE(first.ok) << first.error;
  EXPECT_TRUE(first.verified);
  EXPECT_EQ(first.faults, 1u);
  EXPECT_EQ(first.retries, 1u);
  EXPECT_FALSE(first.fallback);
  EXPECT_EQ(first.decision, "hardware");
  EXPECT_NE(
      first.reason.find("configuration failed (configuration port reported an error): configuring again"),
      std::string::npos)
      << first.reason;
  // The failed attempt takes exactly what the good one takes (its error is found at the end of loading): it
  // is the request's recovery, the good attempt its reconfiguration: 128,000 words copied, plus the START
  // write and the final status read (under a microsecond).
  EXPECT_EQ(first.breakdown[runtime::TimeUse::kRecovery], first.reconfig_ps);
  EXPECT_EQ(first.breakdown[runtime::TimeUse::kReconfig], first.reconfig_ps);
  EXPECT_GE(first.reconfig_ps, kWordsPs);
  EXPECT_LT(first.reconfig_ps, kWordsPs + 1000000);
  EXPECT_EQ(first.breakdown.total(), first.end_ps - first.issue_ps);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_STREQ(r.records[i].outcome(), "ok") << i;
  EXPECT_EQ(test::stat(r.stats, "manager", "faults_detected"), 1);
  EXPECT_EQ(test::stat(r.stats, "manager", "configuration_retries"), 1);
  EXPECT_EQ(test::stat(r.stats, "config_port", "reconfigurations"), 1);
  EXPECT_EQ(test::stat(r.stats, "config_port", "failed_reconfigurations"), 1);
  EXPECT_EQ(test::stat(r.stats, "config_port", "injected_errors"), 1);
}

TEST(Faults, WithoutRetriesTheRequestFallsBackToSoftware) {
  const Outcome r = run_faults({kFirstConfigurationFails, "runtime.recovery.fallback=software"});
  ASSERT_EQ(r.records.size(), 4u);
  const auto& first = r.records[0];
  EXPECT_STREQ(first.outcome(), "recovered");
  EXPECT_TRUE(first.fallback);
  EXPECT_EQ(first.retries, 0u);
  EXPECT_EQ(first.decision, "software");
  EXPECT_TRUE(first.verified);
  EXPECT_NE(
      first.reason.find("configuration failed (configuration port reported an error): software instead"),
      std::string::npos)
      << first.reason;
  // The lost configuration is recovery; then 20,000 + 64 x 3,000 cycles of software at 10 ns.
  EXPECT_EQ(first.breakdown[runtime::TimeUse::kReconfig], 0u);
  EXPECT_EQ(first.exec_ps, (20000ull + 64ull * 3000ull) * 10000ull);
  EXPECT_GE(first.breakdown[runtime::TimeUse::kRecovery], kWordsPs);
  // The slot is empty again: the second request configures it and runs in hardware.
  EXPECT_TRUE(r.records[1].reconfigured);
  EXPECT_EQ(r.records[1].decision, "hardware");
  EXPECT_STREQ(r.records[1].outcome(), "ok");
  EXPECT_EQ(test::stat(r.stats, "manager", "fault_fallbacks"), 1);
}

TEST(Faults, WithoutRecoveryTheRequestFailsWithTheReasonAndTheNextConfiguresAgain) {
  const Outcome r = run_faults({kFirstConfigurationFails});
  ASSERT_EQ(r.records.size(), 4u);
  EXPECT_STREQ(r.records[0].outcome(), "failed");
  EXPECT_EQ(r.records[0].error, "configuration port reported an error");
  EXPECT_EQ(r.records[0].faults, 1u);
  EXPECT_STREQ(r.records[1].outcome(), "ok");
  EXPECT_TRUE(r.records[1].reconfigured);
}

TEST(Faults, ASlotRetiredAfterItsFaultsIsNeverUsedAgainAndItsRequestsRunInSoftware) {
  // retire_after 1: the slot is retired by its first fault and not tried again.
  const Outcome r = run_faults({kFirstConfigurationFails, "runtime.recovery.retire_after=1",
                         "runtime.recovery.configuration_retries=3", "runtime.recovery.fallback=software"});
  ASSERT_EQ(r.records.size(), 4u);
  EXPECT_EQ(r.records[0].retries, 0u);
  EXPECT_TRUE(r.records[0].fallback);
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(r.records[i].decision, "software") << i;
    EXPECT_EQ(r.records[i].reason, "policy hardware, but no slot can host the core that implements aes128");
    EXPECT_STREQ(r.records[i].outcome(), "ok");
  }
  EXPECT_EQ(test::stat(r.stats, "manager", "retired_slots"), 1);
}

TEST(Faults, ARequestForcedToHardwareWhoseSlotsAreRetiredFailsWithTheReason) {
  // No software: the policy has nothing else, and a request never waits for a slot that is gone.
  const Outcome r = run_faults({kFirstConfigurationFails, "runtime.recovery.retire_after=1", "software={}"});
  ASSERT_EQ(r.records.size(), 4u);
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_STREQ(r.records[i].outcome(), "failed");
    EXPECT_EQ(r.records[i].error, "no slot can host aes_core any more: every one that could was retired");
  }
}

TEST(Faults, ABitErrorRateFailsConfigurationsAtItsRate) {
  // 4,096,000 bits per configuration at 2e-7: each attempt fails with probability
  // 1 - (1 - 2e-7)^4,096,000 = 0.559; three retries, then software. Over the attempts made, the share that
  // failed lies within five standard deviations of it.
  const Outcome r = run_faults({"faults.configuration.bit_error_rate=2e-7",
                         "runtime.recovery.configuration_retries=3", "runtime.recovery.fallback=software",
                         "runtime.caching=false", "workload.apps.0.requests=60", "workload.apps.0.blocks=1"});
  ASSERT_EQ(r.records.size(), 60u);
  std::uint64_t faults = 0, attempts = 0;
  for (const auto& rec : r.records) {
    EXPECT_TRUE(rec.ok) << rec.error;
    EXPECT_TRUE(rec.verified) << rec.id;
    EXPECT_EQ(rec.faults, rec.retries + (rec.fallback ? 1 : 0)) << rec.id;
    faults += rec.faults;
    attempts += rec.faults + (rec.fallback ? 0 : 1);
  }
  const double share = static_cast<double>(faults) / static_cast<double>(attempts);
  const double sd = std::sqrt(0.559 * 0.441 / static_cast<double>(attempts));
  EXPECT_NEAR(share, 0.559, 5 * sd) << faults << " of " << attempts;
  EXPECT_EQ(test::stat(r.stats, "config_port", "injected_errors"), static_cast<double>(faults));
  EXPECT_EQ(test::stat(r.stats, "manager", "faults_detected"), static_cast<double>(faults));
}

TEST(Faults, AMistakeInTheFaultsSectionIsReportedAtItsPointer) {
  auto issues_with = [](std::vector<std::string> overrides) {
    return test::load_issues(kSmoke, std::move(overrides));
  };
  using Lines = std::vector<std::string>;
  EXPECT_EQ(issues_with({R"(faults={"at": [{"time_us": 5, "fault": "configuration", "slot": "slot9"}]})"}),
            (Lines{"/faults/at/0/slot: \"slot9\" is not one of \"slot0\"; did you mean \"slot0\"?"}));
  EXPECT_EQ(issues_with({R"(faults={"at": [{"time_us": 5, "fault": "hung", "slot": "slot0"}]})"}),
            (Lines{"/faults/at/0/fault: \"hung\" is not one of \"configuration\", \"upset\", \"hang\", "
                   "\"bus\"; did you mean \"hang\"?"}));
  EXPECT_EQ(issues_with({R"(faults={"at": [{"time_us": 5, "fault": "hang", "slot": "slot0"}]})"}),
            (Lines{"/runtime/recovery/watchdog_cycles: core hangs (faults.hangs, or a hang in faults.at) are "
                   "detected only by the drivers' watchdog; expected a number of CPU cycles above 0"}));
  EXPECT_EQ(issues_with({"faults.hangs.probability=0.01"}),
            (Lines{"/runtime/recovery/watchdog_cycles: core hangs (faults.hangs, or a hang in faults.at) are "
                   "detected only by the drivers' watchdog; expected a number of CPU cycles above 0"}));
  EXPECT_EQ(
      issues_with({"faults.configuration.probability=1.5"}),
      (Lines{"/faults/configuration/probability: 1.5 is out of range; expected a number >= 0 and <= 1"}));
  EXPECT_EQ(issues_with({R"(faults={"at": [{"time_us": 5, "fault": "configuration", "slot": "slot0"}]})",
                         "platform.slots.0.reconfigurable=false", "platform.slots.0.core=aes_core"}),
            (Lines{"/faults/at/0/slot: slot \"slot0\" is static: it is never configured, so a configuration "
                   "fault never hits it"}));
  EXPECT_EQ(
      issues_with({"faults.configuration.probability=0.1", "platform.config_port=null",
                   "platform.slots.0.reconfigurable=false", "platform.slots.0.core=aes_core"}),
      (Lines{
          "/faults/configuration: configuration faults need a configuration port; the platform has none"}));
  EXPECT_EQ(issues_with({R"(faults={"at": [{"time_us": 5, "fault": "bus", "bus": "axi"}]})"}),
            (Lines{"/faults/at/0/bus: \"axi\" is not one of \"plb\""}));
  EXPECT_EQ(issues_with({R"(faults={"at": [{"time_us": 5, "fault": "bus", "slot": "slot0"}]})"}),
            (Lines{"/faults/at/0/slot: a bus fault hits a bus, not a slot; expected null",
                   "/faults/at/0/bus: a bus fault needs the bus it hits; expected a bus name"}));
  EXPECT_EQ(issues_with({R"(faults={"at": [{"time_us": 5, "fault": "upset"}]})"}),
            (Lines{"/faults/at/0/slot: an upset fault needs the slot it hits; expected a slot name"}));
  EXPECT_EQ(issues_with({R"(faults={"buses": {"pbl": {"error_rate": 0.1}}})"}),
            (Lines{"/faults/buses/pbl: \"pbl\" is not one of \"plb\"; did you mean \"plb\"?"}));
  EXPECT_EQ(issues_with({"runtime.recovery.fallback=later"}),
            (Lines{"/runtime/recovery/fallback: \"later\" is not one of \"none\", \"software\""}));
}

// Upsets. The first request's configuration ends at 153.6001 ms; the cached requests run at 153.8889,
// 154.17722 and 154.46554 ms (0.18832 ms each).
const std::string kUpsetAt154_1 =
    R"(faults={"at": [{"time_us": 154100, "fault": "upset", "slot": "slot0"}]})";

TEST(Faults, AnUpsetCoreDeliversWrongOutputsSilentlyUntilRepaired) {
  const Outcome r = run_faults({kUpsetAt154_1});
  ASSERT_EQ(r.records.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    EXPECT_STREQ(r.records[i].outcome(), "ok");  // the runtime noticed nothing
    EXPECT_EQ(r.records[i].wrong_output, i >= 2);
    EXPECT_EQ(r.records[i].verified, i < 2);
    EXPECT_EQ(r.records[i].faults, 0u);
  }
  EXPECT_EQ(test::stat(r.stats, "manager", "silent_corruptions"), 2);
  EXPECT_EQ(test::stat(r.stats, "slot.slot0", "upsets"), 1);
  const double end_ms =
      test::stat(r.stats, "cpu.thread0", "busy_ms") / test::stat(r.stats, "cpu.thread0", "utilization");
  EXPECT_NEAR(test::stat(r.stats, "slot.slot0", "upset_ms"), end_ms - 154.1, 1e-9);
}

TEST(Faults, TheOutputCheckFindsAnUpsetCoreWhichIsConfiguredAgainAndRunAgain) {
  const Outcome r = run_faults({kUpsetAt154_1, "runtime.recovery.verify_cycles_per_block=50"});
  ASSERT_EQ(r.records.size(), 4u);
  // With the checks (32 us per request) the requests run later: the upset hits the second one's blocks.
  const auto& hit = r.records[1];
  EXPECT_STREQ(hit.outcome(), "recovered");
  EXPECT_TRUE(hit.verified);
  EXPECT_FALSE(hit.wrong_output);
  EXPECT_EQ(hit.faults, 1u);
  EXPECT_EQ(hit.retries, 1u);
  EXPECT_NE(hit.reason.find("output check failed: configuring slot0 again"), std::string::npos) << hit.reason;
  // Recovery: the first run's check (64 blocks x 50 cycles x 10 ns = 32 us), the configuration again and the
  // run again with its check, which take what the first request's took (the key is loaded again); the first
  // run is the request's own.
  const std::uint64_t check_ps = 64ull * 50ull * 10000ull;
  EXPECT_EQ(hit.breakdown[runtime::TimeUse::kRecovery],
            check_ps + r.records[0].reconfig_ps + r.records[0].exec_ps);
  for (std::size_t i : {0, 2, 3}) EXPECT_STREQ(r.records[i].outcome(), "ok") << i;
  EXPECT_FALSE(r.records[2].wrong_output);  // repaired
  EXPECT_EQ(test::stat(r.stats, "manager", "corruptions_detected"), 1);
  EXPECT_EQ(test::stat(r.stats, "manager", "silent_corruptions"), 0);
  EXPECT_EQ(test::stat(r.stats, "slot.slot0", "configurations"), 2);
  // From the upset to the repair's START write: the rest of the upset request's first run and check.
  EXPECT_NEAR(test::stat(r.stats, "slot.slot0", "mean_time_to_repair_ms"),
              static_cast<double>(hit.start_ps + hit.exec_ps) * 1e-9 - 154.1, 1e-4);
}

TEST(Faults, BlindScrubbingRepairsAnUpsetAtTheEndOfTheNextScrub) {
  // Requests 100 ms apart; an upset at 160 ms. Rounds every 50 ms: the one at 200 ms rewrites slot0's
  // 128,000 words at 10 ns each and repairs it at 201.28 ms, before the next request.
  const Outcome r = run_faults({R"(faults={"at": [{"time_us": 160000, "fault": "upset", "slot": "slot0"}],
                                    "scrubbing": {"mode": "blind", "period_ms": 50}})",
                         "workload.apps.0.think_us=100000"});
  ASSERT_EQ(r.records.size(), 4u);
  for (const auto& rec : r.records) EXPECT_FALSE(rec.wrong_output) << rec.id;
  EXPECT_EQ(test::stat(r.stats, "scrubber", "repairs"), 1);
  EXPECT_NEAR(test::stat(r.stats, "slot.slot0", "upset_ms"), 41.28, 1e-9);
  EXPECT_NEAR(test::stat(r.stats, "slot.slot0", "mean_time_to_repair_ms"), 41.28, 1e-9);
  EXPECT_GT(test::stat(r.stats, "config_port", "scrub_words"), 0);
}

TEST(Faults, ReadbackScrubbingReadsTheFramesAndRewritesTheCorruptedOne) {
  const Outcome r = run_faults({R"(faults={"at": [{"time_us": 160000, "fault": "upset", "slot": "slot0"}],
                                    "scrubbing": {"mode": "readback", "period_ms": 50}})",
                         "workload.apps.0.think_us=100000"});
  ASSERT_EQ(r.records.size(), 4u);
  EXPECT_EQ(test::stat(r.stats, "scrubber", "repairs"), 1);
  // 128,000 words read back, then the 101-word frame rewritten: repaired at 201.28101 ms.
  EXPECT_NEAR(test::stat(r.stats, "slot.slot0", "upset_ms"), 41.28101, 1e-9);
}

TEST(Faults, WithoutFaultsNothingOfTheFaultMachineryShowsInTheStatistics) {
  const Outcome r = run_faults({});
  for (const auto& g : r.stats) {
    EXPECT_NE(g.resource, "scrubber");
    for (const auto& s : g.stats)
      for (const char* name : {"upsets", "upset_ms", "availability", "injected_errors", "scrub_words"})
        EXPECT_NE(s.name, name) << g.resource;
  }
}

TEST(Faults, AnOnChipErrorResponseDuringARunFallsBackToSoftwareAndItsLostTimeIsRecovery) {
  // The second request (cached) starts at 153.8889 ms; the first plb access at or after 153.89 ms fails.
  const Outcome r = run_faults({R"(faults={"at": [{"time_us": 153890, "fault": "bus", "bus": "plb"}]})",
                         "runtime.recovery.fallback=software"});
  ASSERT_EQ(r.records.size(), 4u);
  const auto& hit = r.records[1];
  EXPECT_STREQ(hit.outcome(), "recovered");
  EXPECT_TRUE(hit.fallback);
  EXPECT_TRUE(hit.verified);
  EXPECT_EQ(hit.faults, 1u);
  EXPECT_EQ(hit.decision, "software");
  EXPECT_NE(hit.reason.find("failed: TLM_GENERIC_ERROR_RESPONSE: software instead"), std::string::npos)
      << hit.reason;
  // The part of the hardware run before the error is recovery; then 20,000 + 64 x 3,000 cycles of software.
  EXPECT_EQ(hit.exec_ps, (20000ull + 64ull * 3000ull) * 10000ull);
  EXPECT_GT(hit.breakdown[runtime::TimeUse::kRecovery], 0u);
  EXPECT_EQ(hit.breakdown.total(), hit.end_ps - hit.issue_ps);
  EXPECT_EQ(hit.end_ps - hit.issue_ps - hit.breakdown[runtime::TimeUse::kRecovery] -
                hit.breakdown[runtime::TimeUse::kCpuWait],
            hit.exec_ps);
  for (std::size_t i : {0, 2, 3}) EXPECT_STREQ(r.records[i].outcome(), "ok") << i;
  EXPECT_EQ(test::stat(r.stats, "bus.plb", "injected_errors"), 1);
}

TEST(Faults, ABusErrorWithoutFallbackFailsTheRequestWithTheBusMessage) {
  const Outcome r = run_faults({R"(faults={"at": [{"time_us": 153890, "fault": "bus", "bus": "plb"}]})"});
  ASSERT_EQ(r.records.size(), 4u);
  EXPECT_STREQ(r.records[1].outcome(), "failed");
  EXPECT_NE(r.records[1].error.find("failed: TLM_GENERIC_ERROR_RESPONSE"), std::string::npos)
      << r.records[1].error;
  EXPECT_STREQ(r.records[2].outcome(), "ok");
}

TEST(Faults, AnFmcAccessWhoseNwaitNeverClearsCostsItsPollsAndFallsBackToSoftware) {
  // scenarios/smoke_fmc_des.json: the first FMC access (the key's first word) keeps NWAIT asserted; the CPU
  // polls it max_polls (10) times at 12 cycles of 180 MHz, gives up, and the request runs in software.
  const Outcome r = run_faults({R"(faults={"at": [{"time_us": 0, "fault": "bus", "bus": "fmc"}]})",
                         "runtime.recovery.fallback=software",
                         R"(software={"des": {"cycles_per_request": 100, "cycles_per_block": 1000}})"},
                        std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_fmc_des.json");
  ASSERT_EQ(r.records.size(), 5u);
  const auto& hit = r.records[0];
  EXPECT_STREQ(hit.outcome(), "recovered") << hit.error;
  EXPECT_TRUE(hit.fallback);
  EXPECT_TRUE(hit.verified);
  EXPECT_NE(hit.reason.find("mcu: write at 0x60000040 failed: TLM_GENERIC_ERROR_RESPONSE: software instead"),
            std::string::npos)
      << hit.reason;
  // 100 + 16 x 1,000 cycles at 180 MHz (and whatever the other client's process took of the CPU meanwhile).
  EXPECT_GE(hit.exec_ps, 16100u * 5555u);
  EXPECT_GT(hit.breakdown[runtime::TimeUse::kRecovery], 0u);  // the 10 NWAIT polls, among others
  EXPECT_EQ(test::stat(r.stats, "bus.fmc", "injected_errors"), 1);
  for (std::size_t i = 1; i < 5; ++i) EXPECT_STREQ(r.records[i].outcome(), "ok") << i;
}

// Hangs. The watchdog: 10,000 cycles of the 100 MHz CPU (100 us).
const std::string kWatchdog = "runtime.recovery.watchdog_cycles=10000";
constexpr std::uint64_t kWatchdogPs = 100000000;

// The second request (cached, its key loaded) starts at 153.8889 ms; `at_us` hangs the core in the operation
// it starts then (`at_us` 153890: the first block; 153950: a block replayed from the recorded first one).
void expect_hang_recovered(const std::string& at_us) {
  const Outcome r =
      run_faults({R"(faults={"at": [{"time_us": )" + at_us + R"(, "fault": "hang", "slot": "slot0"}]})", kWatchdog});
  ASSERT_EQ(r.records.size(), 4u);
  const auto& hit = r.records[1];
  EXPECT_STREQ(hit.outcome(), "recovered") << hit.error;
  EXPECT_TRUE(hit.verified);
  EXPECT_FALSE(hit.fallback);
  EXPECT_EQ(hit.faults, 1u);
  EXPECT_EQ(hit.retries, 1u);
  EXPECT_NE(hit.reason.find("core at 0x80000000 did not finish within the watchdog's 10000 CPU cycles: "
                            "configuring slot0 again"),
            std::string::npos)
      << hit.reason;
  // The run that hung is given up at the first status poll 100 us after its block started; then the core is
  // configured again and the request run again, as the first request was (its key loaded again): all
  // recovery.
  EXPECT_GE(hit.exec_ps, kWatchdogPs);
  EXPECT_EQ(hit.breakdown[runtime::TimeUse::kRecovery],
            hit.exec_ps + r.records[0].reconfig_ps + r.records[0].exec_ps);
  EXPECT_EQ(hit.breakdown.total(), hit.end_ps - hit.issue_ps);
  for (std::size_t i : {0, 2, 3}) EXPECT_STREQ(r.records[i].outcome(), "ok") << i;
  EXPECT_EQ(test::stat(r.stats, "manager", "watchdog_timeouts"), 1);
  EXPECT_EQ(test::stat(r.stats, "slot.slot0", "hangs"), 1);
  EXPECT_EQ(test::stat(r.stats, "slot.slot0", "configurations"), 2);
}

TEST(Faults, AHungCoreIsFoundByTheWatchdogConfiguredAgainAndRunAgain) {
  expect_hang_recovered("153890");
}

TEST(Faults, ACoreThatHangsInAReplayedBlockIsFoundByTheWatchdogToo) {
  expect_hang_recovered("153950");
}

TEST(Faults, AHungCoreInARetiredSlotFallsBackToSoftware) {
  const Outcome r = run_faults({R"(faults={"at": [{"time_us": 153890, "fault": "hang", "slot": "slot0"}]})",
                         kWatchdog, "runtime.recovery.retire_after=1", "runtime.recovery.fallback=software"});
  ASSERT_EQ(r.records.size(), 4u);
  const auto& hit = r.records[1];
  EXPECT_STREQ(hit.outcome(), "recovered");
  EXPECT_TRUE(hit.fallback);
  EXPECT_EQ(hit.decision, "software");
  EXPECT_EQ(hit.retries, 0u);
  // The lost run is recovery; then 20,000 + 64 x 3,000 cycles of software.
  EXPECT_EQ(hit.exec_ps, (20000ull + 64ull * 3000ull) * 10000ull);
  EXPECT_GE(hit.breakdown[runtime::TimeUse::kRecovery], kWatchdogPs);
  EXPECT_EQ(test::stat(r.stats, "slot.slot0", "configurations"), 1);
}

TEST(Faults, AHungCoreThatCannotBeRepairedFailsTheRequestWithTheReason) {
  const Outcome r = run_faults({R"(faults={"at": [{"time_us": 153890, "fault": "hang", "slot": "slot0"}]})",
                         kWatchdog, "runtime.recovery.retire_after=1"});
  ASSERT_EQ(r.records.size(), 4u);
  EXPECT_STREQ(r.records[1].outcome(), "failed");
  EXPECT_EQ(
      r.records[1].error,
      "core at 0x80000000 did not finish within the watchdog's 10000 CPU cycles and the core could not be "
      "repaired");
}

TEST(Faults, TheOutputCheckThatFailsAgainAfterTheRepairFailsTheRequestWithTheReason) {
  // Upsets so frequent (1e9 per Mbit and hour: every few microseconds in a 4 Mbit core) that the run after
  // the repair is wrong too.
  const Outcome r =
      run_faults({"faults.upsets.rate_per_mbit_hour=1e9", "runtime.recovery.verify_cycles_per_block=50"});
  ASSERT_EQ(r.records.size(), 4u);
  for (const auto& rec : r.records) {
    EXPECT_STREQ(rec.outcome(), "failed") << rec.id;
    EXPECT_EQ(rec.error, "output check failed and the core could not be repaired");
    EXPECT_FALSE(rec.wrong_output);
  }
  EXPECT_EQ(test::stat(r.stats, "manager", "corruptions_detected"), 4);
}

TEST(Faults, HangsComeAtTheirProbabilityPerOperationAndEachIsRecovered) {
  // 40 requests of 64 blocks with caching: an operation (a block, or a key's INIT) hangs with p = 0.005. A
  // hung core is configured again and the request run again; when that hangs too, the request runs in
  // software and the core is configured again before its next use.
  const Outcome r = run_faults({"faults.hangs.probability=0.005", kWatchdog, "workload.apps.0.requests=40",
                         "runtime.recovery.fallback=software"});
  ASSERT_EQ(r.records.size(), 40u);
  double repeated = 0;  // runs after a hang
  for (const auto& rec : r.records) {
    EXPECT_TRUE(rec.ok) << rec.error;
    EXPECT_TRUE(rec.verified) << rec.id;
    EXPECT_EQ(rec.faults, rec.retries + (rec.fallback ? 1 : 0)) << rec.id;
    repeated += static_cast<double>(rec.retries);
  }
  const double hangs = test::stat(r.stats, "slot.slot0", "hangs");
  EXPECT_EQ(test::stat(r.stats, "manager", "watchdog_timeouts"), hangs);  // each hang found once
  // Chances: every run's operations up to its hang, at most 64 blocks and an INIT per run.
  const double chances = 65.0 * (40.0 + repeated);
  const double expected = 0.005 * chances;
  EXPECT_NEAR(hangs, expected, 5 * std::sqrt(expected)) << hangs;
  EXPECT_GT(hangs, 0);
}

TEST(Faults, ACoreThatHangsUnderADmaTransferStallsItUntilTheWatchdogAbortsIt) {
  // scenarios/zynq7000.json (DMA data path): the core in pr0 hangs at 5 ms, under the first request's
  // streams; the DMA engine stalls, the watchdog (5,000,000 cycles of the 667 MHz A9: 7.5 ms) aborts it.
  const Outcome r = run_faults({R"(faults={"at": [{"time_us": 5000, "fault": "hang", "slot": "pr0"}]})",
                         "runtime.recovery.watchdog_cycles=5000000"},
                        std::string(rsoc_test::kSourceDir) + "/scenarios/zynq7000.json");
  std::size_t recovered = 0;
  for (const auto& rec : r.records) {
    EXPECT_TRUE(rec.ok) << rec.id << ": " << rec.error;
    if (rec.faults == 0) continue;
    ++recovered;
    EXPECT_STREQ(rec.outcome(), "recovered");
    EXPECT_EQ(rec.slot, "pr0");
    EXPECT_NE(rec.reason.find("did not end within the watchdog's 7495 us: configuring pr0 again"),
              std::string::npos)
        << rec.reason;
    EXPECT_GE(rec.breakdown[runtime::TimeUse::kRecovery], 7495000000u);
  }
  EXPECT_EQ(recovered, 1u);
  EXPECT_EQ(test::stat(r.stats, "dma.axidma", "stalls"), 1);
  EXPECT_EQ(test::stat(r.stats, "manager", "watchdog_timeouts"), 1);
}
