#pragma once
// RiscvHart: an RV32IMC hart that runs compiled code (an ElfImage) on the Unicorn emulator, timed by a soft
// core's timing profile (models/riscv_timing.h), its loads and stores beyond its local memory going through
// the TLM bus models of the CPU thread it runs on. One hart is one address space: a process's registers and
// local memory (code, data, stack and its buffers); the OS runs it on whichever hardware thread it holds.
//
// Timing contract:
// - Every instruction costs its class's cycles of the profile at the clock of the CPU thread it runs on
//   (models/soft_cpu.h: CpuThread::compute), a taken branch branch_taken in place of branch_not_taken, an
//   xexec the extension unit's cycles_per_instruction. Fetches, loads and stores to the local memory are
//   part of those cycles (a single-cycle local memory, as the profiles assume).
// - A load or store outside the local memory is a TLM transaction on the thread's initiator socket, issued
//   once the instruction's own cycles are spent: the bus path adds its delay (exact bus, FMC and NWAIT
//   timing), and the thread stalls for it (io time).
// - Cycles reach the CPU thread at every access outside the local memory and at the end of every run(): no
//   kernel event per instruction, the thread's quantum keeper synchronising as it does for the cost model.
// - run() stops before the instruction that would exceed its cycle budget (after at least one instruction),
//   so that the OS can preempt between two instructions: the cycles of an interrupted call add up to those of
//   an uninterrupted one.
//
// Errors (IssError, naming the PC and the function that contains it): an instruction the decoder or the
// profile does not know, a custom instruction without an extension unit or with an operand the unit refuses,
// an access that the bus answers with an error (an unmapped address), a fetch outside the code, an
// exception the program raises (ecall, ebreak, misaligned access), and a call that runs past its instruction
// limit. The hart is left stopped; a new call() starts afresh.
//
// Code runs from the program's executable segments only (an instruction fetched elsewhere is an error), each
// instruction decoded once, where it first runs: programs do not modify their code.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/elf_image.h"
#include "models/riscv_timing.h"

struct uc_struct;

namespace rsoc::models {

class CpuThread;
class ExtensionUnit;

// What the loads and stores of an untimed run outside the local memory reach: a stand-in for the platform's
// devices, for measuring code that drives them outside any simulation. access() moves `size` bytes at
// `address` (into `data` for a read); false refuses the access (the run stops with an IssError).
class UntimedDevices {
 public:
  virtual ~UntimedDevices() = default;
  virtual bool access(bool read, std::uint32_t address, void* data, unsigned size) = 0;
};

class IssError : public std::runtime_error {
 public:
  IssError(const std::string& what, std::uint32_t pc) : std::runtime_error(what), pc_(pc) {}
  std::uint32_t pc() const { return pc_; }

 private:
  std::uint32_t pc_;
};

// The hart's local memory (tightly coupled: code, data, stack), outside the platform's address map.
struct LocalMemory {
  std::uint32_t base = 0x10000000;
  std::uint32_t size = 256 * 1024;  // bytes, a whole number of 4 KiB pages
  std::uint64_t end() const { return std::uint64_t{base} + size; }
};

// A CPU's instruction-set model (platform.cpus[].model "iss"): its timing and every hart's local memory.
struct IssParams {
  TimingProfile profile;
  LocalMemory memory;
};

class RiscvHart {
 public:
  // Loads `program` into a local memory of `memory`; throws IssError when a segment lies outside it, and
  // std::runtime_error when the emulator cannot be set up.
  RiscvHart(std::shared_ptr<const ElfImage> program, const TimingProfile& profile, const LocalMemory& memory);
  ~RiscvHart();
  RiscvHart(const RiscvHart&) = delete;
  RiscvHart& operator=(const RiscvHart&) = delete;

  const ElfImage& program() const { return *program_; }
  const TimingProfile& profile() const { return profile_; }
  const LocalMemory& memory() const { return memory_; }

