#pragma once
// Software implementations that are code: an RV32IMC program (an ELF built from C, scenarios/software) whose
// entry function the instruction-set CPU runs (models/riscv_hart.h) for every request, with the request's
// key and input in the hart's local memory. The output is what the program wrote; the time is what its
// instructions cost on the CPU the process holds.
//
// Entry ABI (scenarios/software/README.md):
//   int32_t entry(const uint8_t* key, uint32_t key_bytes, const uint8_t* in, uint8_t* out, uint32_t bytes,
//                 uint32_t encrypt)
// returns 0 when it processed `bytes` bytes (whole blocks) from `in` to `out`. The buffers follow the program
// in the local memory (from align(end of its segments, 16)); the stack has the rest, down from the top.
//
// Timing contract: a request costs the cycles of the instructions its call runs (the CPU thread's profile),
// plus the bus time of its accesses outside the local memory; the key and input are in memory already
// (placed, like the output read back, at no cost). Under a preemptive scheduler the call runs in slices: each
// ends where the process may be preempted (its slice's end, a claim by a higher priority seen at the CPU
// thread's synchronisation, at least every quantum and at most every kMinSliceCycles cycles while another
// process could take the CPU); an interrupted call costs the cycles of an uninterrupted one.
// Every process has its own hart (address space) per program and CPU: its memory and registers are its own.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "models/elf_image.h"
#include "models/riscv_hart.h"
#include "models/statistics.h"

namespace rsoc::models {
class SoftCpu;
}

namespace rsoc::runtime {

class Process;

// A program and the function of it that implements a functionality.
struct SoftwareProgram {
  std::shared_ptr<const models::ElfImage> image;
  std::string entry;  // the function's symbol
  std::uint32_t entry_address = 0;
  std::uint64_t max_instructions = 0;  // a call that runs longer is an error (0: no limit)
  // Its instruction path does not depend on the data (a block cipher): a call costs what the first call of
  // the same length and direction cost on the same CPU, when that one stayed in its local memory, and its
  // output is rsoc's reference's (the program's own was checked against it at that first call).
  bool reuse_equal_lengths = false;
  std::string key;  // the scenario key that names it (for messages)
  // Measured (ProgramRunner::measure, on the first CPU with an instruction-set model): a call's cycles
  // besides its blocks', and each block's. The estimate's software cost.
  std::uint64_t cycles_per_request = 0, cycles_per_block = 0;

  // The cycles of calls that stayed in their local memory, by timing profile, input length and direction
  // (reuse_equal_lengths): kept with the program, so every simulation of the scenario (an experiment, a
  // sweep's point, on any host thread) reuses them.
  class Costs {
   public:
    std::optional<std::uint64_t> find(const std::string& profile, std::size_t bytes, bool encrypt) const;
    void note(const std::string& profile, std::size_t bytes, bool encrypt, std::uint64_t cycles) const;

   private:
    mutable std::mutex mutex_;
    mutable std::map<std::tuple<std::string, std::size_t, bool>, std::uint64_t> cycles_;
  };
  Costs costs;
};

// What one call of a program cost, untimed (no bus: it must stay in its local memory).
struct ProgramCost {
  std::uint64_t instructions = 0, cycles = 0;
};

class ProgramRunner {
 public:
  static constexpr std::uint64_t kMinSliceCycles = 1000;
  static constexpr std::uint32_t kStackBytes = 16 * 1024;  // kept free for the stack below its top

  struct Run {
    std::vector<std::uint8_t> output;  // empty when reused: the reference's is the output
    bool reused = false;               // the cost of an earlier call of the same length (no instructions run)
  };
  // Runs `program` for process `p` on the CPU thread it holds: the output bytes (as many as the input).
  // Throws DriverError naming the program's key, its ELF, the PC and the function on any error of the hart, a
  // nonzero return, or a CPU without an instruction-set model.
  Run run(Process& p, const SoftwareProgram& program, const std::vector<std::uint8_t>& key,
          const std::vector<std::uint8_t>& input, bool encrypt);

  // One call of `program` on a hart of its own of `iss`, outside any simulation: its instructions and
  // cycles (the output in `output` when given). Throws std::runtime_error as run() does.
  // `extension`: the unit its custom instructions reach (null: none).
  static ProgramCost measure(const SoftwareProgram& program, const models::IssParams& iss,
                             models::ExtensionUnit* extension, const std::vector<std::uint8_t>& key,
                             const std::vector<std::uint8_t>& input, bool encrypt,
                             std::vector<std::uint8_t>* output = nullptr);

  // Its counters into the manager's group (nothing when no program ran).
  void statistics(models::StatGroup& g) const;

  std::uint64_t calls() const { return calls_; }
  std::uint64_t instructions() const { return instructions_; }

 private:
  std::map<std::tuple<const Process*, const SoftwareProgram*, const models::SoftCpu*>,
           std::unique_ptr<models::RiscvHart>>
      harts_;
  std::uint64_t calls_ = 0, instructions_ = 0, cycles_ = 0, reused_ = 0;
};

}  // namespace rsoc::runtime
