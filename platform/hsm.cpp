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

analysis::StatGroup hsm_stats(const runtime::HsmFirmware& f, double end_ms) {
  analysis::StatGroup g{"hsm", "firmware", {}};
  const double seconds = end_ms / 1e3;
  const auto count = [](std::uint64_t n) { return static_cast<double>(n); };
  g.add("signatures", count(f.signatures()), "count", "signatures delivered")
      .add("signatures_per_s", seconds > 0 ? count(f.signatures()) / seconds : 0.0, "1/s",
           "signatures over simulated time")
      .add("aes_block_operations", count(f.aes_block_operations()), "count",
           "AES core operations of key unwrapping")
      .add("core_alloc_attempts", count(f.core_alloc_attempts()), "count",
           "attempts to take cores (one per core, or per pair, when they are free)")
      .add("status_reads", count(f.status_reads()), "count", "core status reads by the firmware")
      .add("blinding_hits", count(f.blinding_hits()), "count", "signatures blinded with cached factors")
      .add("blinding_misses", count(f.blinding_misses()), "count", "signatures that made fresh factors")
      .add("keystore_contended", count(f.keystore().contended()), "count",
           "times a task found the keystore locked")
      .add("keystore_wait_ms", f.keystore().wait_time().to_seconds() * 1e3, "ms",
           "time tasks waited for the keystore");
  return g;
}

}  // namespace rsoc::platform
