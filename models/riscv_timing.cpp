#include "models/riscv_timing.h"

#include <algorithm>

namespace rsoc::models {

namespace {

std::optional<RvInstruction> make(unsigned length, RvClass klass) {
  RvInstruction i;
  i.length = length;
  i.klass = klass;
  return i;
}

// The 32-bit encodings (RISC-V unprivileged ISA, chapter "RV32/64G Instruction Set Listings").
std::optional<RvInstruction> decode32(std::uint32_t w) {
  const unsigned funct3 = (w >> 12) & 7, funct7 = w >> 25;
  switch (w & 0x7f) {
    case 0x37:  // lui
    case 0x17:  // auipc
      return make(4, RvClass::kAlu);
    case 0x6f:
      return make(4, RvClass::kJal);
    case 0x67:
      if (funct3 == 0) return make(4, RvClass::kJalr);
      break;
    case 0x63:
      if (funct3 != 2 && funct3 != 3) return make(4, RvClass::kBranch);
      break;
    case 0x03:
      if (funct3 != 3 && funct3 < 6) return make(4, RvClass::kLoad);
      break;
    case 0x23:
      if (funct3 < 3) return make(4, RvClass::kStore);
      break;
    case 0x13:
      if (funct3 == 1) {
        if (funct7 == 0) return make(4, RvClass::kShift);
      } else if (funct3 == 5) {
        if (funct7 == 0 || funct7 == 0x20) return make(4, RvClass::kShift);
      } else {
        return make(4, RvClass::kAlu);
      }
      break;
    case 0x33:
      if (funct7 == 1) return make(4, funct3 < 4 ? RvClass::kMul : RvClass::kDiv);
      if (funct7 == 0 || (funct7 == 0x20 && (funct3 == 0 || funct3 == 5)))
        return make(4, funct3 == 1 || funct3 == 5 ? RvClass::kShift : RvClass::kAlu);
      break;
    case 0x0f:  // fence, fence.i
      if (funct3 < 2) return make(4, RvClass::kSystem);
      break;
    case 0x73:  // ecall, ebreak, csr*
      if (funct3 != 4) return make(4, RvClass::kSystem);
      break;
    case 0x0b:  // custom-0
      if (funct3 < 3) {
        RvInstruction i;
        i.klass = funct3 == 0 ? RvClass::kExtension : RvClass::kAlu;
        i.custom = true;
        i.funct3 = funct3;
        i.rd = (w >> 7) & 31;
        i.rs1 = (w >> 15) & 31;
        i.imm = static_cast<std::int32_t>(w) >> 20;
        return i;
      }
      break;
    default:
      break;
  }
  return std::nullopt;
}

// The compressed encodings of RV32C without floating point (chapter "C" Standard Extension, its opcode map).
std::optional<RvInstruction> decode16(std::uint32_t w) {
  w &= 0xffff;
  if (w == 0) return std::nullopt;  // the all-zero defined illegal instruction
  const unsigned funct3 = w >> 13, bit12 = (w >> 12) & 1, rs1 = (w >> 7) & 31, rs2 = (w >> 2) & 31;
  switch (w & 3) {
    case 0:
      if (funct3 == 0) return (w & 0x1fe0) ? make(2, RvClass::kAlu) : std::nullopt;  // c.addi4spn
      if (funct3 == 2) return make(2, RvClass::kLoad);                               // c.lw
      if (funct3 == 6) return make(2, RvClass::kStore);                              // c.sw
      return std::nullopt;                                                           // floating point
    case 1:
      switch (funct3) {
        case 1:  // c.jal
        case 5:  // c.j
          return make(2, RvClass::kJal);
        case 6:  // c.beqz
        case 7:  // c.bnez
          return make(2, RvClass::kBranch);
        case 4: {
          const unsigned op = (w >> 10) & 3;
          if (op < 2)
            return bit12 ? std::nullopt : make(2, RvClass::kShift);  // c.srli, c.srai (RV32: shamt < 32)
          if (op == 2) return make(2, RvClass::kAlu);                // c.andi
          return bit12 ? std::nullopt : make(2, RvClass::kAlu);      // c.sub, c.xor, c.or, c.and
        }
        default:  // c.nop/c.addi, c.li, c.addi16sp/c.lui
          return make(2, RvClass::kAlu);
      }
    case 2:
      if (funct3 == 0) return bit12 ? std::nullopt : make(2, RvClass::kShift);  // c.slli
      if (funct3 == 2) return rs1 ? make(2, RvClass::kLoad) : std::nullopt;     // c.lwsp
      if (funct3 == 6) return make(2, RvClass::kStore);                         // c.swsp
      if (funct3 == 4) {
        if (rs2 != 0) return make(2, RvClass::kAlu);                            // c.mv, c.add
        if (rs1 == 0) return bit12 ? make(2, RvClass::kSystem) : std::nullopt;  // c.ebreak
        return make(2, RvClass::kJalr);                                         // c.jr, c.jalr
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<RvInstruction> decode_rv32imc(std::uint32_t word) {
  return (word & 3) == 3 ? decode32(word) : decode16(word);
}

const std::vector<TimingProfile>& timing_profiles() {
  static const std::vector<TimingProfile> profiles = [] {
    // Cycles by class: alu, shift, mul, div, load, store, branch not taken, jal, jalr, system (then taken
    // branches apart). Every figure assumes a single-cycle local memory for fetches and data, as the
    // published tables do. Where a figure depends on the data (a shift's amount) the profile takes its mean
    // over the possible amounts; compressed instructions cost what their 32-bit forms cost on all three.
    std::vector<TimingProfile> p;
    p.push_back(
        {"picorv32",
         "PicoRV32 (dual-port registers, two-stage shift, ENABLE_MUL, ENABLE_DIV, C)",
         "YosysHQ/picorv32 README.md at 87c89ac, 'Cycles per Instruction Performance' (lines 344-360): "
         "ALU 3, branch not taken 3 / taken 5, load and store 5, jal 3, jalr 6, shifts 4-14 (the mean "
         "over shift amounts, 4 + amount/4 + amount mod 4 per picorv32.v, is 9), MUL 40 (MULH 72), "
         "DIV/REM 40; system: rdcycle, 4, from simulating picorv32.v (not in the README)",
         5,
         {3, 9, 40, 40, 5, 5, 3, 3, 6, 4, 0}});
    p.push_back(
        {"picorv32_fast",
         "PicoRV32 (as picorv32 with BARREL_SHIFTER and ENABLE_FAST_MUL)",
         "YosysHQ/picorv32 README.md at 87c89ac (lines 344-363): as picorv32, shifts with BARREL_SHIFTER "
         "as any ALU operation (3); the single-cycle multiplier (PCPI picorv32_pcpi_fast_mul) 6 cycles "
         "from simulating picorv32.v (the README gives no count)",
         5,
         {3, 3, 6, 40, 5, 5, 3, 3, 6, 4, 0}});
    p.push_back(
        {"neorv32",
         "NEORV32 v1.13.5 (rv32imc_Zicsr, CPU_FAST_MUL_EN and CPU_FAST_SHIFT_EN off)",
         "stnolting/neorv32 docs/datasheet/cpu_isa.adoc at b3f3908 (lines 142-206, 417): ALU 2, shifts 3 "
         "+ amount (mean 19), branch not taken 3 / taken 5 + 1, jal/jalr 5 + 1, load/store 4 + 1, "
         "mul and div 3 + 32, csr 3",
         6,
         {2, 19, 35, 35, 5, 5, 3, 6, 6, 3, 0}});
    p.push_back(
        {"neorv32_fast",
         "NEORV32 v1.13.5 (as neorv32 with CPU_FAST_MUL_EN and CPU_FAST_SHIFT_EN)",
         "stnolting/neorv32 docs/datasheet/cpu_isa.adoc at b3f3908: as neorv32, shifts 3 + 1, mul 3 + "
         "CPU_FAST_MUL_REGS (1)",
         6,
         {2, 4, 4, 35, 5, 5, 3, 6, 6, 3, 0}});
    p.push_back({"hazard3",
                 "Hazard3 (defaults: MULDIV_UNROLL 1, MUL_FAST 0, no branch predictor; 2-port)",
                 "Wren6991/Hazard3 doc/sections/instruction_timings.adoc at 8272910 (lines 11-114): ALU and "
                 "shifts 1, load 1 (a dependent next instruction adds 1, not modelled), store 1, branch not "
                 "taken 1 / taken 2 (mispredicted), jal and jalr 2, csr 1; mul 34 and div 35 from simulating "
                 "the default configuration (the table assumes MULDIV_UNROLL 2 and MUL_FAST)",
                 2,
                 {1, 1, 34, 35, 1, 1, 1, 2, 2, 1, 0}});
    return p;
  }();
  return profiles;
}

const TimingProfile* find_timing_profile(const std::string& name) {
  const auto& all = timing_profiles();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const TimingProfile& p) { return p.name == name; });
  return it == all.end() ? nullptr : &*it;
}

std::vector<std::string> timing_profile_names() {
  std::vector<std::string> names;
  for (const TimingProfile& p : timing_profiles()) names.push_back(p.name);
  return names;
}

}  // namespace rsoc::models
