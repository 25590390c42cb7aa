#pragma once
// ExtensionUnit: what the SoftCpu model needs from a CPU extension unit (custom instructions working on their
// own extension registers, such as desrnd). Timing contract: an extension instruction costs
// cycles_per_instruction() cycles of the CPU clock; the model does not charge them itself: software charges
// its instruction counts times those cycles through CpuThread::compute (the CPU is a cost model), while
// execute() applies the exact semantics, untimed, so that the data are real.
//
// Extension registers are thread context. SoftCpu gives every hardware thread its own instance
// (new_context()), as a multithreaded core replicates its core registers and shares the datapath; the
// processes the OS runs on one hardware thread share that instance, and an OS that preempts a process
// between two extension instructions saves and restores the registers with the rest of its context.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace rsoc::models {

struct ExtensionRegister {
  std::string name;
  unsigned width_bits = 32;
};

class ExtensionUnit {
 public:
  virtual ~ExtensionUnit() = default;

  // The unit's name (its instruction's mnemonic); unique among the extensions of one CPU.
  virtual std::string name() const = 0;
  // The extension registers, by index.
  virtual std::vector<ExtensionRegister> registers() const = 0;
  virtual unsigned cycles_per_instruction() const = 0;

  // Core access to register `index` (LD/MOV into it, ST/MOV out of it): a write keeps the register's low
  // width_bits bits. Throws std::out_of_range for an index that names no register.
  virtual std::uint32_t read_register(std::size_t index) const = 0;
  virtual void write_register(std::size_t index, std::uint32_t value) = 0;
  // Executes one instruction with `operand`, untimed. An illegal operand throws std::invalid_argument (the
  // illegal-instruction exception) and changes nothing.
  virtual void execute(std::uint32_t operand) = 0;
  // Instructions executed by this context.
  virtual std::uint64_t instructions() const = 0;

  // A unit of the same configuration with its registers at reset: the context of another hardware thread.
  virtual std::unique_ptr<ExtensionUnit> new_context() const = 0;

  // The index of the register called `name`; throws std::out_of_range when there is none.
  std::size_t register_index(const std::string& reg) const {
    const auto regs = registers();
    for (std::size_t i = 0; i < regs.size(); ++i)
      if (regs[i].name == reg) return i;
    throw std::out_of_range(name() + ": no extension register " + reg);
  }
};

}  // namespace rsoc::models
