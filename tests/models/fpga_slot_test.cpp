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

// Feeds words [from, from + n) of `w` to the slot as the bus carries them (little-endian bytes).
void feed_words(FpgaSlot& slot, const std::vector<std::uint32_t>& w, std::size_t from, std::size_t n,
                const sc_core::sc_time& at) {
  std::vector<std::uint8_t> bytes(4 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (int b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<std::uint8_t>(w[from + i] >> (8 * b));
  slot.configuration_words(bytes.data(), n, at);
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
  feed_words(slot, w, 0, 100, ns(200));
  EXPECT_EQ(slot.state_at(ns(200)), SlotState::kConfiguring);
  feed_words(slot, w, 100, w.size() - 100, ns(300));
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
  feed_words(slot, w, 0, 10, sc_core::SC_ZERO_TIME);
  slot.abort_configuration(sc_core::SC_ZERO_TIME);
  EXPECT_TRUE(slot.configuration_failed());
  EXPECT_EQ(slot.configuration_error(), "configuration aborted");
  EXPECT_EQ(slot.state_at(sc_core::SC_ZERO_TIME), SlotState::kEmpty);
  feed_words(slot, w, 10, w.size() - 10, sc_core::SC_ZERO_TIME);  // ignored
  EXPECT_EQ(slot.core(), nullptr);
  // A new configuration starts afresh.
  ASSERT_TRUE(slot.begin_configuration(sc_core::SC_ZERO_TIME, &why));
  EXPECT_FALSE(slot.configuration_failed());
  feed_words(slot, w, 0, w.size(), sc_core::SC_ZERO_TIME);
  EXPECT_TRUE(slot.hosts(1));
}

}  // namespace
}  // namespace rsoc::models