  // Untimed access to the local memory (data the software already holds); throws IssError outside it.
  void write_memory(std::uint32_t address, const void* data, std::size_t length);
  void read_memory(std::uint32_t address, void* data, std::size_t length) const;
  // The stack's top (sp at a call) and the address a call returns to (never executed: the run ends there).
  std::uint32_t stack_top() const { return static_cast<std::uint32_t>(memory_.end() - 16); }
  std::uint32_t return_address() const { return static_cast<std::uint32_t>(memory_.end() - 4); }

  // Prepares a call of the function at `entry` with up to eight arguments (a0..a7), the stack pointer at
  // stack_top(), gp at __global_pointer$ when the program has one, and at most `instruction_limit`
  // instructions (0: none).
  void call(std::uint32_t entry, std::initializer_list<std::uint32_t> args,
            std::uint64_t instruction_limit = 0);

  struct Slice {
    bool returned = false;  // the call returned (else the budget ran out)
    std::uint64_t cycles = 0, instructions = 0;
  };
  // Runs the call on `thread` (its clock, its bus, its extension `extension`, which may be null) until it
  // returns or would exceed `cycle_budget` cycles. Throws IssError (see above). Without a thread the call is
  // only counted (no time), and an access outside the local memory reaches `devices` (none: an error).
  Slice run(CpuThread* thread, ExtensionUnit* extension, std::uint64_t cycle_budget,
            UntimedDevices* devices = nullptr);
  bool returned() const { return returned_; }
  std::uint32_t result() const;  // a0 after the call returned

  // Over the hart's life.
  std::uint64_t instructions() const { return instructions_; }
  std::uint64_t cycles() const { return cycles_; }
  std::uint64_t outside_accesses() const { return outside_accesses_; }  // loads and stores through the bus

 private:
  // What the code hook keeps per halfword of the code: the class, and whether it is a custom instruction.
  static constexpr std::uint8_t kUndecoded = 0xff, kCustom = 0x40, kClassMask = 0x3f;
  struct Hooks;
  friend struct Hooks;

  void check(int err, const char* what) const;
  // The instruction at `pc`, decoded into info_ (false: unknown, the error noted).
  bool decode_at(std::uint32_t pc);
  void stop_with(const std::string& why, std::uint32_t pc);
  void execute_custom(const RvInstruction& i, std::uint32_t pc);
  // A load (`read`) or store of `size` bytes outside the local memory, through the thread's bus.
  void access(bool read, std::uint32_t address, void* data, unsigned size);
  void flush();  // charges the cycles not yet charged to the thread
  std::string where(std::uint32_t pc) const { return program_->describe(pc); }

  std::shared_ptr<const ElfImage> program_;
  const TimingProfile& profile_;
  LocalMemory memory_;
  uc_struct* uc_ = nullptr;
  std::vector<std::unique_ptr<Hooks>> windows_;  // the bus's address ranges (below and above the memory)
  std::uint32_t text_begin_ = 0, text_end_ = 0;  // the executable segments' span
  std::vector<std::uint8_t>
      class_;  // by halfword from text_begin_: class | kCustom, kUndecoded before it runs
  std::unordered_map<std::uint32_t, RvInstruction> custom_;  // custom instructions by address
  std::array<std::uint32_t, kRvClasses> cost_{};

  // The run in progress.
  CpuThread* thread_ = nullptr;
  ExtensionUnit* extension_ = nullptr;
  UntimedDevices* devices_ = nullptr;  // without a thread
  std::uint64_t budget_ = 0, slice_cycles_ = 0, slice_instructions_ = 0, pending_ = 0;
  std::uint32_t pc_ = 0;           // the instruction the hook saw last
  std::uint32_t resume_ = 0;       // where the next run() starts
  bool after_branch_ = false;      // the instruction last counted was a branch
  std::uint32_t fallthrough_ = 0;  // ... and this is where it goes when not taken
  std::string error_;              // why the hook stopped the emulation ("" when it did not)
  std::uint32_t error_pc_ = 0;
  bool returned_ = true;
  std::uint64_t limit_ = 0, call_instructions_ = 0;

  std::uint64_t instructions_ = 0, cycles_ = 0, outside_accesses_ = 0;
};

}  // namespace rsoc::models
