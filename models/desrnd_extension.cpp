// The desrnd unit behind the SoftCpu extension interface.
#include "models/desrnd_extension.h"

#include <stdexcept>
#include <string>

namespace rsoc::models {

DesrndExtension::DesrndExtension(const DesrndParams& params)
    : params_(params), unit_(params.rounds_per_instruction) {
  if (params.cycles_per_instruction == 0)
    throw std::invalid_argument("desrnd: cycles per instruction must be at least 1");
}

std::vector<ExtensionRegister> DesrndExtension::registers() const {
  return {{"C", 28}, {"D", 28}, {"L", 32}, {"R", 32}};
}

crypto::DesrndRegister DesrndExtension::reg(std::size_t index) {
  switch (index) {
    case 0:
      return crypto::DesrndRegister::c;
    case 1:
      return crypto::DesrndRegister::d;
    case 2:
      return crypto::DesrndRegister::l;
    case 3:
      return crypto::DesrndRegister::r;
    default:
      throw std::out_of_range("desrnd: no extension register " + std::to_string(index) +
                              " (C, D, L, R: 0..3)");
  }
}

std::uint32_t DesrndExtension::read_register(std::size_t index) const {
  return unit_.read(reg(index));
}

void DesrndExtension::write_register(std::size_t index, std::uint32_t value) {
  unit_.write(reg(index), value);
}

std::unique_ptr<ExtensionUnit> DesrndExtension::new_context() const {
  return std::make_unique<DesrndExtension>(params_);
}

}  // namespace rsoc::models
