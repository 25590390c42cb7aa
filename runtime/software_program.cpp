#include "runtime/software_program.h"

#include <algorithm>
#include <systemc>
#include <tlm>

#include "models/address_map.h"
#include "models/ip_core.h"
#include "models/soft_cpu.h"
#include "runtime/drivers.h"
#include "runtime/scheduler.h"

namespace rsoc::runtime {

namespace {

constexpr std::uint32_t align16(std::uint64_t v) {
  return static_cast<std::uint32_t>((v + 15) & ~std::uint64_t{15});
}
// The emulator retranslates the code of a page that a store writes to: data never shares a page with code.
constexpr std::uint32_t next_page(std::uint64_t v) {
  return static_cast<std::uint32_t>((v + 4095) & ~std::uint64_t{4095});
}

// Where a call's buffers go: key, input and output one after the other above the program, from the page
// after its end.
struct Layout {
  std::uint32_t key = 0, input = 0, output = 0;
};

Layout place(models::RiscvHart& hart, const SoftwareProgram& program, const std::vector<std::uint8_t>& key,
             const std::vector<std::uint8_t>& input) {
  Layout l;
  l.key = next_page(program.image->end());
  l.input = align16(std::uint64_t{l.key} + key.size());
  l.output = align16(std::uint64_t{l.input} + input.size());
  const std::uint64_t end = std::uint64_t{l.output} + input.size();
  const std::uint64_t room = hart.stack_top() - ProgramRunner::kStackBytes;
  if (end > room)
    throw DriverError(program.key + ": a request of " + std::to_string(input.size()) +
                      " bytes needs its key, " + "input and output up to " + models::hex(end) +
                      " in the local memory, which leaves " +
                      std::to_string(ProgramRunner::kStackBytes / 1024) + " KiB of stack only below " +
                      models::hex(room) + " (raise local_memory.size_kib of the CPU)");
  hart.write_memory(l.key, key.data(), key.size());
  hart.write_memory(l.input, input.data(), input.size());
  return l;
}

void start(models::RiscvHart& hart, const SoftwareProgram& program, const Layout& l, std::size_t key_bytes,
           std::size_t bytes, bool encrypt) {
  hart.call(program.entry_address,
            {l.key, static_cast<std::uint32_t>(key_bytes), l.input, l.output,
             static_cast<std::uint32_t>(bytes), encrypt ? 1u : 0u},
            program.max_instructions);
}

std::vector<std::uint8_t> finish(const models::RiscvHart& hart, const SoftwareProgram& program,
                                 const Layout& l, std::size_t bytes) {
  if (const std::uint32_t code = hart.result(); code != 0)
    throw DriverError(program.key + ": " + program.entry + " of " + program.image->path() + " returned " +
                      std::to_string(static_cast<std::int32_t>(code)) + " (expected 0) for " +
                      std::to_string(bytes) + " bytes");
  std::vector<std::uint8_t> out(bytes);
  hart.read_memory(l.output, out.data(), out.size());
  return out;
}

[[noreturn]] void fail(const SoftwareProgram& program, const std::exception& e) {
  std::string what = e.what();  // the image's own errors name its file first: once is enough
  const std::string& path = program.image->path();
  if (what.rfind(path + ": ", 0) == 0) what.erase(0, path.size() + 2);
  throw DriverError(program.key + ": " + program.entry + " of " + path + ": " + what);
}

// The instruction-set model of the CPU `p` runs on (DriverError naming `program` when it has none).
const models::IssParams& iss_of(Process& p, const SoftwareProgram& program) {
  const models::SoftCpu& cpu = p.cpu().cpu();
  if (!cpu.params().iss)
    throw DriverError(program.key + ": the process runs on CPU \"" + std::string(cpu.name()) +
                      "\", which has no instruction-set model (expected model \"iss\")");
  return *cpu.params().iss;
}

// A core driver's flags (DriverProgram), and what it returns when the core never became ready.
constexpr std::uint32_t kDriverEncrypt = 1, kDriverLoad = 2, kDriverCoreNotReady = 3;

void call_driver(models::RiscvHart& hart, const SoftwareProgram& code, const Layout& l, std::uint32_t base,
                 std::size_t key_bytes, std::size_t bytes, bool encrypt, bool load) {
  hart.call(code.entry_address,
            {base, l.key, static_cast<std::uint32_t>(key_bytes), l.input, l.output,
             static_cast<std::uint32_t>(bytes), (encrypt ? kDriverEncrypt : 0u) | (load ? kDriverLoad : 0u)},
            code.max_instructions);
}

// measure_driver's core, at `base`: STATUS reads READY | VALID, or, `busy_once`, 0 at the first read after a
// CTRL write; other reads 0, writes noted (CTRL's INIT and NEXT counted) and dropped.
class StandInCore final : public models::UntimedDevices {
 public:
  StandInCore(std::uint32_t base, bool busy_once) : base_(base), busy_once_(busy_once) {}
  bool access(bool read, std::uint32_t address, void* data, unsigned size) override {
    namespace reg = models::reg;
    const std::uint32_t offset = address - base_;
    std::uint32_t value = 0;
    if (read) {
      if (offset == reg::kStatus) {
        value = busy_once_ && after_ctrl_ ? 0u : reg::kStatusReady | reg::kStatusValid;
        after_ctrl_ = false;
      }
      std::memcpy(data, &value, std::min(size, 4u));
    } else if (offset == reg::kCtrl) {
      std::memcpy(&value, data, std::min(size, 4u));
      inits += (value & reg::kCtrlInit) != 0;
      nexts += (value & reg::kCtrlNext) != 0;
      after_ctrl_ = true;
    }
    return true;
  }
  std::uint64_t inits = 0, nexts = 0;

