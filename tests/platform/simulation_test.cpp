// Simulation::run(): a run ends when its workload is done, and otherwise with the reason it cannot: its
// simulated-time or event limit passed, or nothing left to simulate while the workload still waits.
#include "platform/simulation.h"

#include <gtest/gtest.h>

#include <string>

#include "platform/scenario.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;

namespace {

using rsoc::test::kSmoke;

platform::Scenario smoke(const std::vector<std::string>& overrides) {
  platform::LoadOptions options;
  options.overrides = overrides;
  return platform::load_scenario_file(kSmoke, options);
}

// The message of the SimulationError `run` throws ("" when it returns).
template <class Run>
std::string failure(Run run) {
  try {
    run();
  } catch (const platform::SimulationError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Simulation, AWorkloadThatIsDoneEndsTheRunBeforeItsLimits) {
  const auto scenario = smoke({});
  std::size_t done = 0;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord&) { ++done; });
  sim.spawn_background();
  sim.spawn_apps();
  EXPECT_EQ(failure([&] { sim.run(); }), "");
  EXPECT_EQ(done, scenario.params.apps.at(0).requests);
  EXPECT_LT(sc_core::sc_time_stamp(), scenario.params.limits.simulated);
}

TEST(Simulation, ARunStopsAtItsSimulatedTimeLimitExactlyAndSaysSo) {
  const auto scenario = smoke({"limits.simulated_s=0.0002"});
  platform::Simulation sim(scenario.params, nullptr);
  sim.spawn_background();
  sim.spawn_apps();
  const std::string message = failure([&] { sim.run(); });
  EXPECT_NE(message.find("the workload is not done after 0.000200 s of simulated time (limits.simulated_s)"),
            std::string::npos)
      << message;
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(200, sc_core::SC_US));
}

TEST(Simulation, ARunStopsAfterItsEventLimitAndSaysSo) {
  const auto scenario = smoke({"limits.events=1000", "workload.apps.0.requests=100000"});
  platform::Simulation sim(scenario.params, nullptr);
  sim.spawn_background();
  sim.spawn_apps();
  const std::string message = failure([&] { sim.run(); });
  EXPECT_NE(message.find("the workload is not done after 1000 kernel evaluation cycles (limits.events)"),
            std::string::npos)
      << message;
  EXPECT_GE(sc_core::sc_delta_count(), 1000u);
}

TEST(Simulation, AWorkloadWaitingForWhatNeverHappensIsAnErrorNotAHang) {
  // A process that takes the CPU and then waits on an event nobody notifies: the applications can never run.
  const auto scenario = smoke({"runtime.scheduler.mode=\"cooperative\""});
  platform::Simulation sim(scenario.params, nullptr);
  sc_core::sc_event never;
  sim.scheduler().spawn("stuck", 99, [&](runtime::Process&) { sc_core::wait(never); });
  sim.spawn_apps();
  const std::string message = failure([&] { sim.run(); });
  EXPECT_NE(message.find("nothing is left to simulate at"), std::string::npos) << message;
  EXPECT_NE(message.find("but the workload is not done"), std::string::npos) << message;
}

TEST(Simulation, ProcessesACallerSpawnedEndTheRunWhenNothingIsLeft) {
  const auto scenario = smoke({});
  platform::Simulation sim(scenario.params, nullptr);
  bool ran = false;
  sim.scheduler().spawn("probe", 10, [&](runtime::Process& p) {
    p.compute(1000);
    ran = true;
  });
  EXPECT_EQ(failure([&] { sim.run(); }), "");
  EXPECT_TRUE(ran);
}

TEST(Simulation, AComputationTooLongForSimulatedTimeFailsItsRequestWithTheReason) {
  // 10^12 cycles per block at 1 kHz: 64 blocks would last 2 * 10^12 hours; the request fails, never 0 ms.
  const auto scenario =
      smoke({"runtime.policy=\"software\"", "software.aes128.cycles_per_block=1000000000000",
             "platform.cpus.0.clock_mhz=0.001", "workload.apps.0.requests=1"});
  std::vector<runtime::RequestRecord> records;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_apps();
  EXPECT_EQ(failure([&] { sim.run(); }), "");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].ok);
  EXPECT_EQ(
      records[0].error,
      "a computation on the CPU: 64000000020000 cycles of 1 ms would last 2^57 ps (about 40 hours) or more "
      "in one piece");
}
