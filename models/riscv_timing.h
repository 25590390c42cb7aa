#pragma once
// RISC-V RV32IMC instructions by timing class, and the timing profiles of named soft cores: the CPU cycles
// each class costs on that core, from its published documentation (the source is cited with each profile in
// riscv_timing.cpp). Plain C++, untimed: the instruction-set CPU (models/riscv_hart.h) charges an instruction
// its class's cycles, a taken branch branch_taken instead of branch_not_taken.
//
// Custom instructions: the custom-0 opcode (0x0b, I-type) reaches the CPU's extension unit
// (models/extension_unit.h):
//   funct3 0  xexec  executes one instruction of the unit with operand x[rs1] + imm   (class kExtension:
//                    the unit's cycles_per_instruction)
//   funct3 1  xwr    extension register[imm] <- x[rs1]                                 (class kAlu)
//   funct3 2  xrd    x[rd] <- extension register[imm]                                 (class kAlu)
// In C: asm volatile(".insn i 0x0b, 0, x0, x0, %0" :: "i"(operand)).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rsoc::models {

enum class RvClass {
  kAlu,        // arithmetic and logic with registers or an immediate, lui, auipc, slt*
  kShift,      // sll, srl, sra and their immediate forms
  kMul,        // mul, mulh, mulhsu, mulhu
  kDiv,        // div, divu, rem, remu
  kLoad,       // lb, lh, lw, lbu, lhu (from the local memory)
  kStore,      // sb, sh, sw
  kBranch,     // beq ... bgeu: branch_not_taken, or branch_taken when it is
  kJal,        // jal (and c.j, c.jal)
  kJalr,       // jalr (and c.jr, c.jalr)
  kSystem,     // fence, fence.i, ecall, ebreak, csr*
  kExtension,  // custom-0 xexec: the extension unit's cycles
};
inline constexpr std::size_t kRvClasses = 11;

// A decoded instruction: what the ISS needs of it (its length, class, and a custom instruction's fields).
struct RvInstruction {
  unsigned length = 4;  // 2 for a compressed instruction
  RvClass klass = RvClass::kAlu;
  // custom-0 only
  bool custom = false;
  unsigned funct3 = 0, rd = 0, rs1 = 0;
  std::int32_t imm = 0;
};

// Decodes the instruction whose low bits are `word` (a compressed one uses the low 16 bits); nothing when it
// is not an RV32IMC instruction or a custom-0 one.
std::optional<RvInstruction> decode_rv32imc(std::uint32_t word);

// The cycles of each class on one core.
struct TimingProfile {
  std::string name;    // as a scenario names it (platform.cpus[].timing_profile)
  std::string core;    // the soft core and its configuration
  std::string source;  // where the figures are published
  std::uint32_t branch_taken = 1;
  std::array<std::uint32_t, kRvClasses> cycles{};  // kBranch: not taken; kExtension: unused (the unit's)

  std::uint32_t of(RvClass c) const { return cycles[static_cast<std::size_t>(c)]; }
};

// The built-in profiles, and one by name (nothing when none has it).
const std::vector<TimingProfile>& timing_profiles();
const TimingProfile* find_timing_profile(const std::string& name);
std::vector<std::string> timing_profile_names();

}  // namespace rsoc::models
