#pragma once
// The HSM firmware of a scenario's workload.hsm, an application on the runtime: its RSA key (drawn from the
// seed), the wrapped keystore record placed in memory, and the firmware (runtime/hsm_firmware.h) on the first
// CPU thread's scheduler, with the manager's cores and the platform's UART.

#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "models/uart.h"
#include "platform/scenario.h"
#include "runtime/hsm_firmware.h"

namespace rsoc::platform {

// Stores bytes in the memory that holds a CPU address (before the simulation starts).
using Store = std::function<void(std::uint64_t address, const std::vector<std::uint8_t>& bytes)>;

// Builds the firmware and stores its wrapped key with `store`.
std::unique_ptr<runtime::HsmFirmware> make_hsm_firmware(const ScenarioParams& p,
                                                        runtime::Scheduler& scheduler,
                                                        runtime::Manager& manager, models::Uart& uart,
                                                        const Store& store);

}  // namespace rsoc::platform
