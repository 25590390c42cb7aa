// FaultStream: seeded draws of faults by chance, fault windows, and their reproducibility; slot upsets and
// core hangs.
#include "models/faults.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "models/core_kinds.h"
#include "models/fpga_slot.h"
#include "models/ip_core.h"
#include "tests/models/core_access.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;
using test::ns;

TEST(FaultStream, NoProbabilityNeverFaultsAndCertaintyAlwaysDoes) {
  FaultStream never, zero(0.0, 1), always(1.0, 1);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(never.chance(sc_time(i, SC_US)));
    EXPECT_FALSE(zero.chance(sc_time(i, SC_US)));
    EXPECT_TRUE(always.chance(sc_time(i, SC_US)));
  }
  EXPECT_EQ(zero.first_fault(1ull << 40, sc_core::SC_ZERO_TIME), 1ull << 40);
  EXPECT_EQ(always.first_fault(10, sc_core::SC_ZERO_TIME), 0u);
  EXPECT_EQ(always.faults(), 1001u);
  EXPECT_THROW(FaultStream(1.5, 1), std::invalid_argument);
  EXPECT_THROW(FaultStream(-0.1, 1), std::invalid_argument);
}

TEST(FaultStream, AWindowHitsTheFirstChanceAtOrAfterItsTimeOnce) {
  FaultStream s;
  s.arm(sc_time(50, SC_US));
  s.arm(sc_time(20, SC_US));
  EXPECT_FALSE(s.chance(sc_time(10, SC_US)));
  EXPECT_TRUE(s.chance(sc_time(20, SC_US)));  // at its time
  EXPECT_FALSE(s.chance(sc_time(30, SC_US)));
  EXPECT_TRUE(s.chance(sc_time(70, SC_US)));  // the first chance after it
  EXPECT_FALSE(s.chance(sc_time(80, SC_US)));
  EXPECT_EQ(s.faults(), 2u);
}

TEST(FaultStream, ChancesFaultAtTheirProbabilityAndBatchesAgreeWithSingleChances) {
  // 1,000,000 chances at 1 %: 10,000 faults expected, standard deviation 99.5.
  FaultStream s(0.01, 42);
  std::uint64_t faults = 0;
  for (int i = 0; i < 1000000; ++i) faults += s.chance(sc_core::SC_ZERO_TIME) ? 1 : 0;
  EXPECT_NEAR(static_cast<double>(faults), 10000.0, 500.0);
  // The index first_fault() gives is the chance the same stream taken one by one faults at.
  FaultStream one(0.001, 9), batch(0.001, 9);
  std::uint64_t first = 0;
  while (!one.chance(sc_core::SC_ZERO_TIME)) ++first;
  EXPECT_EQ(batch.first_fault(1000000, sc_core::SC_ZERO_TIME), first);
  // A batch that holds no fault leaves the stream where the chances left it.
  FaultStream x(0.001, 9), y(0.001, 9);
  ASSERT_GT(first, 10u);
  EXPECT_EQ(x.first_fault(first, sc_core::SC_ZERO_TIME), first);
  for (std::uint64_t i = 0; i < first; ++i) y.chance(sc_core::SC_ZERO_TIME);
  EXPECT_EQ(x.first_fault(100, sc_core::SC_ZERO_TIME), 0u);
  EXPECT_TRUE(y.chance(sc_core::SC_ZERO_TIME));
}

TEST(FaultStream, SeedsAreReproducibleAndEachClassAndTargetHasItsOwn) {
  EXPECT_EQ(fault_seed(1, "configuration", "slot0"), fault_seed(1, "configuration", "slot0"));
  EXPECT_NE(fault_seed(1, "configuration", "slot0"), fault_seed(1, "configuration", "slot1"));
  EXPECT_NE(fault_seed(1, "configuration", "slot0"), fault_seed(2, "configuration", "slot0"));
  EXPECT_NE(fault_seed(1, "ab", "c"), fault_seed(1, "a", "bc"));
  FaultStream a(0.3, 5), b(0.3, 5);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.chance(sc_core::SC_ZERO_TIME), b.chance(sc_core::SC_ZERO_TIME));
}

TEST(SlotUpsets, UpsetsArriveAtTheirRatePerConfiguredBitAndARepairDrawsTheNext) {
  // 4,096,000 configured bits at 2.5e-7 upsets per bit-second: 1.024 upsets/s, a mean of 976.6 ms between
  // an upset's repair and the next. 2,000 upsets: their mean lies within 5 standard deviations (2.2 %).
  FpgaSlot quiet("quiet", SlotParams{});
  quiet.add_candidate(1, make_core("quiet.aes", CoreParams{CoreKind::kAes128}));
  quiet.preload(1);
  EXPECT_EQ(quiet.next_upset(), sc_core::sc_max_time());  // nothing injected: never
  SlotParams params;
  params.upsets.emplace();
  UpsetParams& u = *params.upsets;
  u.per_bit_per_s = 2.5e-7;
  u.seed = 11;
  u.bits[1] = 4096000;
  u.windows = {sc_time(5, SC_US)};  // before any drawn one (almost surely)
  FpgaSlot slot("slot", params);
  slot.add_candidate(1, make_core("slot.aes", CoreParams{CoreKind::kAes128}));
  slot.preload(1);  // configured: its upsets are armed
  EXPECT_EQ(slot.configured_bits(), 4096000u);
  EXPECT_EQ(slot.next_upset(), sc_time(5, SC_US));
  EXPECT_FALSE(slot.upset_by(sc_time(4, SC_US)));
  EXPECT_TRUE(slot.repair(sc_time(7, SC_US)));
  EXPECT_FALSE(slot.repair(sc_time(7, SC_US)));  // repaired: nothing left to repair at once
  constexpr int kUpsets = 2000;
  double sum_s = 0;
  sc_time from = sc_time(7, SC_US);
  for (int i = 0; i < kUpsets; ++i) {
    const sc_time at = slot.next_upset();
    ASSERT_LT(at, sc_core::sc_max_time());
    sum_s += (at - from).to_seconds();
    ASSERT_TRUE(slot.repair(at));
    from = at;
  }
  const double mean = 1.0 / (2.5e-7 * 4096000);
  EXPECT_NEAR(sum_s / kUpsets, mean, 5 * mean / std::sqrt(kUpsets));
  EXPECT_EQ(slot.upsets(), kUpsets + 1u);
}

