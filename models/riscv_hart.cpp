#include "models/riscv_hart.h"

#include <dlfcn.h>
#include <unicorn/unicorn.h>

#include <algorithm>
#include <tlm>
#include <type_traits>

#include "models/address_map.h"
#include "models/extension_unit.h"
#include "models/soft_cpu.h"

namespace rsoc::models {

namespace {

// The emulator's library, loaded when the first hart is made: a run without an instruction-set CPU does not
// pay for loading and initialising it (every architecture Unicorn has, some tens of millions of
// instructions), which every process of a sweep would.
struct Unicorn {
  decltype(&::uc_close) uc_close;
  decltype(&::uc_emu_start) uc_emu_start;
  decltype(&::uc_emu_stop) uc_emu_stop;
  decltype(&::uc_hook_add) uc_hook_add;
  decltype(&::uc_mem_map) uc_mem_map;
  decltype(&::uc_mem_read) uc_mem_read;
  decltype(&::uc_mem_write) uc_mem_write;
  decltype(&::uc_mmio_map) uc_mmio_map;
  decltype(&::uc_open) uc_open;
  decltype(&::uc_reg_read) uc_reg_read;
  decltype(&::uc_reg_write) uc_reg_write;
  decltype(&::uc_strerror) uc_strerror;
};

const Unicorn& emu() {
  static const Unicorn api = [] {
    void* lib = dlopen(RSOC_UNICORN_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      throw std::runtime_error(std::string("the RISC-V emulator cannot be loaded (") + RSOC_UNICORN_LIBRARY +
                               ", Debian's libunicorn2): " + dlerror());
    auto get = [lib](auto& fn, const char* name) {
      void* symbol = dlsym(lib, name);
      if (!symbol) throw std::runtime_error(std::string(RSOC_UNICORN_LIBRARY) + " has no " + name);
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(symbol);
    };
    Unicorn u{};
    get(u.uc_close, "uc_close");
    get(u.uc_emu_start, "uc_emu_start");
    get(u.uc_emu_stop, "uc_emu_stop");
    get(u.uc_hook_add, "uc_hook_add");
    get(u.uc_mem_map, "uc_mem_map");
    get(u.uc_mem_read, "uc_mem_read");
    get(u.uc_mem_write, "uc_mem_write");
    get(u.uc_mmio_map, "uc_mmio_map");
    get(u.uc_open, "uc_open");
    get(u.uc_reg_read, "uc_reg_read");
    get(u.uc_reg_write, "uc_reg_write");
    get(u.uc_strerror, "uc_strerror");
    return u;
  }();
  return api;
}

constexpr std::uint64_t kAddressSpace = 0x100000000ULL;
constexpr std::uint32_t kPage = 4096;

// RISC-V exception causes (privileged ISA, mcause), as Unicorn reports them to an interrupt hook.
std::string exception_name(std::uint32_t cause) {
  switch (cause) {
    case 0:
      return "a misaligned instruction fetch";
    case 1:
      return "an instruction access fault";
    case 2:
      return "an illegal instruction";
    case 3:
      return "a breakpoint (ebreak)";
    case 4:
      return "a misaligned load";
    case 5:
      return "a load access fault";
    case 6:
      return "a misaligned store";
    case 7:
      return "a store access fault";
    case 8:
    case 9:
    case 11:
      return "an environment call (ecall)";
    default:
      return "exception " + std::to_string(cause);
  }
}

}  // namespace

// The emulator's callbacks: C functions with the hart as their user data.
struct RiscvHart::Hooks {
  RiscvHart* hart;
  std::uint32_t base;  // of the bus's address range these hooks serve

