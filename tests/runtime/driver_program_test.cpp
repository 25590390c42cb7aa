// Drivers that are code (runtime.driver.programs): the cipher cores' driver in C (scenarios/software/
// core_driver.c) run on the instruction-set CPU against the core models makes the register accesses of the
// driver model (runtime/drivers.h: CoreDriver), in the same order with the same values, and takes its time
// when the model is given the cycles the runtime measures from the code; a slow core is polled; a core that
// never becomes ready is a device fault; a CPU without an instruction-set model cannot run a driver.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <string>
#include <systemc>
#include <tuple>
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
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

constexpr std::uint64_t kCoreA = 0x80000000, kCoreB = 0x80010000, kRam = 0x90000000;

// Between the bus and a slot: notes every access (read or write, offset in the slot, value) and forwards it.
class Tap : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Tap> target{"target"};
  tlm_utils::simple_initiator_socket<Tap> initiator{"initiator"};
  struct Access {
    bool write;
    std::uint64_t offset;
    std::uint32_t value;
    bool operator==(const Access& o) const {
      return std::tie(write, offset, value) == std::tie(o.write, o.offset, o.value);
    }
  };
  std::vector<Access> log;

  explicit Tap(const sc_core::sc_module_name& name) : sc_module(name) {
    target.register_b_transport(this, &Tap::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    initiator->b_transport(trans, delay);
    std::uint32_t value = 0;
    std::memcpy(&value, trans.get_data_ptr(), 4);
    log.push_back({trans.is_write(), trans.get_address(), value});
  }
};

std::ostream& operator<<(std::ostream& os, const Tap::Access& a) {
  return os << (a.write ? "W " : "R ") << std::hex << a.offset << " = " << a.value << std::dec;
}

models::CpuParams driver_iss_cpu() {
  models::CpuParams p;  // 100 MHz
  p.mmio_cycles = 0;    // the code's load and store instructions are the cost of its accesses
  p.iss = models::IssParams{*models::find_timing_profile("picorv32"), models::LocalMemory{}};
  return p;
}

// A 100 MHz RV32IMC CPU on a bus (2 + 1 cycles) with two slots holding cores of `kind` (`block_cycles`
// a block) behind taps, and a RAM at kRam.
struct DriverBench {
  explicit DriverBench(models::CoreKind kind, unsigned block_cycles) {
    bus.add_initiator(cpu.initiator);
    for (auto [slot, tap, base] : {std::tuple{&a, &tap_a, kCoreA}, std::tuple{&b, &tap_b, kCoreB}}) {
      models::CoreParams core{kind};
      core.block_cycles = block_cycles;
      core.key_setup_cycles = 4;
      slot->add_candidate(1, models::make_core(std::string(slot->basename()) + ".core", core));
      slot->preload(1);
      tap->initiator.bind(slot->target);
      bus.add_target(tap->target, base, 0x2000, slot->basename());
    }
    bus.add_target(ram.target, kRam, 0x1000, "ram");
  }
  models::SoftCpu cpu{"cpu", driver_iss_cpu()};
  models::OnChipBus bus{"bus", models::OnChipBusParams{sc_time(10, SC_NS), 2, 1}};
  models::FpgaSlot a{"a", models::SlotParams{}}, b{"b", models::SlotParams{}};
  Tap tap_a{"tap_a"}, tap_b{"tap_b"};
  models::Memory ram{"ram", models::MemoryParams{0x1000, sc_time(10, SC_NS), 1, 1}};
};

std::shared_ptr<const runtime::DriverProgram> driver(const std::string& entry, runtime::Functionality f,
                                                     const models::IssParams& iss) {
  auto code = std::make_shared<runtime::SoftwareProgram>();
  code->image = std::make_shared<const models::ElfImage>(
      models::ElfImage::load(std::string(rsoc_test::kSoftwareDir) + "/core_driver.elf"));
  code->entry = entry;
  code->entry_address = code->image->find(entry)->address;
  code->max_instructions = 100000000;
  code->key = "/runtime/driver/programs/test";
  return runtime::ProgramRunner::measure_driver(std::move(code), iss, f);
}

