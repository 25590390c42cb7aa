// Benchmark: the instruction-set CPU's speed. AES-128 and DES from scenarios/software run on an RV32IMC hart
// (timing profile picorv32, 100 MHz): once untimed (the emulator and the per-instruction timing hook alone),
// and as an OS process on a SoftCpu under the scheduler (timing on: cycles charged to the CPU thread, its
// quantum keeper synchronising). Then the AES core's driver in C (scenarios/software/core_driver.c) against
// an AES core in a slot on the CPU's bus, beside the driver model (runtime/drivers.h) in word and burst
// timing on the same data. Prints simulated instructions and register accesses per second of wall time, and
// the driver's time relative to the model's; asserts nothing.
//   build/tests/bench_iss [BLOCKS_OF_4KIB]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/fpga_slot.h"
#include "models/ip_core.h"
#include "models/memory.h"
#include "models/onchip_bus.h"
#include "runtime/drivers.h"
#include "runtime/functionality.h"
#include "runtime/scheduler.h"
#include "runtime/software_program.h"
#include "tests/test_paths.h"

using namespace rsoc;

namespace {

std::unique_ptr<runtime::SoftwareProgram> program(const char* elf, const char* entry) {
  auto p = std::make_unique<runtime::SoftwareProgram>();
  p->image = std::make_shared<const models::ElfImage>(
      models::ElfImage::load(std::string(rsoc_test::kSoftwareDir) + "/" + elf));
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
  // The CPU's bus (2 + 1 cycles at 100 MHz): the memory, and an AES core in a slot for the driver.
  constexpr std::uint64_t kCore = 0x80000000;
  models::OnChipBus bus("bus", models::OnChipBusParams{sc_core::sc_time(10, sc_core::SC_NS), 2, 1});
  models::FpgaSlot slot("slot", models::SlotParams{});
  slot.add_candidate(1, models::make_core("aes", models::CoreParams{models::CoreKind::kAes128}));
  slot.preload(1);
  bus.add_initiator(cpu.initiator);
  bus.add_target(mem.target, 0, models::MemoryParams{}.size_bytes, "mem");
  bus.add_target(slot.target, kCore, 0x2000, "slot");
  runtime::SchedulerParams sp;
  sp.time_slice = sc_core::sc_time(1, sc_core::SC_MS);
  runtime::Scheduler sched(cpu.thread(0), sp);
  runtime::ProgramRunner runner;
  double wall = 0, simulated_ms = 0;
  auto core_driver = std::make_shared<runtime::SoftwareProgram>();
  core_driver->image = program("core_driver.elf", "aes128_core_pio")->image;
  core_driver->entry = "aes128_core_pio";
  core_driver->entry_address = core_driver->image->find("aes128_core_pio")->address;
  core_driver->key = "/runtime/driver/programs/aes128";
  const auto driver =
      runtime::ProgramRunner::measure_driver(core_driver, *cpu_params.iss, runtime::Functionality::kAes128);
  runtime::ProgramRunner driver_runner;
  runtime::DriverCosts word, burst;
  word.pio_timing = runtime::PioTiming::kWord;
  runtime::CoreDriver state(word), by_word(word), by_burst(burst);
  double code_wall = 0, word_wall = 0, burst_wall = 0;
  std::uint64_t accesses = 0;
  sched.spawn("ciphers", 0, [&](runtime::Process& p) {
    auto t0 = std::chrono::steady_clock::now();
    runner.run(p, *aes, key16, data, true);
    runner.run(p, *des, key8, data, true);
    wall = seconds_since(t0);
    simulated_ms = p.cpu().now().to_seconds() * 1e3;
    // Then the AES core by the driver in C, and by the driver model.
    t0 = std::chrono::steady_clock::now();
    const std::uint64_t before = p.cpu().accesses();
    driver_runner.drive(p, *driver, kCore, runtime::Functionality::kAes128, key16, data, true, state);
    code_wall = seconds_since(t0);
    accesses = p.cpu().accesses() - before;
    t0 = std::chrono::steady_clock::now();
    by_word.run(p, kCore, runtime::Functionality::kAes128, key16, data, true);
    word_wall = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    by_burst.run(p, kCore, runtime::Functionality::kAes128, key16, data, true);
    burst_wall = seconds_since(t0);
  });
  sched.spawn("other", 0, [&](runtime::Process& p) {
    for (int i = 0; i < 1000; ++i) p.compute(50000);
  });
  sc_core::sc_start();
  std::printf(
      "timed   both       %llu instructions (%.1f ms simulated) in %.3f s: %.1f M instructions/s, "
      "under a preemptive scheduler\n",
      static_cast<unsigned long long>(runner.instructions()), simulated_ms, wall,
      static_cast<double>(runner.instructions()) / wall / 1e6);
  const double instructions = static_cast<double>(driver_runner.driver_instructions());
  std::printf(
      "driver  aes128_core_pio %.0f instructions, %llu register accesses for %zu cipher blocks in %.3f s: "
      "%.1f M instructions/s, %.1f M accesses/s; the driver model %.3f s in word timing (the code %.2fx "
      "that), %.3f s in burst timing (%.2fx)\n",
      instructions, static_cast<unsigned long long>(accesses), data.size() / 16, code_wall,
      instructions / code_wall / 1e6, static_cast<double>(accesses) / code_wall / 1e6, word_wall,
      code_wall / word_wall, burst_wall, code_wall / burst_wall);
  return 0;
}

int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