  static void code(uc_engine* uc, std::uint64_t address, std::uint32_t size, void* user) {
    RiscvHart& h = *static_cast<RiscvHart*>(user);
    const auto pc = static_cast<std::uint32_t>(address);
    h.pc_ = pc;
    if (h.after_branch_ && pc != h.fallthrough_) {  // the branch counted last was taken
      const std::uint32_t extra =
          h.profile_.branch_taken - h.cost_[static_cast<std::size_t>(RvClass::kBranch)];
      h.slice_cycles_ += extra;
      h.pending_ += extra;
    }
    h.after_branch_ = false;
    if (pc < h.text_begin_ || pc >= h.text_end_) {
      h.stop_with("an instruction fetched outside the program's code [" + hex(h.text_begin_) + ", " +
                      hex(h.text_end_) + ")",
                  pc);
      return;
    }
    const std::size_t at = (pc - h.text_begin_) >> 1;
    if (h.class_[at] == kUndecoded && !h.decode_at(pc)) {
      emu().uc_emu_stop(uc);
      return;
    }
    const std::uint8_t entry = h.class_[at];
    const auto klass = static_cast<RvClass>(entry & kClassMask);
    std::uint64_t cost = h.cost_[entry & kClassMask];
    if (klass == RvClass::kExtension) {
      if (!h.extension_) {
        h.stop_with("a custom-0 instruction, but the CPU has no extension unit", pc);
        return;
      }
      cost = h.extension_->cycles_per_instruction();
    }
    if (h.slice_instructions_ > 0 && h.slice_cycles_ + cost > h.budget_) {  // the budget is spent
      h.resume_ = pc;
      emu().uc_emu_stop(uc);
      return;
    }
    if (h.limit_ && h.call_instructions_ >= h.limit_) {
      h.stop_with("the call ran past its limit of " + std::to_string(h.limit_) + " instructions", pc);
      return;
    }
    h.slice_cycles_ += cost;
    h.pending_ += cost;
    ++h.slice_instructions_;
    ++h.call_instructions_;
    if (klass == RvClass::kBranch) {
      h.after_branch_ = true;
      h.fallthrough_ = pc + size;
    }
    if (entry & kCustom) h.execute_custom(h.custom_.at(pc), pc);
  }

  static std::uint64_t read(uc_engine*, std::uint64_t offset, unsigned size, void* user) {
    const Hooks& w = *static_cast<Hooks*>(user);
    std::uint64_t value = 0;
    w.hart->access(true, w.base + static_cast<std::uint32_t>(offset), &value, size);
    return value;
  }

  static void write(uc_engine*, std::uint64_t offset, unsigned size, std::uint64_t value, void* user) {
    const Hooks& w = *static_cast<Hooks*>(user);
    w.hart->access(false, w.base + static_cast<std::uint32_t>(offset), &value, size);
  }

