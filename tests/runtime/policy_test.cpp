// The learning policies (runtime/policy.h) on observations made up for the test: adaptive chooses by
// latency, energy by energy, energy_delay by their product, each from the same knowledge.
#include "runtime/policy.h"

#include <gtest/gtest.h>

#include <memory>

using namespace rsoc::runtime;

namespace {

const Functionality kAes = Functionality::kAes128;

// Software: 1 ms and 1 mJ per block. Hardware: 0.1 ms and 0.5 mJ per block (a slow, power-hungry path), a
// reconfiguration of 20 ms and 30 mJ. Two software sizes, a cold and two cached hardware requests: the
// warm-up is over.
std::unique_ptr<SelectionPolicy> taught(PolicyKind kind, double floor_mw = 0) {
  auto policy = make_policy(kind, {}, nullptr, floor_mw);
  auto observe = [&](bool hw, std::uint64_t blocks, bool reconfigured) {
    Observation o;
    o.functionality = kAes;
    o.blocks = blocks;
    o.hardware = hw;
    o.reconfigured = reconfigured;
    o.exec_s = (hw ? 0.1e-3 : 1e-3) * static_cast<double>(blocks);
    o.exec_j = (hw ? 0.5e-3 : 1e-3) * static_cast<double>(blocks);
    o.reconfig_s = reconfigured ? 20e-3 : 0;
    o.reconfig_j = reconfigured ? 30e-3 : 0;
    policy->observe(o);
  };
  observe(false, 10, false);
  observe(false, 20, false);
  observe(true, 10, true);
  observe(true, 20, false);
  observe(true, 30, false);
  return policy;
}

RequestView view(std::uint64_t blocks, bool resident, double slot_wait_s = 0) {
  RequestView v;
  v.functionality = kAes;
  v.blocks = blocks;
  v.has_hardware = true;
  v.resident = resident;
  v.resident_idle = resident;
  v.slot_wait_s = slot_wait_s;
  return v;
}

}  // namespace

TEST(EnergyPolicy, ChoosesTheImplementationThatCostsLessEnergy) {
  auto p = taught(PolicyKind::kEnergy);
  EXPECT_STREQ(p->name(), "energy");
  // Resident: 0.5 mJ a block against 1 mJ.
  const Decision cached = p->decide(view(10, true));
  EXPECT_TRUE(cached.hardware);
  EXPECT_EQ(cached.reason, "energy: software 10 mJ vs hardware 5 mJ");
  // Cold: the reconfiguration's 30 mJ pays back from 60 blocks on (60 x 0.5 mJ saved).
  EXPECT_FALSE(p->decide(view(59, false)).hardware);
  const Decision cold = p->decide(view(61, false));
  EXPECT_TRUE(cold.hardware);
  EXPECT_EQ(cold.reason, "energy: software 61 mJ vs hardware 60.5 mJ (reconfiguration 30 mJ)");
}

TEST(EnergyPolicy, LatencyAndEnergyDisagreeWhereTheReconfigurationIsFastButCostly) {
  // At 30 blocks, cold: hardware takes 20 + 3 ms against 30 ms in software, but spends 45 mJ against 30.
  EXPECT_TRUE(taught(PolicyKind::kAdaptive)->decide(view(30, false)).hardware);
  EXPECT_FALSE(taught(PolicyKind::kEnergy)->decide(view(30, false)).hardware);
  // The product: 30 mJ x 30 ms = 900 against 45 mJ x 23 ms = 1035: software; at 40 blocks 1600 against
  // 50 mJ x 24 ms = 1200: hardware.
  auto ed = taught(PolicyKind::kEnergyDelay);
  EXPECT_FALSE(ed->decide(view(30, false)).hardware);
  const Decision at40 = ed->decide(view(40, false));
  EXPECT_TRUE(at40.hardware);
  EXPECT_EQ(
      at40.reason,
      "energy_delay: software 40 mJ vs hardware 50 mJ (reconfiguration 30 mJ); times 40.000 ms vs 24.000 ms");
}

TEST(EnergyPolicy, WaitingForASlotCostsTheFloorPower) {
  // Resident at 10 blocks saves 5 mJ; a 10 ms wait at a 600 mW floor costs 6 mJ.
  EXPECT_TRUE(taught(PolicyKind::kEnergy, 600)->decide(view(10, true, 0.004)).hardware);
  EXPECT_FALSE(taught(PolicyKind::kEnergy, 600)->decide(view(10, true, 0.010)).hardware);
}

TEST(EnergyPolicy, ExploresBeforeItKnows) {
  auto p = make_policy(PolicyKind::kEnergy, {}, nullptr, 0);
  const Decision first = p->decide(view(10, false));
  EXPECT_FALSE(first.hardware);
  EXPECT_EQ(first.reason, "energy: exploring software");
}