std::vector<std::uint8_t> drawn_bytes(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint8_t> v(n);
  runtime::draw_data(seed, v);
  return v;
}

}  // namespace

TEST(RuntimeDriverProgram, TheDriverInCMakesTheModelsAccessesInItsTime) {
  DriverBench bench(models::CoreKind::kAes128, 2);  // done before a status read can reach it
  runtime::Scheduler sched(bench.cpu.thread(0), runtime::SchedulerParams{});
  const auto aes = driver("aes128_core_pio", runtime::Functionality::kAes128, *bench.cpu.params().iss);
  ASSERT_GT(aes->cycles_per_cipher_block, 0u);
  ASSERT_GT(aes->cycles_per_request, 0u);
  runtime::DriverCosts costs;  // the model, given what the code costs
  costs.cycles_per_request = aes->cycles_per_request;
  costs.cycles_per_cipher_block = aes->cycles_per_cipher_block;
  costs.pio_timing = runtime::PioTiming::kWord;
  runtime::CoreDriver model(costs), code_state(costs);
  runtime::ProgramRunner runner;
  const auto key = drawn_bytes(16, 1);
  std::vector<std::vector<std::uint8_t>> by_code, by_model;
  std::vector<sc_time> code_took, model_took;
  sched.spawn("driver", 0, [&](runtime::Process& p) {
    for (std::size_t blocks : {3, 5}) {  // the second request finds the key loaded
      const auto data = drawn_bytes(16 * blocks, blocks);
      sc_time t0 = p.cpu().now();
      by_code.push_back(
          runner.drive(p, *aes, kCoreA, runtime::Functionality::kAes128, key, data, true, code_state));
      code_took.push_back(p.cpu().now() - t0);
      t0 = p.cpu().now();
      by_model.push_back(model.run(p, kCoreB, runtime::Functionality::kAes128, key, data, true));
      model_took.push_back(p.cpu().now() - t0);
    }
  });
  sc_core::sc_start();
  ASSERT_EQ(by_code.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(by_code[i], runtime::reference_output(runtime::Functionality::kAes128, key,
                                                    drawn_bytes(16 * (i ? 5 : 3), i ? 5 : 3), true));
    EXPECT_EQ(by_code[i], by_model[i]);
  }
  // With the key load, the model's time; without (the core holds the key), less the code's key load, which
  // the model does not know from the rest of a request's work.
  EXPECT_EQ(code_took[0], model_took[0]);
  ASSERT_GT(aes->key_load_cycles, 0u);
  EXPECT_EQ(code_took[1], model_took[1] - sc_time(10, SC_NS) * static_cast<double>(aes->key_load_cycles));
  // Key (4 words), CONFIG, INIT, a status read; then per cipher block 4 + 1 writes, a status read, 4 reads.
  EXPECT_EQ(bench.tap_a.log.size(), 7u + 8 * 10);
  EXPECT_EQ(bench.tap_a.log, bench.tap_b.log);
  EXPECT_EQ(runner.driver_calls(), 2u);
}

