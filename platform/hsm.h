#pragma once
// The HSM service of a scenario's workload.hsm: the RSA key (drawn from the seed), its wrapped keystore
// record placed in memory, the UART, the core driver and the firmware (runtime/hsm_firmware.h) on the first
// CPU thread.

#include <functional>
#include <memory>
#include <vector>

#include "analysis/stats.h"
#include "models/uart.h"
#include "platform/scenario.h"
#include "runtime/drivers.h"
#include "runtime/hsm_firmware.h"

namespace rsoc::platform {

class HsmService {
 public:
  // Stores bytes in the memory that holds a CPU address (before the simulation starts).
  using Store = std::function<void(std::uint64_t address, const std::vector<std::uint8_t>& bytes)>;
  // Builds the service and stores the wrapped key with `store`.
  HsmService(const ScenarioParams& p, runtime::Scheduler& scheduler, runtime::Manager::Sink sink,
             const Store& store);

  // Starts the RPC tasks and clients; `done` runs when the last client has its last signature.
  void start(std::function<void()> done) { firmware_->start(std::move(done)); }
  // Every signature with its digest (tests verify them); set before start().
  void on_signature(std::function<void(const runtime::HsmFirmware::Signature&)> f) {
    on_signature_ = std::move(f);
  }
  const runtime::RsaKey& key() const { return key_; }
  void add_stats(std::vector<analysis::StatGroup>& out, double end_ms) const;

 private:
  runtime::RsaKey key_;
  models::Uart uart_;
  runtime::CoreDriver driver_;
  std::unique_ptr<runtime::HsmFirmware> firmware_;
  std::function<void(const runtime::HsmFirmware::Signature&)> on_signature_;
};

}  // namespace rsoc::platform
