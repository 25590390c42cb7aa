#include "runtime/software_program.h"

#include <algorithm>
#include <systemc>
#include <tlm>

#include "models/address_map.h"
#include "models/soft_cpu.h"
#include "runtime/drivers.h"
#include "runtime/scheduler.h"

namespace rsoc::runtime {

namespace {

constexpr std::uint32_t align16(std::uint64_t v) {
  return static_cast<std::uint32_t>((v + 15) & ~std::uint64_t{15});
}

// Where a call's buffers go: key, input and output one after the other above the program.
struct Layout {
  std::uint32_t key = 0, input = 0, output = 0;
};

Layout place(models::RiscvHart& hart, const SoftwareProgram& program, const std::vector<std::uint8_t>& key,
             const std::vector<std::uint8_t>& input) {
  Layout l;
  l.key = align16(program.image->end());
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
  throw DriverError(program.key + ": " + program.entry + " of " + program.image->path() + ": " + e.what());
}

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
  models::SoftCpu& cpu = p.cpu().cpu();
  if (!cpu.params().iss)
    throw DriverError(program.key + ": the process runs on CPU \"" + std::string(cpu.name()) +
                      "\", which has no instruction-set model (expected model \"iss\")");
  ++calls_;
  const std::string& profile = cpu.params().iss->profile.name;
  if (program.reuse_equal_lengths)
    if (const auto known = program.costs.find(profile, input.size(), encrypt)) {
      ++reused_;
      cycles_ += *known;
      p.compute(*known);
      return {{}, true};
    }
  auto& hart = harts_[{&p, &program, &cpu}];
  if (!hart) {
    try {
      hart = std::make_unique<models::RiscvHart>(program.image, cpu.params().iss->profile,
                                                 cpu.params().iss->memory);
    } catch (const std::exception& e) {
      fail(program, e);
    }
  }
  const Layout l = place(*hart, program, key, input);
  start(*hart, program, l, key.size(), input.size(), encrypt);
  const std::uint64_t cycles_before = hart->cycles(), outside_before = hart->outside_accesses();
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
      const models::RiscvHart::Slice s = hart->run(&thread, thread.custom_extension(), budget);
      instructions_ += s.instructions;
      cycles_ += s.cycles;
      if (s.returned) break;
      p.preemption_point();
    }
  } catch (const models::IssError& e) {
    fail(program, e);
  }
  Run r{finish(*hart, program, l, input.size()), false};
  if (program.reuse_equal_lengths && hart->outside_accesses() == outside_before)
    program.costs.note(profile, input.size(), encrypt, hart->cycles() - cycles_before);
  return r;
}

void ProgramRunner::statistics(models::StatGroup& g) const {
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
