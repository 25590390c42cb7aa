#pragma once
// CostModel: predicted latency of a request in software and in hardware, from the platform's parameters
// (plain C++, seconds). A request is a number of blocks, each one execution on a unit of unit_bytes (a whole
// number of cipher blocks). Software: (cycles_per_request + blocks * SoftwareCost::block_cycles) / f_cpu.
// Hardware: reconfiguration (when the core is not resident) + waiting for a slot + driver request cost +
// blocks * the per-block cost of the driver, the bus path and the core (its cipher blocks included). The
// platform derives the hardware terms from its models' parameters (platform/estimate.cpp); the `cost_model`
// policy and `rsoc crossover`'s analytic column use them.

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "runtime/extension_software.h"
#include "runtime/functionality.h"
#include "runtime/software_program.h"

namespace rsoc::runtime {

struct SoftwareCost {
  SoftwareCost() = default;
  SoftwareCost(std::uint64_t request, std::uint64_t block,
               std::optional<ExtensionSoftware> ext = std::nullopt)
      : cycles_per_request(request), cycles_per_block(block), extension(std::move(ext)) {}
  std::uint64_t cycles_per_request = 0;
  std::uint64_t cycles_per_block = 0;         // per block (one execution), whatever its size
  double cycles_per_byte = 0;                 // per byte of a block: the cipher's work
  std::uint64_t cycles_per_cipher_block = 0;  // with an extension: its routine's instruction mix
  // The code's own gain from the threads of a shared core (models::CpuParams::smt_throughput; 0: the CPU's).
  double smt_throughput = 0;
  // Software that computes on a CPU extension unit (the output comes from the unit of the process's thread).
  std::optional<ExtensionSoftware> extension;
  // Software that is code (runtime/software_program.h): the instruction-set CPU runs it for every request,
  // its time what its instructions cost; cycles_per_request and cycles_per_block are then the OS's work
  // around the call (charged besides), and the estimate adds the program's measured cycles.
  std::shared_ptr<const SoftwareProgram> program;

  // CPU cycles of a request besides its blocks' (a program's measured ones included).
  std::uint64_t request_cycles() const {
    return cycles_per_request + (program ? program->cycles_per_request : 0);
  }
  // CPU cycles of one block of `unit_bytes` bytes, made of cipher blocks of `cipher_block_bytes` (the
  // per-byte part rounded to whole cycles; a program's measured ones included).
  std::uint64_t block_cycles(std::uint64_t unit_bytes, std::uint64_t cipher_block_bytes) const {
    return cycles_per_block + (program ? program->cycles_per_block : 0) +
           static_cast<std::uint64_t>(std::llround(static_cast<double>(unit_bytes) * cycles_per_byte)) +
           unit_bytes / cipher_block_bytes * cycles_per_cipher_block;
  }
};

struct HardwareCost {
  double request_s = 0;  // driver set-up, key load, core init
  double block_s = 0;    // one block: driver work, words over the bus, polls, core, for all its cipher blocks
};

struct CostModelParams {
  double cpu_hz = 100e6;
  std::map<Functionality, SoftwareCost> software;
  std::map<Functionality, HardwareCost> hardware;
  std::map<Functionality, double> reconfiguration_s;  // configuring the core of the functionality
  std::map<Functionality, std::uint64_t> unit_bytes;  // bytes of a block (absent: one cipher block)
};

// Bytes of one block of `f` (one execution) under `units` (absent: one cipher block or message).
std::uint64_t unit_bytes(const std::map<Functionality, std::uint64_t>& units, Functionality f);

class CostModel {
 public:
  explicit CostModel(CostModelParams params) : params_(std::move(params)) {}
  bool has_software(Functionality f) const { return params_.software.count(f) > 0; }
  bool has_hardware(Functionality f) const { return params_.hardware.count(f) > 0; }
  double software_s(Functionality f, std::uint64_t blocks) const;
  double hardware_s(Functionality f, std::uint64_t blocks, bool resident, double slot_wait_s = 0) const;
  double reconfiguration_s(Functionality f) const;
  // The smallest block count (up to `max_blocks`) at which hardware with reconfiguration beats software.
  std::optional<std::uint64_t> crossover_blocks(Functionality f, std::uint64_t max_blocks) const;
  const CostModelParams& params() const { return params_; }

 private:
  CostModelParams params_;
};

}  // namespace rsoc::runtime
