#pragma once
// Helpers shared by the platform tests.

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "analysis/stats.h"
#include "platform/scenario.h"
#include "platform/simulation.h"
#include "runtime/request_record.h"
#include "tests/test_paths.h"

namespace rsoc::test {

// The shipped scenarios' folder (with its slash), and the smallest of them.
inline const std::string kScenarioDir = std::string(rsoc_test::kSourceDir) + "/scenarios/";
inline const std::string kSmoke = kScenarioDir + "smoke_aes.json";

// The value of statistic `name` of `resource` in a run's stats (a test failure when there is none).
inline double stat(const std::vector<analysis::StatGroup>& groups, const std::string& resource,
                   const std::string& name) {
  const auto value = analysis::find_stat(groups, resource, name);
  if (!value) ADD_FAILURE() << resource << "." << name << " not found";
  return value.value_or(0);
}

// "pointer: message" of every issue loading `file` with `overrides` gives (none when it loads).
inline std::vector<std::string> load_issues(const std::string& file, std::vector<std::string> overrides) {
  platform::LoadOptions options;
  options.overrides = std::move(overrides);
  std::vector<std::string> out;
  try {
    platform::load_scenario_file(file, options);
  } catch (const platform::ScenarioError& e) {
    for (const auto& i : e.issues()) out.push_back(i.pointer + ": " + i.message);
  }
  return out;
}

// What a run of a scenario file gave: its request records and its statistics.
struct RunOutcome {
  std::vector<runtime::RequestRecord> records;
  std::vector<analysis::StatGroup> stats;
  double end_ms = 0;  // simulated time at the end
};

// Runs `file` with `overrides` to its end (one simulation per test process: SystemC elaborates once).
inline RunOutcome run_scenario(const std::string& file, std::vector<std::string> overrides) {
  platform::LoadOptions options;
  options.overrides = std::move(overrides);
  const auto scenario = platform::load_scenario_file(file, options);
  RunOutcome r;
  platform::Simulation sim(scenario.params,
                           [&](const runtime::RequestRecord& rec) { r.records.push_back(rec); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  r.end_ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
  r.stats = sim.stats(r.end_ms);
  return r;
}

}  // namespace rsoc::test