TEST(RuntimeDriverProgram, ASlowCoreIsPolledUntilItsResultIsValid) {
  DriverBench bench(models::CoreKind::kDes, 400);  // 4 us a block
  runtime::Scheduler sched(bench.cpu.thread(0), runtime::SchedulerParams{});
  auto des = driver("des_core_pio", runtime::Functionality::kDes, *bench.cpu.params().iss);
  runtime::CoreDriver state{runtime::DriverCosts{}};
  runtime::ProgramRunner runner;
  const auto key = drawn_bytes(8, 7), data = drawn_bytes(8 * 4, 8);
  std::vector<std::uint8_t> out;
  sched.spawn("driver", 0, [&](runtime::Process& p) {
    out = runner.drive(p, *des, kCoreA, runtime::Functionality::kDes, key, data, false, state);
  });
  sc_core::sc_start();
  EXPECT_EQ(out, runtime::reference_output(runtime::Functionality::kDes, key, data, false));
  std::size_t status_reads = 0;
  for (const Tap::Access& a : bench.tap_a.log) status_reads += !a.write && a.offset == models::reg::kStatus;
  // Each block waits 4 us for the core; a poll takes the bus's 30 ns and the loop's cycles at least.
  EXPECT_GT(status_reads, 1 + 4 * 10u);
  EXPECT_LT(status_reads, 1 + 4 * (4000 / 30 + 2u));
  // Each poll beyond a block's first cost the loop's measured cycles and the read.
  EXPECT_GT(des->poll_loop_cycles, 0u);
}

TEST(RuntimeDriverProgram, ACoreThatNeverBecomesReadyIsADeviceFault) {
  DriverBench bench(models::CoreKind::kAes128, 2);
  runtime::Scheduler sched(bench.cpu.thread(0), runtime::SchedulerParams{});
  const auto aes = driver("aes128_core_pio", runtime::Functionality::kAes128, *bench.cpu.params().iss);
  runtime::CoreDriver state{runtime::DriverCosts{}};
  runtime::ProgramRunner runner;
  std::string fault;
  sched.spawn("driver", 0, [&](runtime::Process& p) {
    try {  // a RAM whose STATUS word reads 0
      runner.drive(p, *aes, kRam, runtime::Functionality::kAes128, drawn_bytes(16, 1), drawn_bytes(16, 2),
                   true, state);
    } catch (const runtime::DeviceFault& e) {
      fault = e.what();
    }
  });
  sc_core::sc_start();
  EXPECT_NE(fault.find("aes128_core_pio of "), std::string::npos) << fault;
  EXPECT_NE(fault.find("the core at 0x90000000 did not become ready"), std::string::npos) << fault;
}

TEST(RuntimeDriverProgram, ACpuWithoutAnInstructionSetModelCannotRunIt) {
  models::SoftCpu cpu{"cpu", models::CpuParams{}};
  models::Memory mem{"mem", models::MemoryParams{}};
  cpu.initiator.bind(mem.target);
  runtime::Scheduler sched(cpu.thread(0), runtime::SchedulerParams{});
  const auto aes = driver("aes128_core_pio", runtime::Functionality::kAes128, *driver_iss_cpu().iss);
  runtime::CoreDriver state{runtime::DriverCosts{}};
  runtime::ProgramRunner runner;
  std::string error;
  sched.spawn("driver", 0, [&](runtime::Process& p) {
    try {
      runner.drive(p, *aes, kCoreA, runtime::Functionality::kAes128, drawn_bytes(16, 1), drawn_bytes(16, 2),
                   true, state);
    } catch (const runtime::DriverError& e) {
      error = e.what();
    }
  });
  sc_core::sc_start();
  EXPECT_NE(error.find("which has no instruction-set model"), std::string::npos) << error;
}

TEST(RuntimeDriverProgram, TheMeasurementCountsTheCodesCyclesOnAStandIn) {
  const models::IssParams iss = *driver_iss_cpu().iss;
  const auto aes = driver("aes128_core_pio", runtime::Functionality::kAes128, iss),
             des3 = driver("tdes_core_pio", runtime::Functionality::kTripleDes, iss);
  // A cipher block: 4 stores, a store, a load and its test, 4 loads, and the byte work around them.
  EXPECT_GT(aes->cycles_per_cipher_block, 10u * 3);
  EXPECT_LT(aes->cycles_per_cipher_block, 1000u);
  // 3DES writes six key words where AES writes four, its cipher block is two words.
  EXPECT_GT(des3->cycles_per_request, aes->cycles_per_request);
  EXPECT_LT(des3->cycles_per_cipher_block, aes->cycles_per_cipher_block);
}
