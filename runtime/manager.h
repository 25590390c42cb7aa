#pragma once
// The centralized manager of the modeled OS: functionalities registered with their software implementation
// (a cycle cost on the CPU) and their hardware implementation (core designs with partial bitstreams), slot
// bookkeeping with module caching, and the per-request choice between the two. Applications call request().
// Timing contract: software costs cycles_per_request + blocks * cycles_per_block CPU cycles; hardware costs
// the configuration (when the core is not resident) plus what the PIO driver does over the bus models.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/fpga_slot.h"
#include "models/soft_cpu.h"
#include "runtime/drivers.h"
#include "runtime/functionality.h"
#include "runtime/request_record.h"

namespace rsoc::runtime {

enum class Policy { kSoftware, kHardware };

struct SoftwareCost {
  std::uint64_t cycles_per_request = 0;
  std::uint64_t cycles_per_block = 0;
};

// A core design: what a bitstream configures, and where the bitstream is stored.
struct CoreDesign {
  std::string name;
  std::uint32_t id = 0;  // written in the bitstream header
  models::CoreKind kind = models::CoreKind::kAes128;
  std::uint64_t bitstream_address = 0;
  std::uint64_t bitstream_bytes = 0;
};

// A slot as the OS sees it.
struct SlotView {
  std::string name;
  models::FpgaSlot* slot = nullptr;
  std::uint64_t base = 0;   // CPU address of its register window
  unsigned port_index = 0;  // index at the configuration port
  bool reconfigurable = true;
  std::uint64_t capacity_bytes = 0;
};

struct RuntimeParams {
  Policy policy = Policy::kHardware;
  DriverCosts driver;
  std::map<Functionality, SoftwareCost> software;
};

struct RequestOutcome {
  std::vector<std::uint8_t> output;
  RequestRecord record;
};

class Manager {
 public:
  using Sink = std::function<void(const RequestRecord&)>;

  Manager(const RuntimeParams& params, std::vector<SlotView> slots, std::vector<CoreDesign> designs,
          std::unique_ptr<ReconfigurationDriver> reconfiguration, Sink sink);

  // Runs one request on `cpu` (the caller's hardware thread) and records it. Must be called from an
  // SC_THREAD. `issued` is when the application asked (default: now); time until now counts as queueing.
  RequestOutcome request(models::CpuThread& cpu, const std::string& app, Functionality f,
                         const std::vector<std::uint8_t>& key, const std::vector<std::uint8_t>& data,
                         bool encrypt, std::optional<sc_core::sc_time> issued = std::nullopt);

  const std::vector<SlotView>& slots() const { return slots_; }
  std::uint64_t cache_hits() const { return hits_; }
  std::uint64_t cache_misses() const { return misses_; }
  std::uint64_t evictions() const { return evictions_; }

 private:
  struct SlotUse {
    std::unique_ptr<sc_core::sc_mutex> lock;
    const CoreDesign* design = nullptr;  // the design the OS believes is resident
    std::uint64_t last_use = 0;
  };
  // Chooses a slot for `design`: resident and idle, else empty, else the least recently used idle one.
  // Returns the slot index locked for the caller, and whether it must be configured.
  int acquire_slot(const CoreDesign& design, bool* configure, std::string* reason);
  const CoreDesign* design_for(Functionality f) const;

  RuntimeParams params_;
  std::vector<SlotView> slots_;
  std::vector<SlotUse> use_;
  std::vector<CoreDesign> designs_;
  std::unique_ptr<ReconfigurationDriver> reconfiguration_;
  sc_core::sc_mutex port_lock_;
  CipherDriver cipher_;
  Sink sink_;
  std::uint64_t next_id_ = 0, clock_ = 0, hits_ = 0, misses_ = 0, evictions_ = 0;
};

}  // namespace rsoc::runtime
