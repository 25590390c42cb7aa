#include "platform/hsm.h"

#include <random>

#include "models/crypto/aes128.h"
#include "models/crypto/aes_keywrap.h"

namespace rsoc::platform {

namespace {
std::array<std::uint8_t, 16> kek_of(std::uint64_t seed) {
  std::mt19937_64 rng((seed + 11) * 0xBF58476D1CE4E5B9ull);
  std::array<std::uint8_t, 16> kek{};
  for (auto& b : kek) b = static_cast<std::uint8_t>(rng());
  return kek;
}
}  // namespace

HsmService::HsmService(const ScenarioParams& p, runtime::Scheduler& scheduler, runtime::Manager::Sink sink,
                       const Store& store)
    : key_(runtime::generate_rsa_key(p.hsm->key_bits, p.seed)),
      uart_("uart", models::UartParams{p.hsm->uart_baud, p.hsm->uart_bits_per_byte}),
      driver_(p.runtime.driver) {
  const HsmSpec& h = *p.hsm;
  const auto kek = kek_of(p.seed);
  const auto blob =
      crypto::key_wrap_pad(crypto::Aes128(kek), runtime::serialize_key(key_, h.key_record_bytes));
  store(h.params.blob_address, blob);
  runtime::RsaKey public_key;
  public_key.n = key_.n;
  public_key.e = key_.e;
  firmware_ = std::make_unique<runtime::HsmFirmware>(
      scheduler, uart_, driver_, h.params, public_key, blob.size(), kek,
      [this, sink](const runtime::RequestRecord& r, const runtime::HsmFirmware::Signature& s) {
        if (sink) sink(r);
        if (on_signature_) on_signature_(s);
      });
}

void HsmService::add_stats(std::vector<analysis::StatGroup>& out, double end_ms) const {
  auto util = [end_ms](double busy_ms) { return end_ms > 0 ? busy_ms / end_ms : 0.0; };
  for (auto direction : {models::Uart::Direction::kToDevice, models::Uart::Direction::kToHost}) {
    const bool in = direction == models::Uart::Direction::kToDevice;
    const double busy = uart_.line(direction).busy_time().to_seconds() * 1e3;
    analysis::StatGroup g{std::string("uart.") + (in ? "to_hsm" : "to_hosts"), "uart", {}};
    g.add("busy_ms", busy, "ms", "time the line carried bytes")
        .add("utilization", util(busy), "ratio", "busy time over simulated time")
        .add("bytes", static_cast<double>(uart_.bytes(direction)), "bytes", "bytes carried")
        .add("wait_ms", uart_.line(direction).wait_time().to_seconds() * 1e3, "ms",
             "time senders waited for the line");
    out.push_back(g);
  }
  analysis::StatGroup g{"hsm", "firmware", {}};
  const double seconds = end_ms / 1e3;
  g.add("signatures", static_cast<double>(firmware_->signatures()), "count", "signatures delivered")
      .add("signatures_per_s", seconds > 0 ? static_cast<double>(firmware_->signatures()) / seconds : 0.0,
           "1/s", "signatures over simulated time")
      .add("aes_block_operations", static_cast<double>(firmware_->aes_block_operations()), "count",
           "AES core operations of key unwrapping")
      .add("keystore_contended", static_cast<double>(firmware_->keystore().contended()), "count",
           "times a task found the keystore locked")
      .add("keystore_wait_ms", firmware_->keystore().wait_time().to_seconds() * 1e3, "ms",
           "time tasks waited for the keystore")
      .add("core_polls", static_cast<double>(driver_.polls()), "count", "core status reads by the driver")
      .add("modexp_alloc_attempts", static_cast<double>(firmware_->modexp_alloc_attempts()), "count",
           "attempts to take the modexp cores (one per signature when they are always free)");
  out.push_back(g);
}

}  // namespace rsoc::platform
