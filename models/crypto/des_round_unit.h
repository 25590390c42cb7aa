#pragma once
// DesRoundUnit: the exact semantics of the `desrnd` CPU extension instruction (an ARC core extended with a
// DES datapath; the published design: scenarios/desrnd_3des.md). Timing contract: untimed; the unit counts
// the desrnd instructions it executes and the CPU model turns counts into cycles (models/extension_unit.h:
// cycles per instruction).
//
// --- Architectural state ---------------------------------------------------------------------------------
// Four extension core registers, and nothing else (no hidden round counter, no key table): the round position
// travels in the operand, so the registers are the whole context an OS saves on a context switch.
//   C  28 bits  key half C_i, in the low bits (PC-1 output bit 1 is the register's bit 27)
//   D  28 bits  key half D_i
//   L  32 bits  left data half: the first (most significant, big-endian) word of the block
//   R  32 bits  right data half: the second word
// Core writes (LD into an extension register, MOV from a core register) are 32 bits wide; C and D keep the
// low 28 bits and drop the others, as the register hardware does. Reads return the register zero-extended.
//
// --- Instruction: desrnd <operand> -----------------------------------------------------------------------
// Reads C, D, L, R; writes all four at once. Performs rounds_per_instruction (1 or 2, fixed per unit: it is a
// build option of the hardware) consecutive DES rounds of one 16-round pass. The operand is a 32-bit value
// (an immediate in the routines, which unroll the 16 rounds):
//   bit 0     DEC   0: encryption round(s), 1: decryption round(s)
//   bits 4..1 ROUND position in the pass of the first round this instruction performs, 0..15. It must be a
//                   multiple of rounds_per_instruction. Decryption counts from its own start: ROUND 0 is the
//                   round that uses K16.
//   bit 5     IP    before the first round, replace L‖R by IP(L‖R). Allowed only with ROUND = 0.
//   bit 6     FP    after round 16, replace L‖R by IP^-1(L‖R). Allowed only on the instruction that performs
//                   the pass's last round (ROUND = 16 - rounds_per_instruction).
//   bits 31..7      reserved, must be 0.
// IP and IP^-1 are wiring in hardware, so applying them costs nothing; they are separate bits so that 3DES
// can skip the IP^-1 / IP pair between passes, which cancel.
//
// One round with index i in the pass (0-based):
//   encryption: C, D <- rotl28(C, D by kRotations[i]); K = PC-2(C, D); L, R <- R, L xor f(R, K)
//   decryption: K = PC-2(C, D); L, R <- R, L xor f(R, K); C, D <- rotr28(C, D by kRotations[15 - i])
// so both directions start from C0, D0 (= C16, D16, the rotations of a pass add up to 28) and both leave C, D
// back at C0, D0 after round 16: software loads the same first subkey (PC-1 of the key) for either direction,
// and a pass leaves the key loaded for the next block. The instruction that performs round 16 leaves the
// halves unswapped, i.e. L‖R = R16‖L16, the FIPS 46-3 preoutput; FP then makes it the output block, and
// without FP it is exactly IP(output), the input a following pass expects with its IP bit clear.
//
// A bad operand (reserved bit set, ROUND not a multiple of rounds_per_instruction, IP or FP on the wrong
// round) raises an illegal-instruction exception: DesrndOperandError, with the registers unchanged and the
// instruction not counted.

#include <cstdint>
#include <stdexcept>

namespace rsoc::crypto {

// A desrnd operand the unit does not accept (the model of the illegal-instruction exception).
class DesrndOperandError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Operand fields (see the contract above).
struct DesrndOperand {
  static constexpr std::uint32_t kDecrypt = 1U << 0;
  static constexpr int kRoundShift = 1;
  static constexpr std::uint32_t kRoundMask = 0xfU << kRoundShift;
  static constexpr std::uint32_t kInitialPermutation = 1U << 5;
  static constexpr std::uint32_t kFinalPermutation = 1U << 6;
  static constexpr std::uint32_t kReserved = ~std::uint32_t{0x7f};

  // The operand of an instruction starting at `round` (0..15); throws DesrndOperandError when round > 15.
  static std::uint32_t encode(bool decrypt, unsigned round, bool initial_permutation, bool final_permutation);
};

// The extension registers, in the order of their extension register numbers.
enum class DesrndRegister { c, d, l, r };

class DesRoundUnit {
 public:
  static constexpr std::uint32_t kHalfKeyMask = 0x0fffffffU;

  // rounds_per_instruction: 1 or 2; anything else throws std::invalid_argument. Registers start at zero.
  explicit DesRoundUnit(unsigned rounds_per_instruction = 1);

  unsigned rounds_per_instruction() const { return rounds_per_instruction_; }
  // desrnd instructions in one 16-round pass.
  unsigned instructions_per_pass() const { return 16 / rounds_per_instruction_; }

  std::uint32_t c() const { return c_; }
  std::uint32_t d() const { return d_; }
  std::uint32_t l() const { return l_; }
  std::uint32_t r() const { return r_; }
  void set_c(std::uint32_t value) { c_ = value & kHalfKeyMask; }
  void set_d(std::uint32_t value) { d_ = value & kHalfKeyMask; }
  void set_l(std::uint32_t value) { l_ = value; }
  void set_r(std::uint32_t value) { r_ = value; }
  // The same by register: write() is a core write (C and D masked to 28 bits).
  std::uint32_t read(DesrndRegister reg) const;
  void write(DesrndRegister reg, std::uint32_t value);

  // Executes one desrnd instruction (see the contract above).
  void desrnd(std::uint32_t operand);

  // desrnd instructions executed since construction or the last reset_instructions().
  std::uint64_t instructions() const { return instructions_; }
  void reset_instructions() { instructions_ = 0; }

 private:
  // Throws DesrndOperandError unless `operand` is legal for this unit.
  void check(std::uint32_t operand) const;

  unsigned rounds_per_instruction_;
  std::uint32_t c_ = 0, d_ = 0, l_ = 0, r_ = 0;
  std::uint64_t instructions_ = 0;
};

}  // namespace rsoc::crypto
