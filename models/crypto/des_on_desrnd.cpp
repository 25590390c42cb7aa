// DES / Triple-DES routines on the desrnd extension, counting the instructions they issue.
#include "models/crypto/des_on_desrnd.h"

#include "models/crypto/des.h"

namespace rsoc::crypto {
namespace {

// The only way the routines touch the unit: one method per instruction kind, each counted in the mix.
class Issuer {
 public:
  Issuer(DesRoundUnit& unit, DesrndMix& mix) : unit_(unit), mix_(mix) {}

  // LD ext, [mem]
  void load(DesrndRegister reg, std::uint32_t value) {
    unit_.write(reg, value);
    ++mix_.extension_loads;
  }
  // LD r0, [mem]; MOV ext, r0
  void load_via_core(DesrndRegister reg, std::uint32_t value) {
    ++mix_.core_loads;
    unit_.write(reg, value);
    ++mix_.core_to_extension_moves;
  }
  // ST ext, [mem]
  std::uint32_t store(DesrndRegister reg) {
    ++mix_.extension_reads;
    return unit_.read(reg);
  }
  // One 16-round pass: DESRND #op for every group of rounds.
  void pass(bool decrypt, bool initial_permutation, bool final_permutation) {
    const unsigned n = unit_.rounds_per_instruction();
    for (unsigned round = 0; round < Des::kRounds; round += n) {
      unit_.desrnd(DesrndOperand::encode(decrypt, round, initial_permutation && round == 0,
                                         final_permutation && round + n == Des::kRounds));
      ++mix_.desrnd;
    }
  }

 private:
  DesRoundUnit& unit_;
  DesrndMix& mix_;
};

std::uint32_t c0_of(std::uint64_t key) {
  return static_cast<std::uint32_t>(Des::pc1(key) >> 28);
}
std::uint32_t d0_of(std::uint64_t key) {
  return static_cast<std::uint32_t>(Des::pc1(key) & DesRoundUnit::kHalfKeyMask);
}

}  // namespace

DesrndMix& DesrndMix::operator+=(const DesrndMix& o) {
  extension_loads += o.extension_loads;
  core_loads += o.core_loads;
  core_to_extension_moves += o.core_to_extension_moves;
  desrnd += o.desrnd;
  extension_reads += o.extension_reads;
  return *this;
}

// --- DesOnDesrnd -------------------------------------------------------------------------------------------

DesOnDesrnd::DesOnDesrnd(DesRoundUnit& unit, std::uint64_t key)
    : unit_(unit), c0_(c0_of(key)), d0_(d0_of(key)) {}

std::uint64_t DesOnDesrnd::run(bool decrypt, std::uint64_t block) {
  Issuer cpu(unit_, mix_);
  cpu.load(DesrndRegister::c, c0_);
  cpu.load(DesrndRegister::d, d0_);
  cpu.load(DesrndRegister::l, static_cast<std::uint32_t>(block >> 32));
  cpu.load_via_core(DesrndRegister::r, static_cast<std::uint32_t>(block));
  cpu.pass(decrypt, true, true);
  const std::uint64_t hi = cpu.store(DesrndRegister::l);
  return (hi << 32) | cpu.store(DesrndRegister::r);
}

std::uint64_t DesOnDesrnd::encrypt(std::uint64_t block) {
  return run(false, block);
}

std::uint64_t DesOnDesrnd::decrypt(std::uint64_t block) {
  return run(true, block);
}

// --- TripleDesOnDesrnd -------------------------------------------------------------------------------------

TripleDesOnDesrnd::TripleDesOnDesrnd(DesRoundUnit& unit, std::uint64_t k1, std::uint64_t k2, std::uint64_t k3)
    : unit_(unit), k_{{c0_of(k1), d0_of(k1)}, {c0_of(k2), d0_of(k2)}, {c0_of(k3), d0_of(k3)}} {}

std::uint64_t TripleDesOnDesrnd::run(bool decrypt, std::uint64_t block) {
  Issuer cpu(unit_, mix_);
  // Encryption E_k1, D_k2, E_k3; decryption D_k3, E_k2, D_k1.
  const FirstSubkey& first = decrypt ? k_[2] : k_[0];
  const FirstSubkey& last = decrypt ? k_[0] : k_[2];
  cpu.load(DesrndRegister::c, first.c0);
  cpu.load(DesrndRegister::d, first.d0);
  cpu.load(DesrndRegister::l, static_cast<std::uint32_t>(block >> 32));
  cpu.load_via_core(DesrndRegister::r, static_cast<std::uint32_t>(block));
  cpu.pass(decrypt, true, false);
  // L, R hold IP of the first pass's output: only the key changes between passes.
  cpu.load(DesrndRegister::c, k_[1].c0);
  cpu.load_via_core(DesrndRegister::d, k_[1].d0);
  cpu.pass(!decrypt, false, false);
  cpu.load(DesrndRegister::c, last.c0);
  cpu.load_via_core(DesrndRegister::d, last.d0);
  cpu.pass(decrypt, false, true);
  const std::uint64_t hi = cpu.store(DesrndRegister::l);
  return (hi << 32) | cpu.store(DesrndRegister::r);
}

std::uint64_t TripleDesOnDesrnd::encrypt(std::uint64_t block) {
  return run(false, block);
}

std::uint64_t TripleDesOnDesrnd::decrypt(std::uint64_t block) {
  return run(true, block);
}

// --- per-block mixes ---------------------------------------------------------------------------------------

DesrndMix des_block_mix(unsigned rounds_per_instruction) {
  DesRoundUnit unit(rounds_per_instruction);
  DesOnDesrnd des(unit, 0);
  des.encrypt(0);
  return des.mix();
}

DesrndMix triple_des_block_mix(unsigned rounds_per_instruction) {
  DesRoundUnit unit(rounds_per_instruction);
  TripleDesOnDesrnd tdes(unit, 0, 0, 0);
  tdes.encrypt(0);
  return tdes.mix();
}

}  // namespace rsoc::crypto
