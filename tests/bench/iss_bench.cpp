// Benchmark: the instruction-set CPU's speed. AES-128 and DES from scenarios/software run on an RV32IMC hart
// (timing profile picorv32, 100 MHz): once untimed (the emulator and the per-instruction timing hook alone),
// and as an OS process on a SoftCpu under the scheduler (timing on: cycles charged to the CPU thread, its
// quantum keeper synchronising). Prints simulated instructions per second of wall time; asserts nothing.
//   build/tests/bench_iss [BLOCKS_OF_4KIB]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/memory.h"
#include "runtime/functionality.h"
#include "runtime/scheduler.h"
#include "runtime/software_program.h"

using namespace rsoc;

namespace {

std::unique_ptr<runtime::SoftwareProgram> program(const char* elf, const char* entry) {
  auto p = std::make_unique<runtime::SoftwareProgram>();
  p->image = std::make_shared<const models::ElfImage>(
      models::ElfImage::load(std::string(RSOC_SOFTWARE_DIR) + "/" + elf));
  p->entry = entry;
  p->entry_address = p->image->find(entry)->address;
  p->key = std::string("/software/") + entry + "/program";
  return p;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  const std::size_t blocks = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 64;
  models::CpuParams cpu_params;  // 100 MHz
  cpu_params.iss =
      models::IssParams{*models::find_timing_profile("picorv32"), models::LocalMemory{0x10000000, 4 << 20}};
  const auto aes = program("aes128.elf", "aes128_ecb"), des = program("des.elf", "des_ecb");
  std::vector<std::uint8_t> key16(16), key8(8), data(blocks * 4096);
  runtime::draw_data(1, key16);
  runtime::draw_data(2, key8);
  runtime::draw_data(3, data);

  // Untimed: the emulator and the hook.
  for (const auto* p : {aes.get(), des.get()}) {
    const auto t0 = std::chrono::steady_clock::now();
    const runtime::ProgramCost c = runtime::ProgramRunner::measure(*p, *cpu_params.iss, nullptr,
                                                                   p == aes.get() ? key16 : key8, data, true);
    const double s = seconds_since(t0);
    std::printf("untimed %-10s %llu instructions, %llu cycles in %.3f s: %.1f M instructions/s\n",
                p->entry.c_str(), static_cast<unsigned long long>(c.instructions),
                static_cast<unsigned long long>(c.cycles), s, static_cast<double>(c.instructions) / s / 1e6);
  }

  // Timed, as an OS process (a second one competing for the CPU: preemptions at every 1 ms slice).
  models::SoftCpu cpu("cpu", cpu_params);
  models::Memory mem("mem", models::MemoryParams{});
  cpu.initiator.bind(mem.target);
  runtime::SchedulerParams sp;
  sp.time_slice = sc_core::sc_time(1, sc_core::SC_MS);
  runtime::Scheduler sched(cpu.thread(0), sp);
  runtime::ProgramRunner runner;
  double wall = 0;
  sched.spawn("ciphers", 0, [&](runtime::Process& p) {
    const auto t0 = std::chrono::steady_clock::now();
    runner.run(p, *aes, key16, data, true);
    runner.run(p, *des, key8, data, true);
    wall = seconds_since(t0);
  });
  sched.spawn("other", 0, [&](runtime::Process& p) {
    for (int i = 0; i < 1000; ++i) p.compute(50000);
  });
  sc_core::sc_start();
  std::printf(
      "timed   both       %llu instructions (%.1f ms simulated) in %.3f s: %.1f M instructions/s, "
      "under a preemptive scheduler\n",
      static_cast<unsigned long long>(runner.instructions()), sc_core::sc_time_stamp().to_seconds() * 1e3,
      wall, static_cast<double>(runner.instructions()) / wall / 1e6);
  return 0;
}

int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