 private:
  std::uint32_t base_;
  bool busy_once_;
  bool after_ctrl_ = false;
};

}  // namespace

std::optional<std::uint64_t> SoftwareProgram::Costs::find(const std::string& profile, std::size_t bytes,
                                                          bool encrypt) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = cycles_.find({profile, bytes, encrypt});
  if (it == cycles_.end()) return std::nullopt;
  return it->second;
}

void SoftwareProgram::Costs::note(const std::string& profile, std::size_t bytes, bool encrypt,
                                  std::uint64_t cycles) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  cycles_.emplace(std::make_tuple(profile, bytes, encrypt), cycles);
}

ProgramRunner::Run ProgramRunner::run(Process& p, const SoftwareProgram& program,
                                      const std::vector<std::uint8_t>& key,
                                      const std::vector<std::uint8_t>& input, bool encrypt) {
  const std::string& profile = iss_of(p, program).profile.name;
  ++calls_;
  if (program.reuse_equal_lengths)
    if (const auto known = program.costs.find(profile, input.size(), encrypt)) {
      ++reused_;
      cycles_ += *known;
      p.compute(*known);
      return {{}, true};
    }
  models::RiscvHart& h = hart(p, program);
  const Layout l = place(h, program, key, input);
  start(h, program, l, key.size(), input.size(), encrypt);
  const std::uint64_t cycles_before = h.cycles(), instructions_before = h.instructions(),
                      outside_before = h.outside_accesses();
  execute(p, program, h);
  instructions_ += h.instructions() - instructions_before;
  cycles_ += h.cycles() - cycles_before;
  Run r{finish(h, program, l, input.size()), false};
  if (program.reuse_equal_lengths && h.outside_accesses() == outside_before)
    program.costs.note(profile, input.size(), encrypt, h.cycles() - cycles_before);
  return r;
}

models::RiscvHart& ProgramRunner::hart(Process& p, const SoftwareProgram& program) {
  const models::IssParams& iss = iss_of(p, program);
  auto& hart = harts_[{&p, &program, &p.cpu().cpu()}];
  if (!hart) {
    try {
      hart = std::make_unique<models::RiscvHart>(program.image, iss.profile, iss.memory);
    } catch (const std::exception& e) {
      fail(program, e);
    }
  }
  return *hart;
}

void ProgramRunner::execute(Process& p, const SoftwareProgram& program, models::RiscvHart& hart) {
  try {
    for (;;) {
      models::CpuThread& thread = p.cpu();
      std::uint64_t budget = ~std::uint64_t{0};
      if (p.may_be_preempted()) {  // up to where it may be preempted, seen at least every quantum
        const sc_core::sc_time now = thread.now();
        const sc_core::sc_time quantum = tlm::tlm_global_quantum::instance().get();
        const sc_core::sc_time until = std::min(p.preemption_free_until(), now + quantum);
        const sc_core::sc_time period = thread.cpu().params().clock_period;
        budget = until > now ? static_cast<std::uint64_t>((until - now) / period) : 0;
        budget = std::max(budget, kMinSliceCycles);
      }
      if (hart.run(&thread, thread.custom_extension(), budget).returned) break;
      p.preemption_point();
    }
  } catch (const models::IssError& e) {
    fail(program, e);
  }
}

std::vector<std::uint8_t> ProgramRunner::drive(Process& p, const DriverProgram& driver, std::uint64_t base,
                                               Functionality f, const std::vector<std::uint8_t>& key,
                                               const std::vector<std::uint8_t>& input, bool encrypt,
                                               CoreDriver& state) {
  const SoftwareProgram& code = *driver.code;
  models::RiscvHart& h = hart(p, code);
  if (base > 0xFFFFFFFFu)
    throw DriverError(code.key + ": the core at " + models::hex(base) +
                      " is beyond the 32-bit address space of the instruction-set CPU");
  ++driver_calls_;
  const Layout l = place(h, code, key, input);
  const bool load = !state.holds(base, f, key, encrypt);
  state.forget(base);  // until the driver has returned: what the core holds is not known
  call_driver(h, code, l, static_cast<std::uint32_t>(base), key.size(), input.size(), encrypt, load);
  const std::uint64_t cycles_before = h.cycles(), instructions_before = h.instructions();
  execute(p, code, h);
  driver_instructions_ += h.instructions() - instructions_before;
  driver_cycles_ += h.cycles() - cycles_before;
  if (h.result() == kDriverCoreNotReady)
    throw DeviceFault(code.key + ": " + code.entry + " of " + code.image->path() + ": the core at " +
                      models::hex(base) + " did not become ready (the driver returned " +
                      std::to_string(kDriverCoreNotReady) + ")");
  std::vector<std::uint8_t> out = finish(h, code, l, input.size());
  state.note_loaded(base, f, key, encrypt);
  return out;
}