// A hang without a kernel: an AES core (40 cycles of 10 ns per block, a FIFO of 16 words) whose hang stream
// has a window at 1000 ns. The operation that starts there never finishes; a new configuration ends it.
TEST(CoreHangs, AHungCoreNeverFinishesNeverAnswersItsStreamAndAConfigurationEndsIt) {
  auto core = make_core("aes", CoreParams{CoreKind::kAes128, ns(10), 1, 0, 40, 32, 0, 0, 4096, 16});
  FaultStream hangs;
  hangs.arm(ns(1000));
  core->set_hangs(&hangs);
  auto access = [&](tlm::tlm_command cmd, std::uint32_t offset, std::vector<std::uint32_t> words,
                    sc_core::sc_time at) { return test::core_access(*core, cmd, offset, words, at); };
  const std::vector<std::uint32_t> block{1, 2, 3, 4};
  std::vector<std::uint32_t> two = block;
  two.insert(two.end(), block.begin(), block.end());
  // Before the window: a block through the stream, ready 400 ns later.
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, block, ns(0)).first, tlm::TLM_OK_RESPONSE);
  EXPECT_FALSE(core->hung());
  // At 1000 ns the first of two blocks hangs the core: the write is taken, no result comes, the core stays
  // busy, and the accesses that would wait for it are never answered (no time: a DMA engine stalls).
  const auto [status, latency] = access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, two, ns(1000));
  EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
  EXPECT_TRUE(core->hung());
  EXPECT_TRUE(core->busy_at(ns(1000000000)));
  EXPECT_EQ(core->operations(), 1u);  // the block before the window
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, reg::kStreamOut, {0, 0, 0, 0}, ns(2000)).first,
            tlm::TLM_OK_RESPONSE);  // the result computed before the hang
  const auto never = access(tlm::TLM_READ_COMMAND, reg::kStreamOut, {0, 0, 0, 0}, ns(2000));
  EXPECT_EQ(never.first, tlm::TLM_INCOMPLETE_RESPONSE);
  EXPECT_EQ(never.second, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, block, ns(2000)).first,
            tlm::TLM_INCOMPLETE_RESPONSE);
  // Registers still answer: STATUS is never READY, and a start is ignored.
  std::vector<std::uint32_t> status_word(1);
  test::core_access(*core, tlm::TLM_READ_COMMAND, reg::kStatus, status_word, ns(5000));
  EXPECT_EQ(status_word[0], 0u);
  access(tlm::TLM_WRITE_COMMAND, reg::kCtrl, {reg::kCtrlNext}, ns(5000));
  EXPECT_EQ(core->ignored_starts(), 1u);
  EXPECT_EQ(hangs.faults(), 1u);
  // A new configuration: the core is ready again, and the window was spent.
  core->reset();
  EXPECT_FALSE(core->hung());
  EXPECT_FALSE(core->busy_at(ns(6000)));
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, block, ns(6000)).first, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(core->done_at(), ns(6400));
}

// A hung core is configured over: the slot does not refuse it as it refuses a computing one.
TEST(CoreHangs, ASlotConfiguresOverAHungCoreButNotOverAComputingOne) {
  SlotParams params;
  params.hangs.emplace();
  params.hangs->arm(ns(100));
  FpgaSlot slot("slot", params);
  slot.add_candidate(1, make_core("aes", CoreParams{}));
  slot.preload(1);
  std::vector<std::uint32_t> next{reg::kCtrlNext};
  test::core_access(*slot.core(), tlm::TLM_WRITE_COMMAND, reg::kCtrl, next, ns(0));  // 10 cycles: to 100 ns
  std::string why;
  EXPECT_FALSE(slot.begin_configuration(ns(50), &why));
  EXPECT_EQ(why, "the hosted core is computing");
  test::core_access(*slot.core(), tlm::TLM_WRITE_COMMAND, reg::kCtrl, next, ns(200));  // hangs
  EXPECT_TRUE(slot.core()->hung());
  EXPECT_EQ(slot.hangs(), 1u);
  EXPECT_TRUE(slot.begin_configuration(ns(300), &why)) << why;
}

}  // namespace
}  // namespace rsoc::models
