// Software on the desrnd extension: per-block cycles from the routines' instruction mix, and outputs computed
// on the unit equal to FIPS 46-3 DES / 3DES in both integrations.
#include "runtime/extension_software.h"

#include <gtest/gtest.h>

#include <random>

using namespace rsoc;
using runtime::ExtensionIntegration;
using runtime::ExtensionSoftware;
using runtime::Functionality;

namespace {

ExtensionSoftware software(ExtensionIntegration integration) {
  ExtensionSoftware s;
  s.integration = integration;
  s.load_cycles = 2;
  s.store_cycles = 3;
  s.move_cycles = 5;
  s.call_cycles = 12;
  s.loop_cycles = 4;
  return s;
}

}  // namespace

TEST(ExtensionSoftware, CyclesPerBlockAreTheInstructionMixAtItsCosts) {
  const ExtensionSoftware asm_ = software(ExtensionIntegration::kInlineAsm);
  const ExtensionSoftware c = software(ExtensionIntegration::kCModule);
  const models::DesrndParams two{2, 1}, one{1, 1}, slow{2, 3};
  // DES: 3 extension loads + 1 core load (2 cycles each), 1 move (5), 16/n desrnd, 2 stores (3), loop 4.
  EXPECT_EQ(runtime::extension_cycles_per_block(Functionality::kDes, asm_, two), 4 * 2 + 5 + 8 + 2 * 3 + 4u);
  EXPECT_EQ(runtime::extension_cycles_per_block(Functionality::kDes, asm_, one), 4 * 2 + 5 + 16 + 2 * 3 + 4u);
  EXPECT_EQ(runtime::extension_cycles_per_block(Functionality::kDes, asm_, slow),
            4 * 2 + 5 + 8 * 3 + 2 * 3 + 4u);
  // The C module adds one call per DES pass.
  EXPECT_EQ(runtime::extension_cycles_per_block(Functionality::kDes, c, two),
            4 * 2 + 5 + 8 + 2 * 3 + 12 + 4u);
  // 3DES in line: the data stay in the unit; the key halves of passes 2 and 3 are reloaded (C directly, D
  // through a core register): 5 + 3 loads, 3 moves, 48/n desrnd, 2 stores.
  EXPECT_EQ(runtime::extension_cycles_per_block(Functionality::kTripleDes, asm_, two),
            8 * 2 + 3 * 5 + 24 + 2 * 3 + 4u);
  // 3DES through the C module: three whole DES calls.
  EXPECT_EQ(runtime::extension_cycles_per_block(Functionality::kTripleDes, c, two),
            3 * (4 * 2 + 5 + 8 + 2 * 3 + 12) + 4u);
  EXPECT_THROW(runtime::extension_cycles_per_block(Functionality::kAes128, asm_, two), std::invalid_argument);
}

TEST(ExtensionSoftware, OutputsOnTheUnitEqualTheReferenceCipherInBothIntegrations) {
  std::mt19937_64 rng(46);
  std::vector<std::uint8_t> data(8 * 64);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  for (Functionality f : {Functionality::kDes, Functionality::kTripleDes}) {
    std::vector<std::uint8_t> key(runtime::info(f).key_bytes);
    for (auto& b : key) b = static_cast<std::uint8_t>(rng());
    for (auto integration : {ExtensionIntegration::kCModule, ExtensionIntegration::kInlineAsm})
      for (unsigned rpi : {1u, 2u})
        for (bool encrypt : {true, false}) {
          crypto::DesRoundUnit unit(rpi);
          const auto out = runtime::run_on_desrnd(unit, f, software(integration), key, data, encrypt);
          EXPECT_EQ(out, runtime::reference_output(f, key, data, encrypt))
              << runtime::info(f).name << " " << runtime::kExtensionIntegrationNames.name(integration)
              << " rpi " << rpi;
          EXPECT_EQ(unit.instructions(), 64u * (f == Functionality::kDes ? 16 : 48) / rpi);
        }
  }
  crypto::DesRoundUnit unit(2);
  EXPECT_THROW(runtime::run_on_desrnd(unit, Functionality::kDes, software(ExtensionIntegration::kInlineAsm),
                                      std::vector<std::uint8_t>(8), std::vector<std::uint8_t>(7), true),
               std::invalid_argument);
}
