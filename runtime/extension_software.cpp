#include "runtime/extension_software.h"

#include <stdexcept>

#include "models/crypto/bytes.h"
#include "models/crypto/des_on_desrnd.h"

namespace rsoc::runtime {

namespace {

void require(Functionality f) {
  if (!runs_on_desrnd(f))
    throw std::invalid_argument(std::string(info(f).name) + " has no implementation on the desrnd unit");
}

// DES passes a block of `f` takes (the C module is called once per pass).
unsigned passes(Functionality f) {
  return f == Functionality::kTripleDes ? 3 : 1;
}

}  // namespace

bool runs_on_desrnd(Functionality f) {
  return f == Functionality::kDes || f == Functionality::kTripleDes;
}

std::uint64_t extension_cycles_per_block(Functionality f, const ExtensionSoftware& software,
                                         const models::DesrndParams& unit) {
  require(f);
  crypto::DesrndMix mix;
  std::uint64_t calls = 0;
  if (software.integration == ExtensionIntegration::kCModule) {
    // One call of the DES module per pass, each a whole DES block on the unit.
    for (unsigned i = 0; i < passes(f); ++i) mix += crypto::des_block_mix(unit.rounds_per_instruction);
    calls = passes(f);
  } else {
    mix = f == Functionality::kTripleDes ? crypto::triple_des_block_mix(unit.rounds_per_instruction)
                                         : crypto::des_block_mix(unit.rounds_per_instruction);
  }
  return (mix.extension_loads + mix.core_loads) * software.load_cycles +
         mix.extension_reads * software.store_cycles + mix.core_to_extension_moves * software.move_cycles +
         mix.desrnd * unit.cycles_per_instruction + calls * software.call_cycles + software.loop_cycles;
}

std::vector<std::uint8_t> run_on_desrnd(crypto::DesRoundUnit& unit, Functionality f,
                                        const ExtensionSoftware& software,
                                        const std::vector<std::uint8_t>& key,
                                        const std::vector<std::uint8_t>& data, bool encrypt) {
  require(f);
  const FunctionalityInfo& fi = info(f);
  if (key.size() != fi.key_bytes || data.size() % 8 != 0)
    throw std::invalid_argument("run_on_desrnd: bad key or data size");
  std::vector<std::uint8_t> out(data.size());
  const bool c_module = software.integration == ExtensionIntegration::kCModule;
  if (f == Functionality::kDes) {
    crypto::DesOnDesrnd des(unit, crypto::load_be64(key.data()));
    for (std::size_t i = 0; i < data.size(); i += 8) {
      const std::uint64_t x = crypto::load_be64(&data[i]);
      crypto::store_be64(&out[i], encrypt ? des.encrypt(x) : des.decrypt(x));
    }
  } else if (c_module) {
    // E_k3(D_k2(E_k1(x))) as three calls of the DES module; decryption D_k1(E_k2(D_k3(x))).
    crypto::DesOnDesrnd k1(unit, crypto::load_be64(&key[0])), k2(unit, crypto::load_be64(&key[8])),
        k3(unit, crypto::load_be64(&key[16]));
    for (std::size_t i = 0; i < data.size(); i += 8) {
      const std::uint64_t x = crypto::load_be64(&data[i]);
      crypto::store_be64(
          &out[i], encrypt ? k3.encrypt(k2.decrypt(k1.encrypt(x))) : k1.decrypt(k2.encrypt(k3.decrypt(x))));
    }
  } else {
    crypto::TripleDesOnDesrnd tdes(unit, crypto::load_be64(&key[0]), crypto::load_be64(&key[8]),
                                   crypto::load_be64(&key[16]));
    for (std::size_t i = 0; i < data.size(); i += 8) {
      const std::uint64_t x = crypto::load_be64(&data[i]);
      crypto::store_be64(&out[i], encrypt ? tdes.encrypt(x) : tdes.decrypt(x));
    }
  }
  return out;
}

}  // namespace rsoc::runtime
