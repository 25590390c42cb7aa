#pragma once
// DesrndExtension: the desrnd DES-round unit (models/crypto/des_round_unit.h) as an extension of SoftCpu.
// Timing contract: every desrnd instruction costs cycles_per_instruction CPU cycles (default 1: the published
// unit performs one or two rounds per cycle), whatever its rounds per instruction; register moves are
// ordinary core instructions, costed by the software that issues them.

#include <memory>
#include <string>
#include <vector>

#include "models/crypto/des_round_unit.h"
#include "models/extension_unit.h"

namespace rsoc::models {

struct DesrndParams {
  unsigned rounds_per_instruction = 1;  // 1 or 2 DES rounds per desrnd
  unsigned cycles_per_instruction = 1;  // at least 1
};

class DesrndExtension : public ExtensionUnit {
 public:
  // Throws std::invalid_argument for rounds_per_instruction other than 1 or 2, or zero cycles.
  explicit DesrndExtension(const DesrndParams& params = {});

  std::string name() const override { return "desrnd"; }
  // C, D (28 bits), L, R (32 bits), in that order.
  std::vector<ExtensionRegister> registers() const override;
  unsigned cycles_per_instruction() const override { return params_.cycles_per_instruction; }
  std::uint32_t read_register(std::size_t index) const override;
  void write_register(std::size_t index, std::uint32_t value) override;
  void execute(std::uint32_t operand) override { unit_.desrnd(operand); }
  std::uint64_t instructions() const override { return unit_.instructions(); }
  std::unique_ptr<ExtensionUnit> new_context() const override;

  const DesrndParams& params() const { return params_; }
  crypto::DesRoundUnit& unit() { return unit_; }
  const crypto::DesRoundUnit& unit() const { return unit_; }

 private:
  static crypto::DesrndRegister reg(std::size_t index);

  DesrndParams params_;
  crypto::DesRoundUnit unit_;
};

}  // namespace rsoc::models
