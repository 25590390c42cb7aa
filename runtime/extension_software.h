#pragma once
// Software that uses a CPU extension instruction: DES and 3DES on the desrnd unit
// (models/desrnd_extension.h), in the two integrations of the published design (scenarios/desrnd_3des.md):
//   C module    the cipher module of the stack replaced by a nearly empty duplicate whose macros issue the
//               instructions. The stack calls it once per DES pass, so a 3DES block is three calls, each
//               loading the key and the data, with IP and IP^-1, and storing the data back.
//   in-line asm the instructions inserted in the DES and 3DES routines themselves: one call per block; 3DES
//               keeps the data in the unit between its passes and only reloads the key halves.
// Timing contract: a block costs its instruction mix (models/crypto/des_on_desrnd.h) at the given cycles per
// core load, core store, core-to-extension move and desrnd instruction, plus call_cycles per call of the
// module and loop_cycles per block. The values are computed on the calling hardware thread's own unit, so
// the output is what the instructions produce.

#include <cstdint>
#include <string>
#include <vector>

#include "models/desrnd_extension.h"
#include "models/name_table.h"
#include "runtime/functionality.h"

namespace rsoc::runtime {

enum class ExtensionIntegration { kCModule, kInlineAsm };
inline constexpr models::NameTable<ExtensionIntegration, 2> kExtensionIntegrationNames{
    {{{ExtensionIntegration::kCModule, "c_module"}, {ExtensionIntegration::kInlineAsm, "inline_asm"}}}};

struct ExtensionSoftware {
  std::string unit = "desrnd";  // the CPU extension the software uses
  ExtensionIntegration integration = ExtensionIntegration::kInlineAsm;
  std::uint64_t load_cycles = 1;   // LD into a core or extension register
  std::uint64_t store_cycles = 1;  // ST of an extension register
  std::uint64_t move_cycles = 1;   // MOV extension register <- core register
  std::uint64_t call_cycles = 0;   // one call of the cipher module: call, prologue, epilogue, return
  std::uint64_t loop_cycles = 0;   // per block: pointers, counter, branch
};

// Whether `f` has an implementation on the desrnd unit (DES and 3DES).
bool runs_on_desrnd(Functionality f);

// CPU cycles of one block of `f` with `software` on a unit of `unit` (rounds and cycles per instruction).
// Throws std::invalid_argument when `f` does not run on the unit.
std::uint64_t extension_cycles_per_block(Functionality f, const ExtensionSoftware& software,
                                         const models::DesrndParams& unit);

// Processes `data` (whole blocks) with `f`'s key on `unit`, as `software` issues the instructions.
std::vector<std::uint8_t> run_on_desrnd(crypto::DesRoundUnit& unit, Functionality f,
                                        const ExtensionSoftware& software,
                                        const std::vector<std::uint8_t>& key,
                                        const std::vector<std::uint8_t>& data, bool encrypt);

}  // namespace rsoc::runtime
