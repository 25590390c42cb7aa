#include "platform/hsm.h"

#include <random>

#include "models/crypto/aes128.h"
#include "models/crypto/aes_keywrap.h"

namespace rsoc::platform {

namespace {
// The KEK: 256 bits, as the firmware's (libhal hal_internal.h KEK_LENGTH).
crypto::Aes256::Key kek_of(std::uint64_t seed) {
  std::mt19937_64 rng((seed + 11) * 0xBF58476D1CE4E5B9ull);
  crypto::Aes256::Key kek{};
  for (auto& b : kek) b = static_cast<std::uint8_t>(rng());
  return kek;
}
}  // namespace

std::unique_ptr<runtime::HsmFirmware> make_hsm_firmware(const ScenarioParams& p,
                                                        runtime::Scheduler& scheduler,
                                                        runtime::Manager& manager, models::Uart& uart,
                                                        const Store& store) {
  const HsmSpec& h = *p.hsm;
  const crypto::RsaKey key = crypto::generate_rsa_key(h.key_bits, p.seed);
  const auto kek = kek_of(p.seed);
  const crypto::Aes256 cipher(kek);
  const auto blob =
      crypto::key_wrap_pad(crypto::aes_block_cipher(cipher), runtime::serialize_key(key, h.key_record_bytes));
  store(h.params.blob_address, blob);
  return std::make_unique<runtime::HsmFirmware>(scheduler, manager, uart, h.params, key, blob.size(), kek);
}

}  // namespace rsoc::platform
