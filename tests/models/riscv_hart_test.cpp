// RiscvHart: RV32IMC programs (tests/software/iss_selftest.S) on the Unicorn emulator with exact cycles under
// a timing profile, loads and stores of every width, branches, compressed instructions, device accesses
// through the bus, the extension unit's custom instructions, preemption between two instructions, and every
// error. ElfImage and the decoder on their own.
#include "models/riscv_hart.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "models/crypto/des_round_unit.h"
#include "models/desrnd_extension.h"
#include "models/elf_image.h"
#include "models/memory.h"
#include "models/onchip_bus.h"
#include "models/riscv_timing.h"
#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"
#include "tests/test_paths.h"

namespace rsoc::models {
namespace {

using test::ns;

// Every class a different prime, so that a count in the wrong class shows.
TimingProfile test_profile() {
  TimingProfile p;
  p.name = "test";
  p.cycles = {2, 3, 5, 7, 11, 13, 17, 23, 29, 31, 0};  // alu .. system; kBranch not taken: 17
  p.branch_taken = 19;
  return p;
}

struct ClassCounts {
  std::uint64_t alu = 0, shift = 0, mul = 0, div = 0, load = 0, store = 0, taken = 0, not_taken = 0, jal = 0,
                jalr = 0, extension = 0;
  std::uint64_t cycles(const TimingProfile& p, std::uint64_t extension_cycles = 0) const {
    return alu * p.of(RvClass::kAlu) + shift * p.of(RvClass::kShift) + mul * p.of(RvClass::kMul) +
           div * p.of(RvClass::kDiv) + load * p.of(RvClass::kLoad) + store * p.of(RvClass::kStore) +
           taken * p.branch_taken + not_taken * p.of(RvClass::kBranch) + jal * p.of(RvClass::kJal) +
           jalr * p.of(RvClass::kJalr) + extension * extension_cycles;
  }
  std::uint64_t instructions() const {
    return alu + shift + mul + div + load + store + taken + not_taken + jal + jalr + extension;
  }
};

std::shared_ptr<const ElfImage> selftest() {
  static const auto image = std::make_shared<const ElfImage>(
      ElfImage::load(std::string(rsoc_test::kSoftwareDir) + "/iss_selftest.elf"));
  return image;
}

std::uint32_t entry(const char* name) {
  const ElfImage::Symbol* s = selftest()->find(name);
  EXPECT_NE(s, nullptr) << name;
  return s ? s->address : 0;
}

constexpr std::uint64_t kDevice = 0x80000000;

// CPU (10 ns, two hardware threads) -> bus (10 ns) -> 1 MiB memory at kDevice; the hart's local memory at
// 0x10000000.
struct HartBench {
  HartBench()
      : cpu("cpu", CpuParams{ns(10), 2, 1, 1024}),
        bus("bus", OnChipBusParams{ns(10), 1, 1}),
        mem("mem", MemoryParams{1 << 20, ns(10), 2, 1}),
        profile(test_profile()),
        hart(selftest(), profile, LocalMemory{}) {
    bus.add_initiator(cpu.initiator);
    bus.add_target(mem.target, kDevice, 1 << 20, "mem");
  }
  // Runs the call to its end on thread 0 in one slice.
  RiscvHart::Slice run_through(ExtensionUnit* extension = nullptr) {
    return hart.run(&cpu.thread(0), extension, ~std::uint64_t{0});
  }
  SoftCpu cpu;
  OnChipBus bus;
  Memory mem;
  TimingProfile profile;
  RiscvHart hart;
};

TEST(ModelRiscvHart, ArithmeticCostsEachClassItsCycles) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  HartBench b;
  RiscvHart::Slice s;
  sc_core::sc_time end;
  test::TestThread th("th", [&] {
    b.hart.call(entry("arith"), {1000003, 7});
    s = b.run_through();
    end = b.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  const std::int32_t x = 1000003, y = 7;
  std::int32_t t =
      static_cast<std::int32_t>((static_cast<std::uint32_t>(x + y) << 3) ^ static_cast<std::uint32_t>(x * y));
  t += x / y;
  t -= x % y;
  const std::int32_t expected = (t >> y) + static_cast<std::int32_t>((std::int64_t{x} * x) >> 32);
  EXPECT_EQ(b.hart.result(), static_cast<std::uint32_t>(expected));
  ClassCounts c;
  c.alu = 5, c.shift = 2, c.mul = 2, c.div = 2, c.jalr = 1;
  EXPECT_TRUE(s.returned);
  EXPECT_EQ(s.instructions, c.instructions());
  EXPECT_EQ(s.cycles, c.cycles(b.profile));
  EXPECT_EQ(end, ns(10) * static_cast<double>(c.cycles(b.profile)));
  EXPECT_EQ(b.cpu.thread(0).cycles(), c.cycles(b.profile));
}

TEST(ModelRiscvHart, LoadsAndStoresOfEveryWidthInTheLocalMemory) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  HartBench b;
  RiscvHart::Slice s;
  const std::uint32_t buffer = b.hart.memory().base + 0x20000;
  std::uint8_t bytes[8] = {};
  test::TestThread th("th", [&] {
    b.hart.call(entry("widths"), {buffer});
    s = b.run_through();
    b.hart.read_memory(buffer, bytes, sizeof bytes);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  const std::uint8_t stored[7] = {0x78, 0x56, 0x34, 0x12, 0x78, 0x56, 0x78};
  EXPECT_EQ(std::vector<std::uint8_t>(bytes, bytes + 7), std::vector<std::uint8_t>(stored, stored + 7));
  const std::uint32_t w = 0x12345678, h = 0x1234, hu = 0x5678, byte = 0x12, bu = 0x78;  // lh 2(p): 0x1234
  EXPECT_EQ(b.hart.result(), ((((w + h) ^ hu) + byte) - bu) + 1);
  ClassCounts c;
  c.alu = 2 + 5, c.store = 3, c.load = 5, c.jalr = 1;
  EXPECT_EQ(s.instructions, c.instructions());
  EXPECT_EQ(s.cycles, c.cycles(b.profile));
  EXPECT_EQ(b.cpu.thread(0).io_time(), sc_core::SC_ZERO_TIME);  // nothing left the local memory
}

TEST(ModelRiscvHart, TakenAndNotTakenBranchesAndCalls) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  HartBench b;
  RiscvHart::Slice s;
  test::TestThread th("th", [&] {
    b.hart.call(entry("sum"), {10});
    s = b.run_through();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(b.hart.result(), 55u);
  ClassCounts c;
  c.alu = 2 * 10 + 4, c.taken = 9, c.not_taken = 1, c.jal = 1, c.jalr = 2;
  EXPECT_EQ(s.instructions, c.instructions());
  EXPECT_EQ(s.cycles, c.cycles(b.profile));
}

TEST(ModelRiscvHart, AccessesOutsideTheLocalMemoryGoThroughTheBus) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  HartBench b;
  sc_core::sc_time end, reference_io;
  std::uint32_t stored = 0;
  test::TestThread th("th", [&] {
    b.hart.call(entry("device"), {static_cast<std::uint32_t>(kDevice + 0x40)});
    b.run_through();
    end = b.cpu.thread(0).now();
    // The same two accesses made directly by the other hardware thread, afterwards.
    CpuThread& other = b.cpu.thread(1);
    other.sync();
    const sc_core::sc_time t0 = other.now();
    std::uint32_t v = static_cast<std::uint32_t>(kDevice + 0x40);
    other.instruction_access(tlm::TLM_WRITE_COMMAND, kDevice + 0x40, reinterpret_cast<unsigned char*>(&v), 4);
    other.instruction_access(tlm::TLM_READ_COMMAND, kDevice + 0x40, reinterpret_cast<unsigned char*>(&stored),
                             4);
    reference_io = other.now() - t0;
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(b.hart.result(), static_cast<std::uint32_t>(kDevice + 0x41));
  EXPECT_EQ(stored, static_cast<std::uint32_t>(kDevice + 0x40));  // the store reached the memory
  ClassCounts c;
  c.store = 1, c.load = 1, c.alu = 1, c.jalr = 1;
  EXPECT_GT(reference_io, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(b.cpu.thread(0).io_time(), reference_io);
  EXPECT_EQ(end, ns(10) * static_cast<double>(c.cycles(b.profile)) + reference_io);
  EXPECT_EQ(b.cpu.thread(0).accesses(), 2u);
}

TEST(ModelRiscvHart, CustomInstructionsReachTheExtensionUnit) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  HartBench b;
  DesrndExtension unit(DesrndParams{2, 3});
  RiscvHart::Slice s;
  std::uint32_t out[2] = {};
  const std::uint32_t c0 = 0x0f0f0f0, d0 = 0x5555555, l = 0x01234567, r = 0x89abcdef;
  const std::uint32_t buffer = b.hart.memory().base + 0x20000;
  test::TestThread th("th", [&] {
    b.hart.call(entry("extension"), {c0, d0, l, r, buffer});
    s = b.run_through(&unit);
    b.hart.read_memory(buffer, out, sizeof out);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  // The same pass on a unit of its own.
  crypto::DesRoundUnit reference(2);
  reference.write(crypto::DesrndRegister::c, c0);
  reference.write(crypto::DesrndRegister::d, d0);
  reference.write(crypto::DesrndRegister::l, l);
  reference.write(crypto::DesrndRegister::r, r);
  for (unsigned round = 0; round < 16; round += 2)
    reference.desrnd(crypto::DesrndOperand::encode(false, round, round == 0, round == 14));
  EXPECT_EQ(out[0], reference.read(crypto::DesrndRegister::l));
  EXPECT_EQ(out[1], reference.read(crypto::DesrndRegister::r));
  EXPECT_EQ(unit.instructions(), 8u);
  ClassCounts c;
  c.alu = 6, c.extension = 8, c.store = 2, c.jalr = 1;
  EXPECT_EQ(s.cycles, c.cycles(b.profile, 3));
}

TEST(ModelRiscvHart, APreemptedCallAddsUpToAnUninterruptedOne) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  HartBench b;
  std::uint64_t slices = 0, cycles = 0, instructions = 0;
  sc_core::sc_time end;
  test::TestThread th("th", [&] {
    b.hart.call(entry("sum"), {1000});
    for (bool returned = false; !returned; ++slices) {
      const RiscvHart::Slice s = b.hart.run(&b.cpu.thread(0), nullptr, 100);
      EXPECT_LE(s.cycles, 100u + 2);  // a taken branch's extra cycles may come on top of the budget
      cycles += s.cycles;
      instructions += s.instructions;
      returned = s.returned;
    }
    end = b.cpu.thread(0).now();
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(b.hart.result(), 500500u);
  ClassCounts c;
  c.alu = 2 * 1000 + 4, c.taken = 999, c.not_taken = 1, c.jal = 1, c.jalr = 2;
  EXPECT_GT(slices, 100u);
  EXPECT_EQ(instructions, c.instructions());
  EXPECT_EQ(cycles, c.cycles(b.profile));
  EXPECT_EQ(end, ns(10) * static_cast<double>(c.cycles(b.profile)));
}

// The message of the IssError a call of `function` with `args` ends with (empty when none).
std::string error_of(const char* function, std::initializer_list<std::uint32_t> args, bool with_unit = false,
                     std::uint64_t limit = 0) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  HartBench b;
  DesrndExtension unit(DesrndParams{2, 1});
  std::string message;
  test::TestThread th("th", [&] {
    b.hart.call(entry(function), args, limit);
    try {
      b.run_through(with_unit ? &unit : nullptr);
    } catch (const IssError& e) {
      message = e.what();
    }
  });
  sc_core::sc_start();
  EXPECT_TRUE(th.finished());
  return message;
}

TEST(ModelRiscvHart, AnInstructionOutsideRv32imcStopsItNamingThePcAndFunction) {
  const std::string m = error_of("unknown_instruction", {});
  EXPECT_NE(m.find("an instruction RV32IMC does not know (0x53)"), std::string::npos) << m;
  EXPECT_NE(m.find("(unknown_instruction+0x0)"), std::string::npos) << m;
}

TEST(ModelRiscvHart, AnEcallStopsIt) {
  const std::string m = error_of("environment_call", {});
  EXPECT_NE(m.find("the program raised an environment call (ecall)"), std::string::npos) << m;
  EXPECT_NE(m.find("environment_call+0x0"), std::string::npos) << m;
}

TEST(ModelRiscvHart, ALoadThatNoDeviceAnswersStopsIt) {
  const std::string m = error_of("load_nowhere", {0x70000000});
  EXPECT_NE(m.find("a load from 0x70000000 that the bus refused (no device there)"), std::string::npos) << m;
  EXPECT_NE(m.find("load_nowhere+0x0"), std::string::npos) << m;
}

TEST(ModelRiscvHart, AJumpOutOfTheLocalMemoryStopsIt) {
  const std::string m = error_of("jump_away", {0x80000000});
  EXPECT_NE(m.find("a jump to 0x80000000, outside the local memory, after"), std::string::npos) << m;
  EXPECT_NE(m.find("jump_away+0x0"), std::string::npos) << m;
}

TEST(ModelRiscvHart, ACallPastItsInstructionLimitStopsIt) {
  const std::string m = error_of("forever", {}, false, 5000);
  EXPECT_NE(m.find("the call ran past its limit of 5000 instructions"), std::string::npos) << m;
  EXPECT_NE(m.find("(forever+0x0)"), std::string::npos) << m;
}

TEST(ModelRiscvHart, CustomInstructionsNeedAnExtensionUnit) {
  const std::string none = error_of("extension", {0, 0, 0, 0, 0x10020000});
  EXPECT_NE(none.find("a custom-0 instruction, but the CPU has no extension unit"), std::string::npos)
      << none;
  EXPECT_NE(none.find("(extension+0x0)"), std::string::npos) << none;
}

TEST(ModelRiscvHart, CustomInstructionsNeedAnOperandTheUnitAccepts) {
  const std::string refused = error_of("bad_extension_operand", {}, true);
  EXPECT_NE(refused.find("the desrnd unit refused a custom instruction"), std::string::npos) << refused;
  EXPECT_NE(refused.find("bad_extension_operand+0x0"), std::string::npos) << refused;
}

TEST(ModelRiscvHart, AProgramOutsideItsLocalMemoryIsRefused) {
  TimingProfile p = test_profile();
  try {
    RiscvHart hart(selftest(), p, LocalMemory{0x20000000, 64 * 1024});
    FAIL() << "loaded";
  } catch (const IssError& e) {
    EXPECT_NE(std::string(e.what()).find("lies outside the local memory [0x20000000, 0x20010000)"),
              std::string::npos)
        << e.what();
  }
}

TEST(ModelElfImage, ProblemsOfTheFileAreNamed) {
  auto message = [](const std::vector<std::uint8_t>& bytes) {
    try {
      ElfImage::parse("x.elf", bytes);
    } catch (const ElfError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message({'h', 'e', 'l', 'l', 'o'}), "x.elf: not an ELF file");
  std::vector<std::uint8_t> file(100, 0);
  file[0] = 0x7f, file[1] = 'E', file[2] = 'L', file[3] = 'F', file[4] = 2, file[5] = 1;
  EXPECT_EQ(message(file), "x.elf: not a 32-bit ELF file (class 2)");
  file[4] = 1, file[18] = 62;
  EXPECT_EQ(message(file), "x.elf: built for machine 62, not RISC-V (243)");
  file[18] = 243, file[28] = 90, file[44] = 1, file[42] = 32;  // a program header past the end
  EXPECT_EQ(message(file), "x.elf: a program header lies past the end of the file (100 bytes)");
  try {
    ElfImage::load("/nonexistent/x.elf");
    FAIL();
  } catch (const ElfError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/x.elf: cannot be read (No such file or directory)");
  }
}

TEST(ModelElfImage, SymbolsByNameAndAddress) {
  const ElfImage& image = *selftest();
  const ElfImage::Symbol* sum = image.find("sum");
  ASSERT_NE(sum, nullptr);
  EXPECT_TRUE(sum->label);  // an assembly routine's global label
  ASSERT_NE(image.find("__global_pointer$"), nullptr);
  EXPECT_EQ(image.describe(entry("widths") + 4), hex(entry("widths") + 4) + " (widths+0x4)");
  EXPECT_EQ(image.find("no_such_symbol"), nullptr);
}

TEST(ModelRiscvDecoder, ClassesOfEncodings) {
  auto klass = [](std::uint32_t w) { return decode_rv32imc(w).value().klass; };
  EXPECT_EQ(klass(0x00b50533), RvClass::kAlu);                 // add a0, a0, a1
  EXPECT_EQ(klass(0x02b50533), RvClass::kMul);                 // mul a0, a0, a1
  EXPECT_EQ(klass(0x02b55533), RvClass::kDiv);                 // divu a0, a0, a1
  EXPECT_EQ(klass(0x00351513), RvClass::kShift);               // slli a0, a0, 3
  EXPECT_EQ(klass(0x4035d513), RvClass::kShift);               // srai a0, a1, 3
  EXPECT_EQ(klass(0x0005a503), RvClass::kLoad);                // lw a0, 0(a1)
  EXPECT_EQ(klass(0x00a5a023), RvClass::kStore);               // sw a0, 0(a1)
  EXPECT_EQ(klass(0x00b50463), RvClass::kBranch);              // beq a0, a1, +8
  EXPECT_EQ(klass(0x008000ef), RvClass::kJal);                 // jal ra, +8
  EXPECT_EQ(klass(0x00008067), RvClass::kJalr);                // ret
  EXPECT_EQ(klass(0x00000073), RvClass::kSystem);              // ecall
  EXPECT_EQ(klass(0x4108), RvClass::kLoad);                    // c.lw a0, 0(a0)
  EXPECT_EQ(klass(0x8082), RvClass::kJalr);                    // c.jr ra (ret)
  EXPECT_EQ(klass(0x0505), RvClass::kAlu);                     // c.addi a0, 1
  EXPECT_EQ(klass(0xc119), RvClass::kBranch);                  // c.beqz a0, +6
  EXPECT_EQ(klass(0x050e), RvClass::kShift);                   // c.slli a0, 3
  EXPECT_FALSE(decode_rv32imc(0x00000053));                    // fadd.s
  EXPECT_FALSE(decode_rv32imc(0x0000));                        // the defined illegal instruction
  EXPECT_FALSE(decode_rv32imc(0x2000));                        // c.fld
  const RvInstruction x = decode_rv32imc(0x0205000b).value();  // .insn i 0x0b, 0, x0, a0, 0x20
  EXPECT_TRUE(x.custom);
  EXPECT_EQ(x.klass, RvClass::kExtension);
  EXPECT_EQ(x.rs1, 10u);
  EXPECT_EQ(x.imm, 0x20);
}

}  // namespace
}  // namespace rsoc::models
