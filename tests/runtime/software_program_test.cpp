// Software that is code (runtime/software_program.h): the C programs of scenarios/software run for a process
// on the instruction-set CPU, against rsoc's reference ciphers; a call preempted in its middle gives the
// bytes and the cycles of an uninterrupted one; a reused cost; a program that fails.
#include "runtime/software_program.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/desrnd_extension.h"
#include "models/memory.h"
#include "runtime/drivers.h"
#include "runtime/functionality.h"
#include "runtime/scheduler.h"
#include "tests/test_paths.h"

using namespace rsoc;
using sc_core::SC_MS;
using sc_core::sc_time;

namespace {

models::CpuParams iss_cpu() {
  models::CpuParams p;  // 100 MHz
  p.iss = models::IssParams{*models::find_timing_profile("picorv32"), models::LocalMemory{}};
  return p;
}

struct IssCpu {
  models::SoftCpu cpu{"cpu", iss_cpu()};
  models::Memory mem{"mem", models::MemoryParams{}};
  IssCpu() { cpu.initiator.bind(mem.target); }
};

std::unique_ptr<const runtime::SoftwareProgram> program(const std::string& elf, const std::string& entry,
                                                        bool reuse = false) {
  auto p = std::make_unique<runtime::SoftwareProgram>();
  p->image = std::make_shared<const models::ElfImage>(
      models::ElfImage::load(std::string(rsoc_test::kSoftwareDir) + "/" + elf));
  p->entry = entry;
  p->entry_address = p->image->find(entry)->address;
  p->max_instructions = 100000000;
  p->key = "/software/test/program";
  p->reuse_equal_lengths = reuse;
  return p;
}

std::vector<std::uint8_t> bytes(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint8_t> v(n);
  runtime::draw_data(seed, v);
  return v;
}

}  // namespace

TEST(RuntimeSoftwareProgram, APreemptedCallGivesTheBytesAndCyclesOfAnUninterruptedOne) {
  IssCpu c;
  runtime::SchedulerParams sp;
  sp.time_slice = sc_time(1, SC_MS);
  runtime::Scheduler sched(c.cpu.thread(0), sp);
  runtime::ProgramRunner runner;
  const auto aes = program("aes128.elf", "aes128_ecb");
  const auto key = bytes(16, 1), data = bytes(64 * 16, 2);
  std::vector<std::uint8_t> out;
  sc_time cpu_time;
  std::uint64_t preemptions = 0;
  sched.spawn("aes", 0, [&](runtime::Process& p) {
    out = runner.run(p, *aes, key, data, true).output;
    cpu_time = p.cpu_time();
    preemptions = p.preemptions();
  });
  sched.spawn("other", 0, [&](runtime::Process& p) { p.compute(500000); });  // 5 ms, in 1 ms slices
  sc_core::sc_start();
  EXPECT_EQ(out, runtime::reference_output(runtime::Functionality::kAes128, key, data, true));
  EXPECT_GT(preemptions, 0u);
  // Alone and untimed: the same cycles.
  std::vector<std::uint8_t> alone;
  const runtime::ProgramCost cost =
      runtime::ProgramRunner::measure(*aes, *c.cpu.params().iss, nullptr, key, data, true, &alone);
  EXPECT_EQ(alone, out);
  EXPECT_EQ(cpu_time, sc_time(10, sc_core::SC_NS) * static_cast<double>(cost.cycles));
  EXPECT_GT(cost.cycles, 64u * 989 * 3);  // at least the instructions of its 64 blocks at the cheapest class
  EXPECT_EQ(runner.instructions(), cost.instructions);
}

TEST(RuntimeSoftwareProgram, DesOnTheExtensionUnitComputesDesAndCostsFewerCycles) {
  const auto plain = program("des.elf", "des_ecb"), unit = program("des_desrnd.elf", "des_ecb_desrnd"),
             unit3 = program("des_desrnd.elf", "tdes_ecb_desrnd");
  const models::IssParams iss = *iss_cpu().iss;
  models::DesrndExtension desrnd(models::DesrndParams{2, 1});
  const auto key = bytes(8, 3), key3 = bytes(24, 4), data = bytes(32 * 8, 5);
  std::vector<std::uint8_t> a, b, c3;
  const auto by_tables = runtime::ProgramRunner::measure(*plain, iss, nullptr, key, data, false, &a);
  const auto by_unit = runtime::ProgramRunner::measure(*unit, iss, &desrnd, key, data, false, &b);
  runtime::ProgramRunner::measure(*unit3, iss, &desrnd, key3, data, true, &c3);
  EXPECT_EQ(a, runtime::reference_output(runtime::Functionality::kDes, key, data, false));
  EXPECT_EQ(b, a);
  EXPECT_EQ(c3, runtime::reference_output(runtime::Functionality::kTripleDes, key3, data, true));
  EXPECT_LT(by_unit.cycles * 5, by_tables.cycles);
  EXPECT_EQ(desrnd.instructions(), 32u * 8 + 32u * 24);  // 8 desrnd a pass at two rounds each
}

TEST(RuntimeSoftwareProgram, ReusedCostsAreThoseOfTheFirstCallOfTheLength) {
  IssCpu c;
  runtime::Scheduler sched(c.cpu.thread(0), runtime::SchedulerParams{});
  runtime::ProgramRunner runner;
  const auto aes = program("aes128.elf", "aes128_ecb", true);
  const auto key = bytes(16, 1);
  std::vector<bool> reused;
  std::vector<sc_time> took;
  sched.spawn("aes", 0, [&](runtime::Process& p) {
    for (std::size_t blocks : {4, 4, 8, 4}) {
      const sc_time t0 = p.cpu().now();
      reused.push_back(runner.run(p, *aes, key, bytes(blocks * 16, blocks), true).reused);
      took.push_back(p.cpu().now() - t0);
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(reused, (std::vector<bool>{false, true, false, true}));
  EXPECT_EQ(took[1], took[0]);
  EXPECT_EQ(took[3], took[0]);
  EXPECT_GT(took[2], took[0]);
  EXPECT_EQ(runner.calls(), 4u);
}

TEST(RuntimeSoftwareProgram, AProgramThatRefusesItsInputsFailsTheRequestNamingIt) {
  IssCpu c;
  runtime::Scheduler sched(c.cpu.thread(0), runtime::SchedulerParams{});
  runtime::ProgramRunner runner;
  const auto aes = program("aes128.elf", "aes128_ecb");
  std::string message;
  sched.spawn("aes", 0, [&](runtime::Process& p) {
    try {
      runner.run(p, *aes, bytes(15, 1), bytes(32, 2), true);  // a 15-byte key
    } catch (const runtime::DriverError& e) {
      message = e.what();
    }
  });
  sc_core::sc_start();
  EXPECT_NE(message.find("/software/test/program: aes128_ecb of "), std::string::npos) << message;
  EXPECT_NE(message.find("aes128.elf returned 1 (expected 0) for 32 bytes"), std::string::npos) << message;
}

TEST(RuntimeSoftwareProgram, ARequestTooLargeForTheLocalMemoryIsRefused) {
  const auto aes = program("aes128.elf", "aes128_ecb");
  models::IssParams iss = *iss_cpu().iss;
  iss.memory.size = 64 * 1024;
  try {
    runtime::ProgramRunner::measure(*aes, iss, nullptr, bytes(16, 1), bytes(32 * 1024, 2), true);
    FAIL();
  } catch (const runtime::DriverError& e) {
    EXPECT_NE(std::string(e.what()).find("(raise local_memory.size_kib of the CPU)"), std::string::npos)
        << e.what();
  }
}