  static void interrupt(uc_engine*, std::uint32_t cause, void* user) {
    RiscvHart& h = *static_cast<RiscvHart*>(user);
    h.stop_with("the program raised " + exception_name(cause), h.pc_);
  }
};

RiscvHart::RiscvHart(std::shared_ptr<const ElfImage> program, const TimingProfile& profile,
                     const LocalMemory& memory)
    : program_(std::move(program)), profile_(profile), memory_(memory) {
  if (memory_.size == 0 || memory_.base % kPage || memory_.size % kPage || memory_.end() > kAddressSpace)
    throw IssError("the local memory [" + hex(memory_.base) + ", " + hex(memory_.end()) +
                       ") is not whole 4 KiB pages of the 32-bit address space",
                   0);
  for (const ElfImage::Segment& s : program_->segments())
    if (s.address < memory_.base || std::uint64_t{s.address} + s.memory_bytes > memory_.end())
      throw IssError(program_->path() + ": a segment of " + std::to_string(s.memory_bytes) + " bytes at " +
                         hex(s.address) + " lies outside the local memory [" + hex(memory_.base) + ", " +
                         hex(memory_.end()) + ")",
                     s.address);
  for (std::size_t c = 0; c < kRvClasses; ++c) cost_[c] = profile_.cycles[c];
  text_begin_ = static_cast<std::uint32_t>(memory_.end());
  for (const ElfImage::Segment& s : program_->segments())
    if (s.executable) {
      text_begin_ = std::min(text_begin_, s.address);
      text_end_ = std::max(text_end_, s.address + s.memory_bytes);
    }
  if (text_end_ <= text_begin_) throw IssError(program_->path() + ": no executable segment", 0);
  class_.assign((text_end_ - text_begin_ + 1) / 2, kUndecoded);

  check(emu().uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &uc_), "open an RV32 emulator");
  check(emu().uc_mem_map(uc_, memory_.base, memory_.size, UC_PROT_ALL), "map the local memory");
  // Everything else is the bus's.
  windows_.push_back(std::make_unique<Hooks>(Hooks{this, 0}));
  windows_.push_back(std::make_unique<Hooks>(Hooks{this, static_cast<std::uint32_t>(memory_.end())}));
  if (memory_.base > 0)
    check(emu().uc_mmio_map(uc_, 0, memory_.base, Hooks::read, windows_[0].get(), Hooks::write,
                            windows_[0].get()),
          "map the bus below the local memory");
  if (memory_.end() < kAddressSpace)
    check(emu().uc_mmio_map(uc_, memory_.end(), kAddressSpace - memory_.end(), Hooks::read, windows_[1].get(),
                            Hooks::write, windows_[1].get()),
          "map the bus above the local memory");
  for (const ElfImage::Segment& s : program_->segments())
    check(emu().uc_mem_write(uc_, s.address, s.bytes.data(), s.bytes.size()), "load a segment");
  uc_hook hook;
  check(emu().uc_hook_add(uc_, &hook, UC_HOOK_CODE, reinterpret_cast<void*>(&Hooks::code), this, memory_.base,
                          memory_.end() - 1),
        "add the timing hook");
  check(emu().uc_hook_add(uc_, &hook, UC_HOOK_INTR, reinterpret_cast<void*>(&Hooks::interrupt), this, 1, 0),
        "add the exception hook");
}

RiscvHart::~RiscvHart() {
  if (uc_) emu().uc_close(uc_);
}

void RiscvHart::check(int err, const char* what) const {
  if (err != UC_ERR_OK)
    throw std::runtime_error(std::string("the RISC-V emulator cannot ") + what + ": " +
                             emu().uc_strerror(static_cast<uc_err>(err)));
}

void RiscvHart::write_memory(std::uint32_t address, const void* data, std::size_t length) {
  if (address < memory_.base || std::uint64_t{address} + length > memory_.end())
    throw IssError(std::to_string(length) + " bytes at " + hex(address) + " do not fit the local memory [" +
                       hex(memory_.base) + ", " + hex(memory_.end()) + ")",
                   address);
  check(emu().uc_mem_write(uc_, address, data, length), "write its local memory");
}

void RiscvHart::read_memory(std::uint32_t address, void* data, std::size_t length) const {
  if (address < memory_.base || std::uint64_t{address} + length > memory_.end())
    throw IssError(std::to_string(length) + " bytes at " + hex(address) + " lie outside the local memory",
                   address);
  check(emu().uc_mem_read(uc_, address, data, length), "read its local memory");
}

void RiscvHart::call(std::uint32_t entry, std::initializer_list<std::uint32_t> args,
                     std::uint64_t instruction_limit) {
  if (args.size() > 8) throw std::invalid_argument("a call takes at most eight arguments");
  std::uint32_t zero = 0;
  for (int r = UC_RISCV_REG_X1; r <= UC_RISCV_REG_X31; ++r)
    check(emu().uc_reg_write(uc_, r, &zero), "set a register");
  int reg = UC_RISCV_REG_A0;
  for (std::uint32_t a : args) check(emu().uc_reg_write(uc_, reg++, &a), "set an argument");
  std::uint32_t sp = stack_top(), ra = return_address();
  check(emu().uc_reg_write(uc_, UC_RISCV_REG_SP, &sp), "set sp");
  check(emu().uc_reg_write(uc_, UC_RISCV_REG_RA, &ra), "set ra");
  if (const ElfImage::Symbol* gp = program_->find("__global_pointer$")) {
    std::uint32_t value = gp->address;
    check(emu().uc_reg_write(uc_, UC_RISCV_REG_GP, &value), "set gp");
  }
  resume_ = entry;
  returned_ = false;
  after_branch_ = false;
  limit_ = instruction_limit;
  call_instructions_ = 0;
}

RiscvHart::Slice RiscvHart::run(CpuThread* thread, ExtensionUnit* extension, std::uint64_t cycle_budget,
                                UntimedDevices* devices) {
  if (returned_) throw std::logic_error("RiscvHart::run without a call in progress");
  thread_ = thread;
  devices_ = thread ? nullptr : devices;
  extension_ = extension;
  budget_ = cycle_budget;
  slice_cycles_ = slice_instructions_ = pending_ = 0;
  error_.clear();
  const std::uint32_t start = resume_;
  resume_ = return_address();  // unless the budget stops it earlier
  const uc_err e = emu().uc_emu_start(uc_, start, return_address(), 0, 0);
  flush();
  instructions_ += slice_instructions_;
  cycles_ += slice_cycles_;
  const Slice slice{resume_ == return_address(), slice_cycles_, slice_instructions_};
  if (!error_.empty() || e != UC_ERR_OK) {
    returned_ = true;  // stopped for good
    if (error_.empty()) {
      std::uint32_t pc = pc_;
      if (e == UC_ERR_FETCH_UNMAPPED || e == UC_ERR_FETCH_PROT) {
        emu().uc_reg_read(uc_, UC_RISCV_REG_PC, &pc);
        throw IssError("a jump to " + hex(pc) + ", outside the local memory, after " + where(pc_), pc);
      }
      throw IssError(std::string("the emulator stopped: ") + emu().uc_strerror(e) + " at " + where(pc), pc);
    }
    throw IssError(error_ + " at " + where(error_pc_), error_pc_);
  }
  returned_ = slice.returned;
  return slice;
}

std::uint32_t RiscvHart::result() const {
  std::uint32_t a0 = 0;
  emu().uc_reg_read(uc_, UC_RISCV_REG_A0, &a0);
  return a0;
}

bool RiscvHart::decode_at(std::uint32_t pc) {
  std::uint32_t word = 0;
  const std::size_t bytes = std::min<std::uint32_t>(4, text_end_ - pc);
  emu().uc_mem_read(uc_, pc, &word, bytes);
  const std::optional<RvInstruction> i = decode_rv32imc(word);
  if (!i || (i->length == 4 && bytes < 4)) {
    stop_with("an instruction RV32IMC does not know (" + hex((word & 3) == 3 ? word : word & 0xffff) + ")",
              pc);
    return false;
  }
  std::uint8_t& entry = class_[(pc - text_begin_) >> 1];
  entry = static_cast<std::uint8_t>(i->klass);
  if (i->custom) {
    custom_[pc] = *i;
    entry |= kCustom;
  }
  return true;
}

void RiscvHart::execute_custom(const RvInstruction& i, std::uint32_t pc) {
  if (!extension_) {
    stop_with("a custom-0 instruction, but the CPU has no extension unit", pc);
    return;
  }
  std::uint32_t rs1 = 0;
  emu().uc_reg_read(uc_, UC_RISCV_REG_X0 + static_cast<int>(i.rs1), &rs1);
  try {
    if (i.funct3 == 0) {
      extension_->execute(rs1 + static_cast<std::uint32_t>(i.imm));
    } else if (i.funct3 == 1) {
      extension_->write_register(static_cast<std::uint32_t>(i.imm), rs1);
    } else {
      std::uint32_t value = extension_->read_register(static_cast<std::uint32_t>(i.imm));
      if (i.rd != 0) emu().uc_reg_write(uc_, UC_RISCV_REG_X0 + static_cast<int>(i.rd), &value);
    }
  } catch (const std::exception& e) {  // an illegal operand or register number: the unit's exception
    stop_with(
        std::string("the ") + extension_->name() + " unit refused a custom instruction (" + e.what() + ")",
        pc);
    return;
  }
  std::uint32_t next = pc + 4;  // the emulator does not know the instruction: continue after it
  emu().uc_reg_write(uc_, UC_RISCV_REG_PC, &next);
}

void RiscvHart::access(bool read, std::uint32_t address, void* data, unsigned size) {
  if (!error_.empty()) return;  // stopping already
  if (!thread_) {
    if (!devices_) {
      stop_with(std::string(read ? "a load from " : "a store to ") + hex(address) +
                    ", outside the local memory, in a run without a bus",
                pc_);
    } else {
      ++outside_accesses_;
      if (!devices_->access(read, address, data, size))
        stop_with(std::string(read ? "a load from " : "a store to ") + hex(address) +
                      " that the stand-in devices refused",
                  pc_);
    }
    return;
  }
  flush();
  ++outside_accesses_;
  const tlm::tlm_response_status status =
      thread_->instruction_access(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, address,
                                  static_cast<unsigned char*>(data), size);
  if (status != tlm::TLM_OK_RESPONSE)
    stop_with(std::string(read ? "a load from " : "a store to ") + hex(address) + " that the bus refused (" +
                  (status == tlm::TLM_ADDRESS_ERROR_RESPONSE ? "no device there" : "an error response") + ")",
              pc_);
}

void RiscvHart::stop_with(const std::string& why, std::uint32_t pc) {
  if (error_.empty()) {
    error_ = why;
    error_pc_ = pc;
  }
  emu().uc_emu_stop(uc_);
}

void RiscvHart::flush() {
  if (pending_ && thread_) thread_->compute(pending_);
  pending_ = 0;
}

}  // namespace rsoc::models
