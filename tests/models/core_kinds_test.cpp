// The registry of core kinds and the name tables: every kind is named once, builds its own model (its NAME
// register spells the kind), and a name no table holds is never taken for another value.
#include "models/core_kinds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/crypto/block_function.h"
#include "models/fmc_bus.h"
#include "models/ip_core.h"
#include "models/name_table.h"

namespace rsoc::models {
namespace {

TEST(CoreKinds, EveryKindIsNamedOnceAndBuildsItsOwnModel) {
  const std::vector<std::string> names = core_kind_names();
  EXPECT_EQ(names.size(), core_kinds().size());
  EXPECT_NE(std::find(names.begin(), names.end(), "modexp"), names.end());
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

TEST(CoreKinds, NumberTheBuiltInFunctionalitiesInTheirOrderEachOfItsKind) {
  const std::vector<const FunctionalityInfo*>& all = builtin_functionality_infos();
  ASSERT_FALSE(all.empty());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i]->id, i) << all[i]->name;
    EXPECT_EQ(&core_kind(all[i]->core).functionalities[0] <= all[i], true) << all[i]->name;
  }
  const auto des =
      std::find_if(all.begin(), all.end(), [](const auto* f) { return std::string(f->name) == "3des"; });
  ASSERT_NE(des, all.end());
  EXPECT_EQ((*des)->core, CoreKind::kDes);
  EXPECT_EQ(std::string(core_kind(CoreKind::kDes).functionalities[1].name), "3des");
}

using Kinds = std::vector<std::reference_wrapper<const CoreKindEntry>>;

// What the registration check says of `kinds`: "accepted", or why not.
std::string refusal(const Kinds& kinds) {
  try {
    check_core_kind_registration(kinds);
  } catch (const std::logic_error& e) {
    return std::string(e.what());
  }
  return std::string("accepted");
}

TEST(CoreKinds, ABrokenRegistrationIsRefusedWithTheKindItNames) {
  EXPECT_NO_THROW(check_core_kind_registration(core_kinds()));
  EXPECT_EQ(refusal({kAes128Kind, kAes128Kind}), "core kind aes128 (models/core_kinds.h): registered twice");
  // Out of order, the built-ins' ids are not the order of the registry.
  EXPECT_EQ(refusal({kDesKind, kAes128Kind}),
            "core kind des (models/core_kinds.h): functionality des must have id 0 and this kind");
  CoreKindEntry no_reference = {CoreKind::kCustom,
                                "mine",
                                "a kind without its reference",
                                kCustomKind.make,
                                {},
                                kCustomKind.interface,
                                kCustomKind.cycles_per_block,
                                nullptr};
  EXPECT_EQ(
      refusal({kAes128Kind, no_reference}),
      "core kind mine (models/core_kinds.h): a name, doc, make, interface, cycles_per_block and reference "
      "are required");
  CoreKindEntry wrong_kind = kAes128Kind;
  wrong_kind.functionalities[0].core = CoreKind::kDes;
  EXPECT_EQ(refusal({wrong_kind}),
            "core kind aes128 (models/core_kinds.h): functionality aes128 must have id 0 and this kind");
}

// A kind's own parameters: shared keys must take the same values, defaults must be values, and every part
// is given; the keys are listed once, with every kind's parameter that takes them.
TEST(CoreKinds, AKindsOwnParametersAreCheckedAndListedOncePerKey) {
  const auto& by_key = kind_params_by_key();
  const auto setup = std::find_if(by_key.begin(), by_key.end(),
                                  [](const auto& ps) { return std::string(ps[0]->key) == "setup_cycles"; });
  ASSERT_NE(setup, by_key.end());
  ASSERT_EQ(setup->size(), 2u);  // modexp's precomputation, a custom core's set-up
  EXPECT_EQ(setup->at(0), &kModexpKind.params[4]);
  EXPECT_EQ(setup->at(1), &kCustomKind.params[0]);
  for (const auto& ps : by_key)
    EXPECT_EQ(std::count_if(by_key.begin(), by_key.end(),
                            [&](const auto& other) { return std::string(other[0]->key) == ps[0]->key; }),
              1);
  // Setting one writes the kind's field.
  CoreParams params;
  kModexpKind.params[1].set(params, 64);
  EXPECT_EQ(params.multiplier_width_bits, 64u);
  kModexpKind.params[0].set(params, 1);
  EXPECT_EQ(params.modexp_architecture, ModexpArchitecture::kModExpA7);

  CoreKindEntry custom = kCustomKind;
  custom.params[0].max = 7;  // setup_cycles: other values than modexp's
  EXPECT_EQ(
      refusal({kAes128Kind, kDesKind, kModexpKind, custom}),
      "core kind custom (models/core_kinds.h): parameter setup_cycles takes other values than core kind "
      "modexp's");
  custom = kCustomKind;
  custom.params[0].fallback = 2000000000;
  EXPECT_EQ(
      refusal({kAes128Kind, kDesKind, kModexpKind, custom}),
      "core kind custom (models/core_kinds.h): parameter setup_cycles: expected min <= fallback <= max");
  CoreKindEntry modexp = kModexpKind;
  modexp.params[0].default_choice = "fastest";
  EXPECT_EQ(
      refusal({kAes128Kind, kDesKind, modexp}),
      "core kind modexp (models/core_kinds.h): parameter architecture: its default_choice must be one of "
      "its choices");
  modexp = kModexpKind;
  modexp.params[2].set = nullptr;
  EXPECT_EQ(
      refusal({kAes128Kind, kDesKind, modexp}),
      "core kind modexp (models/core_kinds.h): parameter montmul_overhead_cycles needs a doc and a set");
}

// What scenarios/README.md shows: a new kind registered after the others numbers its functionalities from
// the next id.
TEST(CoreKinds, ANewKindAfterTheRegisteredOnesTakesTheNextIds) {
  Kinds kinds = core_kinds();
  const auto next = static_cast<unsigned>(builtin_functionality_infos().size());
  CoreKindEntry chacha = kCustomKind;  // its hooks stand in for a new kind's
  chacha.name = "chacha20";
  chacha.kind = static_cast<CoreKind>(99);
  chacha.functionalities[0] = {next, "chacha20", 64, 32, chacha.kind, 0, false};
  kinds.emplace_back(chacha);
  EXPECT_NO_THROW(check_core_kind_registration(kinds));
  chacha.functionalities[0].id = next + 1;  // a gap
  kinds.back() = chacha;
  EXPECT_THROW(check_core_kind_registration(kinds), std::logic_error);
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
