// The desrnd extension instruction: one or two DES rounds per instruction with the key rotated in the unit.
#include "models/crypto/des_round_unit.h"

#include <cstddef>
#include <string>
#include <utility>

#include "models/crypto/des.h"

namespace rsoc::crypto {
namespace {

std::string hex32(std::uint32_t v) {
  static const char* const digits = "0123456789abcdef";
  std::string s = "0x00000000";
  for (int i = 9; i >= 2; --i, v >>= 4) s[static_cast<std::size_t>(i)] = digits[v & 0xf];
  return s;
}

}  // namespace

std::uint32_t DesrndOperand::encode(bool decrypt, unsigned round, bool initial_permutation,
                                    bool final_permutation) {
  if (round > 15) throw DesrndOperandError("desrnd: round " + std::to_string(round) + " is not in 0..15");
  return (decrypt ? kDecrypt : 0U) | (round << kRoundShift) |
         (initial_permutation ? kInitialPermutation : 0U) | (final_permutation ? kFinalPermutation : 0U);
}

DesRoundUnit::DesRoundUnit(unsigned rounds_per_instruction)
    : rounds_per_instruction_(rounds_per_instruction) {
  if (rounds_per_instruction != 1 && rounds_per_instruction != 2)
    throw std::invalid_argument("desrnd: rounds per instruction must be 1 or 2, got " +
                                std::to_string(rounds_per_instruction));
}

std::uint32_t DesRoundUnit::read(DesrndRegister reg) const {
  switch (reg) {
    case DesrndRegister::c:
      return c_;
    case DesrndRegister::d:
      return d_;
    case DesrndRegister::l:
      return l_;
    case DesrndRegister::r:
      return r_;
  }
  throw std::invalid_argument("desrnd: no such register");
}

void DesRoundUnit::write(DesrndRegister reg, std::uint32_t value) {
  switch (reg) {
    case DesrndRegister::c:
      return set_c(value);
    case DesrndRegister::d:
      return set_d(value);
    case DesrndRegister::l:
      return set_l(value);
    case DesrndRegister::r:
      return set_r(value);
  }
  throw std::invalid_argument("desrnd: no such register");
}

void DesRoundUnit::check(std::uint32_t operand) const {
  const unsigned round = (operand & DesrndOperand::kRoundMask) >> DesrndOperand::kRoundShift;
  const auto illegal = [&](const std::string& why) {
    throw DesrndOperandError("desrnd " + hex32(operand) + ": " + why);
  };
  if (operand & DesrndOperand::kReserved) illegal("reserved operand bits set");
  if (round % rounds_per_instruction_ != 0)
    illegal("round " + std::to_string(round) + " is not a multiple of " +
            std::to_string(rounds_per_instruction_) + " (rounds per instruction)");
  if ((operand & DesrndOperand::kInitialPermutation) && round != 0)
    illegal("IP on round " + std::to_string(round) + " (only on round 0)");
  if ((operand & DesrndOperand::kFinalPermutation) && round + rounds_per_instruction_ != Des::kRounds)
    illegal("FP on an instruction that does not end the pass (round " + std::to_string(round) + ")");
}

void DesRoundUnit::desrnd(std::uint32_t operand) {
  check(operand);
  const bool decrypt = (operand & DesrndOperand::kDecrypt) != 0;
  const unsigned first = (operand & DesrndOperand::kRoundMask) >> DesrndOperand::kRoundShift;
  std::uint32_t c = c_, d = d_, l = l_, r = r_;
  if (operand & DesrndOperand::kInitialPermutation) {
    const std::uint64_t x = Des::initial_permutation((std::uint64_t{l} << 32) | r);
    l = static_cast<std::uint32_t>(x >> 32);
    r = static_cast<std::uint32_t>(x);
  }
  for (unsigned i = first; i < first + rounds_per_instruction_; ++i) {
    if (!decrypt) {
      const int n = Des::kRotations[i];
      c = Des::rotate28(c, n);
      d = Des::rotate28(d, n);
    }
    const std::uint32_t next_r = l ^ Des::feistel(r, Des::pc2(c, d));
    l = r;
    r = next_r;
    if (decrypt) {
      const int n = Des::kRotations[Des::kRounds - 1 - i];
      c = Des::rotate28(c, -n);
      d = Des::rotate28(d, -n);
    }
  }
  if (first + rounds_per_instruction_ == Des::kRounds) std::swap(l, r);  // round 16 leaves R16‖L16
  if (operand & DesrndOperand::kFinalPermutation) {
    const std::uint64_t x = Des::final_permutation((std::uint64_t{l} << 32) | r);
    l = static_cast<std::uint32_t>(x >> 32);
    r = static_cast<std::uint32_t>(x);
  }
  c_ = c;
  d_ = d;
  l_ = l;
  r_ = r;
  ++instructions_;
}

}  // namespace rsoc::crypto
