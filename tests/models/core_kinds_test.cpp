// The registry of core kinds and the name tables: every kind is named once, builds its own model (its NAME
// register spells the kind), and a name no table holds is never taken for another value.
#include "models/core_kinds.h"

#include <gtest/gtest.h>

#include "models/crypto/block_function.h"
#include "models/fmc_bus.h"
#include "models/ip_core.h"
#include "models/name_table.h"

namespace rsoc::models {
namespace {

TEST(CoreKinds, EveryKindIsNamedOnceAndBuildsItsOwnModel) {
  EXPECT_EQ(core_kind_names(), (std::vector<std::string>{"aes128", "des", "modexp", "custom"}));
  for (const CoreKindEntry& entry : core_kinds()) {
    EXPECT_EQ(core_kind_from_name(entry.name), entry.kind);
    EXPECT_STREQ(to_string(entry.kind), entry.name);
    CoreParams params;
    params.kind = entry.kind;
    params.custom.computes = crypto::find_block_function("copy");
    const auto core = make_core("c", params);
    tlm::tlm_generic_payload p;
    std::uint32_t words[2] = {};
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(reg::kName0);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(words));
    p.set_data_length(8);
    p.set_streaming_width(8);
    EXPECT_EQ(core->debug(p), 8u);
    std::string name;
    for (const std::uint32_t w : words)
      for (int shift = 24; shift >= 0; shift -= 8) name += static_cast<char>((w >> shift) & 0xFF);
    EXPECT_EQ(name.substr(0, name.find(' ')), entry.name);
  }
  EXPECT_EQ(core_kind_from_name("modexpp"), std::nullopt);
  EXPECT_EQ(core_kind_from_name(""), std::nullopt);
}

TEST(NameTable, NamesFindsAndRefusesWhatItDoesNotHold) {
  EXPECT_EQ(kFmcModeNames.names(), (std::vector<std::string>{"async", "sync"}));
  EXPECT_STREQ(kFmcTimingNames.name(FmcTiming::kWordByWord), "word");
  EXPECT_EQ(kFmcTimingNames.find("burst"), FmcTiming::kBurst);
  EXPECT_EQ(kFmcTimingNames.find("bursts"), std::nullopt);
  EXPECT_EQ(kFmcModeNames.at("sync"), FmcMode::kSync);
  EXPECT_THROW(kFmcModeNames.at("synch"), std::logic_error);
  constexpr NameTable<FmcMode, 1> incomplete{{{{FmcMode::kAsync, "async"}}}};
  EXPECT_THROW(incomplete.name(FmcMode::kSync), std::logic_error);
}

}  // namespace
}  // namespace rsoc::models
