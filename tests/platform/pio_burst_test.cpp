// PIO burst timing across a request's blocks (runtime/drivers.h): on scenarios/smoke_aes.json every block is
// one AES cipher block, and each of the four requests of 64 blocks records its first cipher block word by
// word and replays the other 63 from it (the exact-time tests on this scenario hold in both timings).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/test_paths.h"

using namespace rsoc;

namespace {

struct PioRun {
  std::uint64_t recordings = 0, replays = 0, replay_payloads = 0;
  std::vector<std::uint64_t> end_ps;
};

PioRun run_pio(const std::string& timing) {
  platform::LoadOptions options;
  options.overrides = {"runtime.driver.pio_timing=" + timing};
  const auto scenario =
      platform::load_scenario_file(std::string(rsoc_test::kSourceDir) + "/scenarios/smoke_aes.json", options);
  PioRun o;
  platform::Simulation sim(scenario.params,
                           [&](const runtime::RequestRecord& r) { o.end_ps.push_back(r.end_ps); });
  sim.spawn_apps();
  sim.run();
  o.recordings = sim.manager().driver().recordings();
  o.replays = sim.manager().driver().replays();
  o.replay_payloads = sim.manager().driver().replay_payloads();
  return o;
}

}  // namespace

TEST(PioBurst, ARequestOfOneCipherBlockBlocksRecordsOnceAndReplaysTheRest) {
  const PioRun burst = run_pio("burst");
  EXPECT_EQ(burst.recordings, 4u);
  EXPECT_EQ(burst.replays, 4u * 63u);
  // A block's own work is part of what is repeated, so that one payload stands for the blocks up to the
  // CPU's next synchronisation (the 10 us quantum: a few).
  EXPECT_LT(burst.replay_payloads * 3, burst.replays * 2) << burst.replay_payloads;
  ASSERT_EQ(burst.end_ps.size(), 4u);
}

TEST(PioBurst, WordTimingRecordsNothing) {
  const PioRun word = run_pio("word");
  EXPECT_EQ(word.recordings, 0u);
  EXPECT_EQ(word.replays, 0u);
  ASSERT_EQ(word.end_ps.size(), 4u);
}
