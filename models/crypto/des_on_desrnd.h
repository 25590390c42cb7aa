#pragma once
// DES and Triple-DES computed the way software on a core with the desrnd extension computes them
// (models/crypto/des_round_unit.h), with the instruction mix each block costs. Timing contract: untimed; the
// routines count the instructions they issue by kind (DesrndMix) and a cost model turns the counts into
// cycles (per-kind cycles, e.g. desrnd at the extension's cycles per instruction).
//
// Key setup, once per key (not part of the per-block mix): PC-1 gives C0 and D0, the first element of the key
// table, the only one the routines use since the unit rotates the key itself.
//
// One DES block (encryption and decryption alike; only the DEC operand bit differs):
//   LD   C, [key.c0]          extension load
//   LD   D, [key.d0]          extension load
//   LD   L, [in]              extension load
//   LD   r0, [in + 4]         core load, then
//   MOV  R, r0                core-to-extension move (see below)
//   DESRND #op(round 0, IP) ... DESRND #op(round 16 - n, FP)    16 / n instructions, n rounds per instruction
//   ST   L, [out]             extension register read
//   ST   R, [out + 4]         extension register read
// The last register written before a desrnd goes through a core register and a MOV, as in the published
// design: desrnd writes all four registers at once, and the MOV waits (scoreboard) for the core load, so
// every earlier load into an extension register has written back before desrnd reads and overwrites them. A
// pass leaves C, D back at C0, D0; a loop that owns the unit could load the key once per key instead of once
// per block (2 instructions less per block). These routines reload it every block, as the per-block routine
// of an IPSec stack does (another process may have used the unit in between).
//
// Triple DES (EDE, keying option 1, the conventions of TripleDes in des.h): three passes on the same L, R.
// Pass 1 has IP and no FP, pass 2 neither, pass 3 FP and no IP: without FP a pass ends with L‖R = R16‖L16,
// which is IP of its output block, exactly what the next pass starts from. Between passes the software only
// reloads C, D with the next key's C0, D0 (LD C; LD r0; MOV D, r0) and leaves L, R alone.

#include <cstdint>

#include "models/crypto/des_round_unit.h"

namespace rsoc::crypto {

// Instructions issued, by kind.
struct DesrndMix {
  std::uint64_t extension_loads = 0;          // LD from memory straight into an extension register
  std::uint64_t core_loads = 0;               // LD into a core register (a value then moved to the unit)
  std::uint64_t core_to_extension_moves = 0;  // MOV extension register <- core register
  std::uint64_t desrnd = 0;                   // desrnd instructions
  std::uint64_t extension_reads = 0;          // ST of an extension register to memory

  std::uint64_t instructions() const {
    return extension_loads + core_loads + core_to_extension_moves + desrnd + extension_reads;
  }
  DesrndMix& operator+=(const DesrndMix& o);
  friend bool operator==(const DesrndMix& a, const DesrndMix& b) {
    return a.extension_loads == b.extension_loads && a.core_loads == b.core_loads &&
           a.core_to_extension_moves == b.core_to_extension_moves && a.desrnd == b.desrnd &&
           a.extension_reads == b.extension_reads;
  }
  friend bool operator!=(const DesrndMix& a, const DesrndMix& b) { return !(a == b); }
};

// Single DES on `unit` (which must outlive the routine). Blocks are big-endian 64-bit values as in des.h.
class DesOnDesrnd {
 public:
  DesOnDesrnd(DesRoundUnit& unit, std::uint64_t key);

  std::uint64_t encrypt(std::uint64_t block);
  std::uint64_t decrypt(std::uint64_t block);

  // Instructions issued since construction or the last reset_mix().
  const DesrndMix& mix() const { return mix_; }
  void reset_mix() { mix_ = {}; }

 private:
  std::uint64_t run(bool decrypt, std::uint64_t block);

  DesRoundUnit& unit_;
  std::uint32_t c0_, d0_;
  DesrndMix mix_;
};

// Triple DES, E_k3(D_k2(E_k1(x))) and its inverse D_k1(E_k2(D_k3(x))), on `unit`.
class TripleDesOnDesrnd {
 public:
  TripleDesOnDesrnd(DesRoundUnit& unit, std::uint64_t k1, std::uint64_t k2, std::uint64_t k3);

  std::uint64_t encrypt(std::uint64_t block);
  std::uint64_t decrypt(std::uint64_t block);

  const DesrndMix& mix() const { return mix_; }
  void reset_mix() { mix_ = {}; }

 private:
  struct FirstSubkey {
    std::uint32_t c0, d0;
  };
  std::uint64_t run(bool decrypt, std::uint64_t block);

  DesRoundUnit& unit_;
  FirstSubkey k_[3];
  DesrndMix mix_;
};

// The mix of one block (the same for every key, block and direction), measured by running the routine once on
// a scratch unit with `rounds_per_instruction` rounds per desrnd.
DesrndMix des_block_mix(unsigned rounds_per_instruction);
DesrndMix triple_des_block_mix(unsigned rounds_per_instruction);

}  // namespace rsoc::crypto
