// The optimal replacement bound of a whole run: scenarios/zynq7000.json (four cores competing for two
// slots, two CPUs) under LRU. The bound the manager reports is checked against an exhaustive search over
// every replacement choice for the same sequence of hardware requests, taken from the request records.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;

namespace {

// The fewest configurations that serve `seq` with `slots` slots starting empty, by trying every choice.
std::uint64_t exhaustive(const std::vector<std::string>& seq, std::size_t slots) {
  std::map<std::set<std::string>, std::uint64_t> best{{{}, 0}};
  for (const std::string& d : seq) {
    std::map<std::set<std::string>, std::uint64_t> next;
    auto keep = [&next](const std::set<std::string>& s, std::uint64_t cost) {
      auto [it, fresh] = next.emplace(s, cost);
      if (!fresh) it->second = std::min(it->second, cost);
    };
    for (const auto& [held, cost] : best) {
      if (held.count(d)) {
        keep(held, cost);
      } else if (held.size() < slots) {
        auto s = held;
        s.insert(d);
        keep(s, cost + 1);
      } else {
        for (const std::string& victim : held) {
          auto s = held;
          s.erase(victim);
          s.insert(d);
          keep(s, cost + 1);
        }
      }
    }
    best = std::move(next);
  }
  std::uint64_t min = ~std::uint64_t{0};
  for (const auto& b : best) min = std::min(min, b.second);
  return min;
}

}  // namespace

TEST(ReplacementBound, TheReportedBoundIsTheExhaustiveOptimumOfTheRunsHardwareRequests) {
  const auto scenario =
      platform::load_scenario_file(std::string(rsoc_test::kSourceDir) + "/scenarios/zynq7000.json", {});
  std::vector<runtime::RequestRecord> records;
  platform::Simulation sim(scenario.params, [&](const runtime::RequestRecord& r) { records.push_back(r); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  const auto stats = sim.stats(sc_core::sc_time_stamp().to_seconds() * 1e3);
  // The hardware requests in the order they took a slot (each starts as soon as it has one); every
  // functionality here has a core of its own.
  std::vector<const runtime::RequestRecord*> hw;
  for (const auto& r : records)
    if (r.decision == "hardware") hw.push_back(&r);
  std::stable_sort(hw.begin(), hw.end(), [](auto* a, auto* b) { return a->start_ps < b->start_ps; });
  std::vector<std::string> seq;
  for (const auto* r : hw) seq.push_back(r->functionality);
  ASSERT_GT(seq.size(), 20u);
  const double optimal = test::stat(stats, "manager", "reconfigurations_optimal");
  EXPECT_EQ(optimal, static_cast<double>(exhaustive(seq, 2)));
  EXPECT_EQ(test::stat(stats, "manager", "reconfigurations_optimal_exact"), 1);
  // LRU needs more: the gap an architect asks about.
  EXPECT_GT(test::stat(stats, "manager", "cache_misses"), optimal);
}