void ProgramRunner::statistics(models::StatGroup& g) const {
  if (driver_calls_)
    g.add("driver_program_calls", static_cast<double>(driver_calls_), "count",
          "hardware requests whose core a driver that is code drove (runtime.driver.programs)")
        .add("driver_program_instructions", static_cast<double>(driver_instructions_), "count",
             "instructions those drivers ran")
        .add("driver_program_cycles", static_cast<double>(driver_cycles_), "cycles",
             "what those instructions cost under the CPUs' timing profiles (their bus time apart)");
  if (!calls_) return;
  g.add("program_calls", static_cast<double>(calls_), "count",
        "software requests run as code on the instruction-set CPU (software.<f>.program)")
      .add("program_instructions", static_cast<double>(instructions_), "count", "instructions they ran")
      .add("program_cycles", static_cast<double>(cycles_), "cycles",
           "what those instructions cost under the CPUs' timing profiles")
      .add("program_reused_calls", static_cast<double>(reused_), "count",
           "of those calls, the ones that cost what an earlier call of the same length cost, without running "
           "(program.reuse_equal_lengths; their output is the reference's)");
}

std::shared_ptr<const DriverProgram> ProgramRunner::measure_driver(
    std::shared_ptr<const SoftwareProgram> code, const models::IssParams& iss, Functionality f) {
  const FunctionalityInfo& fi = info(f);
  // The stand-in core above the local memory (or below it when that is at the top).
  const std::uint64_t above = (iss.memory.end() + 0xFFFF) & ~std::uint64_t{0xFFFF};
  const std::uint32_t base = above + 0x10000 <= 0x100000000ULL ? static_cast<std::uint32_t>(above) : 0u;
  const std::vector<std::uint8_t> key = draw_key(f, 1);
  // The cycles of one call on `cipher_blocks` cipher blocks, with a key load or without.
  auto cycles = [&](std::uint64_t cipher_blocks, bool busy_once, bool load = true) {
    std::vector<std::uint8_t> data(cipher_blocks * fi.block_bytes);
    draw_data(cipher_blocks, data);
    StandInCore core(base, busy_once);
    std::uint64_t spent = 0;
    try {
      models::RiscvHart hart(code->image, iss.profile, iss.memory);
      const Layout l = place(hart, *code, key, data);
      call_driver(hart, *code, l, base, key.size(), data.size(), true, load);
      spent = hart.run(nullptr, nullptr, ~std::uint64_t{0}, &core).cycles;
      finish(hart, *code, l, data.size());
    } catch (const DriverError&) {
      throw;
    } catch (const std::exception& e) {
      fail(*code, e);
    }
    if (core.inits != (load ? 1u : 0u) || core.nexts != cipher_blocks)
      throw DriverError(code->key + ": " + code->entry + " of " + code->image->path() + " wrote CTRL.INIT " +
                        std::to_string(core.inits) + " and CTRL.NEXT " + std::to_string(core.nexts) +
                        " times for " + (load ? "a key load and " : "no key load and ") +
                        std::to_string(cipher_blocks) + " cipher block(s) (expected " +
                        (load ? "once" : "never") + ", and once a cipher block)");
    return spent;
  };
  const std::uint64_t one = cycles(1, false), two = cycles(2, false), busy = cycles(1, true),
                      loaded = cycles(1, false, false);
  auto driver = std::make_shared<DriverProgram>();
  driver->code = std::move(code);
  driver->f = f;
  driver->cycles_per_cipher_block = two > one ? two - one : 0;
  driver->cycles_per_request =
      one > driver->cycles_per_cipher_block ? one - driver->cycles_per_cipher_block : 0;
  driver->poll_loop_cycles = busy > one ? (busy - one) / 2 : 0;  // the key load's wait and the block's
  driver->key_load_cycles = one > loaded ? one - loaded : 0;
  return driver;
}

ProgramCost ProgramRunner::measure(const SoftwareProgram& program, const models::IssParams& iss,
                                   models::ExtensionUnit* extension, const std::vector<std::uint8_t>& key,
                                   const std::vector<std::uint8_t>& input, bool encrypt,
                                   std::vector<std::uint8_t>* output) {
  try {
    models::RiscvHart hart(program.image, iss.profile, iss.memory);
    const Layout l = place(hart, program, key, input);
    start(hart, program, l, key.size(), input.size(), encrypt);
    const models::RiscvHart::Slice s = hart.run(nullptr, extension, ~std::uint64_t{0});
    std::vector<std::uint8_t> out = finish(hart, program, l, input.size());
    if (output) *output = std::move(out);
    return {s.instructions, s.cycles};
  } catch (const DriverError&) {
    throw;
  } catch (const std::exception& e) {
    fail(program, e);
  }
}

}  // namespace rsoc::runtime
