// FpgaSlot: candidates, preloading, the configuration interface and slot states, driven directly.
#include "models/fpga_slot.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "models/address_map.h"
#include "models/bitstream.h"
#include "models/ip_core.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

std::vector<std::uint32_t> image_words(std::uint32_t core_id, std::uint64_t bytes) {
  const auto image = make_bitstream(core_id, bytes);
  std::vector<std::uint32_t> w(image.size() / 4);
  std::memcpy(w.data(), image.data(), image.size());  // stored as the host reads it
  return w;
}

TEST(ModelFpgaSlot, CandidatesAndPreload) {
  FpgaSlot slot("slot", SlotParams{});
  slot.add_candidate(3, make_core("aes", CoreParams{CoreKind::kAes128}));
  EXPECT_THROW(slot.add_candidate(3, make_core("des", CoreParams{CoreKind::kDes})), ElaborationError);
  EXPECT_THROW(slot.preload(4), ElaborationError);
  EXPECT_EQ(slot.state_at(sc_core::SC_ZERO_TIME), SlotState::kEmpty);
  EXPECT_EQ(slot.core(), nullptr);
  slot.preload(3);
  EXPECT_TRUE(slot.hosts(3));
  EXPECT_FALSE(slot.hosts(4));
  EXPECT_EQ(slot.state_at(sc_core::SC_ZERO_TIME), SlotState::kReady);
  EXPECT_EQ(slot.configurations(), 1u);
  EXPECT_STREQ(to_string(SlotState::kConfiguring), "configuring");
  EXPECT_STREQ(to_string(SlotState::kBusy), "busy");
}

TEST(ModelFpgaSlot, ConfigurationSwitchesTheCore) {
  FpgaSlot slot("slot", SlotParams{1 << 16, true, ns(10)});
  slot.add_candidate(1, make_core("aes", CoreParams{CoreKind::kAes128}));
  slot.add_candidate(2, make_core("des", CoreParams{CoreKind::kDes}));
  slot.preload(1);
  std::string why;
  ASSERT_TRUE(slot.begin_configuration(ns(100), &why)) << why;
  EXPECT_EQ(slot.state_at(ns(100)), SlotState::kConfiguring);
  EXPECT_EQ(slot.core(), nullptr);  // the old core is gone as soon as configuration starts
  EXPECT_FALSE(slot.begin_configuration(ns(110), &why));
  EXPECT_EQ(why, "slot is already being configured");
  const auto w = image_words(2, 2048);
  slot.configuration_words(w.data(), 100, ns(200));
  EXPECT_EQ(slot.state_at(ns(200)), SlotState::kConfiguring);
  slot.configuration_words(w.data() + 100, w.size() - 100, ns(300));
  EXPECT_EQ(slot.state_at(ns(300)), SlotState::kReady);
  EXPECT_TRUE(slot.hosts(2));
  EXPECT_FALSE(slot.configuration_failed());
  EXPECT_EQ(slot.configurations(), 2u);
  EXPECT_EQ(slot.core()->params().kind, CoreKind::kDes);
}

TEST(ModelFpgaSlot, AbortLeavesTheSlotEmpty) {
  FpgaSlot slot("slot", SlotParams{});
  slot.add_candidate(1, make_core("aes", CoreParams{CoreKind::kAes128}));
  std::string why;
  ASSERT_TRUE(slot.begin_configuration(sc_core::SC_ZERO_TIME, &why));
  const auto w = image_words(1, 2048);
  slot.configuration_words(w.data(), 10, sc_core::SC_ZERO_TIME);
  slot.abort_configuration();
  EXPECT_TRUE(slot.configuration_failed());
  EXPECT_EQ(slot.configuration_error(), "configuration aborted");
  EXPECT_EQ(slot.state_at(sc_core::SC_ZERO_TIME), SlotState::kEmpty);
  slot.configuration_words(w.data() + 10, w.size() - 10, sc_core::SC_ZERO_TIME);  // ignored
  EXPECT_EQ(slot.core(), nullptr);
  // A new configuration starts afresh.
  ASSERT_TRUE(slot.begin_configuration(sc_core::SC_ZERO_TIME, &why));
  EXPECT_FALSE(slot.configuration_failed());
  slot.configuration_words(w.data(), w.size(), sc_core::SC_ZERO_TIME);
  EXPECT_TRUE(slot.hosts(1));
}

}  // namespace
}  // namespace rsoc::models
