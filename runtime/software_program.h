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
// in the local memory (from the page after its segments' end); the stack has the rest, down from the top.
//
// Timing contract: a request costs the cycles of the instructions its call runs (the CPU thread's profile),
// plus the bus time of its accesses outside the local memory; the key and input are in memory already
// (placed, like the output read back, at no cost). Under a preemptive scheduler the call runs in slices: each
// ends where the process may be preempted (its slice's end, a claim by a higher priority seen at the CPU
// thread's synchronisation, at least every quantum and at most every kMinSliceCycles cycles while another
// process could take the CPU); an interrupted call costs the cycles of an uninterrupted one.
// Every process has its own hart (address space) per program and CPU: its memory and registers are its own.
//
// A driver that is code (DriverProgram) runs so too, its loads and stores to the core's registers timed by the
// bus models; in the process's ledger they are CPU I/O, busy status reads included (the driver model counts
// the time of those as the core's).

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
#include "runtime/functionality.h"

namespace rsoc::models {
class SoftCpu;
}

namespace rsoc::runtime {

class Process;
class CoreDriver;

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

// A core's driver that is code (runtime.driver.programs): an entry of a program that drives the cipher core
// at a base address by PIO, in place of CoreDriver's PIO path (scenarios/software/core_driver.c):
//   int32_t entry(uint32_t base, const uint8_t* key, uint32_t key_bytes, const uint8_t* in, uint8_t* out,
//                 uint32_t bytes, uint32_t flags)
// flags bit 0 encrypt, bit 1 load (the core holds another key or direction); it returns 0, or 3 when the core
// never became ready (a device fault), anything else being an error of the request.
struct DriverProgram {
  std::shared_ptr<const SoftwareProgram> code;  // its image, entry, instruction limit and key
  Functionality f = Functionality::kAes128;     // what it drives
  // Measured at load (ProgramRunner::measure_driver, on stand-in devices that answer at once): a request's
  // cycles with a key load besides its cipher blocks', each cipher block's, each status poll's beyond the
  // first of a wait, and of the request's the key load's (absent when the core holds the key). The
  // estimate's driver cost for f.
  std::uint64_t cycles_per_request = 0, cycles_per_cipher_block = 0, poll_loop_cycles = 0,
                key_load_cycles = 0;
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

  // Runs `driver` for process `p` on the CPU thread it holds, on the core at `base` for `f`: the output.
  // `state` is the OS's driver of the cores: whether the core holds the key and direction already (no
  // load), and what it holds after. Throws DeviceFault when the driver finds the core never ready,
  // DriverError as run() does otherwise.
  std::vector<std::uint8_t> drive(Process& p, const DriverProgram& driver, std::uint64_t base,
                                  Functionality f, const std::vector<std::uint8_t>& key,
                                  const std::vector<std::uint8_t>& input, bool encrypt, CoreDriver& state);
  // `code` measured as the driver of `f`'s core, untimed on a hart of `iss` whose accesses outside its local
  // memory reach a stand-in core (STATUS ready at once, or busy at the first read after a CTRL write):
  // on one and two cipher blocks with a key load, on one busy once, and on one without a load. Throws
  // DriverError when a call fails, or runs INIT other than once a load or NEXT other than once a cipher
  // block.
  static std::shared_ptr<const DriverProgram> measure_driver(std::shared_ptr<const SoftwareProgram> code,
                                                             const models::IssParams& iss, Functionality f);

  // Its counters into the manager's group (nothing when no program ran).
  void statistics(models::StatGroup& g) const;

  std::uint64_t calls() const { return calls_; }
  std::uint64_t instructions() const { return instructions_; }
  std::uint64_t driver_calls() const { return driver_calls_; }
  std::uint64_t driver_instructions() const { return driver_instructions_; }

 private:
  // The hart of `p` for `program` on the CPU of the thread it holds (made at its first call).
  models::RiscvHart& hart(Process& p, const SoftwareProgram& program);
  // Runs the call prepared on `hart` to its return, in slices the scheduler may preempt between.
  void execute(Process& p, const SoftwareProgram& program, models::RiscvHart& hart);
  std::map<std::tuple<const Process*, const SoftwareProgram*, const models::SoftCpu*>,
           std::unique_ptr<models::RiscvHart>>
      harts_;
  std::uint64_t calls_ = 0, instructions_ = 0, cycles_ = 0, reused_ = 0;
  std::uint64_t driver_calls_ = 0, driver_instructions_ = 0, driver_cycles_ = 0;
};

}  // namespace rsoc::runtime
