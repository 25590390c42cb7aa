// CPU extension units on SoftCpu: per-thread register contexts, the desrnd adapter, and software charging
// extension instructions through compute().
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "models/address_map.h"
#include "models/crypto/des.h"
#include "models/crypto/des_on_desrnd.h"
#include "models/desrnd_extension.h"
#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

constexpr std::uint64_t kDesKey = 0x133457799BBCDFF1;
constexpr std::uint64_t kPlain = 0x0123456789ABCDEF;
constexpr std::uint64_t kCipher = 0x85E813540F0AB405;

struct ExtensionCpu {
  explicit ExtensionCpu(const CpuParams& params) : cpu("cpu", params), sink("sink", sc_core::SC_ZERO_TIME) {
    cpu.initiator.bind(sink.target);
  }
  SoftCpu cpu;
  test::ProbeTarget sink;
};

// One DES pass issued through the generic interface, as software would: load C, D, L, R, then 16/n desrnd.
void des_through_interface(ExtensionUnit& unit, unsigned n, std::uint64_t key, std::uint64_t block) {
  const std::uint64_t cd = crypto::Des::pc1(key);
  unit.write_register(unit.register_index("C"), static_cast<std::uint32_t>(cd >> 28));
  unit.write_register(unit.register_index("D"), static_cast<std::uint32_t>(cd));
  unit.write_register(unit.register_index("L"), static_cast<std::uint32_t>(block >> 32));
  unit.write_register(unit.register_index("R"), static_cast<std::uint32_t>(block));
  for (unsigned round = 0; round < 16; round += n)
    unit.execute(crypto::DesrndOperand::encode(false, round, round == 0, round + n == 16));
}

std::uint64_t block_of(const ExtensionUnit& unit) {
  return (std::uint64_t{unit.read_register(2)} << 32) | unit.read_register(3);
}

TEST(ModelExtension, DesrndAdapterDescribesTheUnit) {
  const DesrndExtension ext;
  EXPECT_EQ(ext.name(), "desrnd");
  const auto regs = ext.registers();
  ASSERT_EQ(regs.size(), 4U);
  const char* names[] = {"C", "D", "L", "R"};
  const unsigned widths[] = {28, 28, 32, 32};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(regs[i].name, names[i]);
    EXPECT_EQ(regs[i].width_bits, widths[i]);
    EXPECT_EQ(ext.register_index(names[i]), i);
  }
  EXPECT_THROW(ext.register_index("K"), std::out_of_range);
  EXPECT_EQ(ext.cycles_per_instruction(), 1U);
  EXPECT_EQ(ext.params().rounds_per_instruction, 1U);
  EXPECT_EQ(DesrndExtension(DesrndParams{2, 3}).cycles_per_instruction(), 3U);
  EXPECT_EQ(DesrndExtension(DesrndParams{2, 3}).unit().rounds_per_instruction(), 2U);
  EXPECT_THROW(DesrndExtension(DesrndParams{3, 1}), std::invalid_argument);
  EXPECT_THROW(DesrndExtension(DesrndParams{1, 0}), std::invalid_argument);
}

TEST(ModelExtension, RegisterWritesAreMaskedAndBadIndicesRejected) {
  DesrndExtension ext;
  for (std::size_t i = 0; i < 4; ++i) ext.write_register(i, 0xFFFFFFFF);
  EXPECT_EQ(ext.read_register(0), 0x0FFFFFFFU);
  EXPECT_EQ(ext.read_register(1), 0x0FFFFFFFU);
  EXPECT_EQ(ext.read_register(2), 0xFFFFFFFFU);
  EXPECT_EQ(ext.read_register(3), 0xFFFFFFFFU);
  EXPECT_THROW(ext.write_register(4, 0), std::out_of_range);
  EXPECT_THROW(ext.read_register(4), std::out_of_range);
  // An illegal operand is the illegal-instruction exception: nothing changes, nothing is counted.
  EXPECT_THROW(ext.execute(1U << 7), std::invalid_argument);
  EXPECT_EQ(ext.read_register(2), 0xFFFFFFFFU);
  EXPECT_EQ(ext.instructions(), 0U);
}

TEST(ModelExtension, EveryHardwareThreadHasItsOwnRegisters) {
  ExtensionCpu lone(CpuParams{ns(10), 2, 1, 1024});
  SoftCpu& cpu = lone.cpu;
  EXPECT_FALSE(cpu.thread(0).has_extension("desrnd"));
  cpu.attach_extension(DesrndExtension(DesrndParams{2, 1}));
  ASSERT_TRUE(cpu.thread(0).has_extension("desrnd"));
  ASSERT_TRUE(cpu.thread(1).has_extension("desrnd"));
  ExtensionUnit& t0 = cpu.thread(0).extension("desrnd");
  ExtensionUnit& t1 = cpu.thread(1).extension("desrnd");
  EXPECT_NE(&t0, &t1);
  t0.write_register(2, 0x11111111);
  des_through_interface(t1, 2, kDesKey, kPlain);
  EXPECT_EQ(block_of(t1), kCipher);
  EXPECT_EQ(t1.instructions(), 8U);  // the prototype's configuration: 2 rounds per instruction
  EXPECT_EQ(t0.read_register(2), 0x11111111U) << "thread 1's instructions left thread 0's registers alone";
  EXPECT_EQ(t0.instructions(), 0U);

  EXPECT_THROW(cpu.attach_extension(DesrndExtension()), ElaborationError);
  try {
    cpu.thread(0).extension("aesenc");
    ADD_FAILURE() << "no error";
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("no extension aesenc"), std::string::npos) << e.what();
  }
}

// The CPU stays a cost model: a DES block on the extension costs what software charges for its instruction
// mix, with desrnd at the extension's cycles per instruction.
TEST(ModelExtension, SoftwareChargesExtensionInstructions) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  ExtensionCpu lone(CpuParams{ns(10), 1, 1, 1024});
  SoftCpu& cpu = lone.cpu;
  cpu.attach_extension(DesrndExtension(DesrndParams{1, 3}));
  std::uint64_t out = 0;
  crypto::DesrndMix mix;
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    auto& ext = dynamic_cast<DesrndExtension&>(c.extension("desrnd"));
    crypto::DesOnDesrnd des(ext.unit(), kDesKey);
    out = des.encrypt(kPlain);
    mix = des.mix();
    c.compute((mix.instructions() - mix.desrnd) + mix.desrnd * ext.cycles_per_instruction());
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(out, kCipher);
  EXPECT_EQ(mix.desrnd, 16U);
  EXPECT_EQ(cpu.thread(0).extension("desrnd").instructions(), 16U);
  EXPECT_EQ(cpu.thread(0).cycles(), 7U + 16U * 3U);
  EXPECT_EQ(sc_core::sc_time_stamp(), ns(10 * (7 + 48)));
}

}  // namespace
}  // namespace rsoc::models
