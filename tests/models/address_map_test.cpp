// AddressMap (decoder) and RoutingBus (binding, decoding, translation, unmapped accesses, debug transport).
#include "models/address_map.h"

#include <gtest/gtest.h>

#include <string>

#include "models/memory.h"
#include "models/onchip_bus.h"
#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

TEST(ModelAddressMap, FindsTheRangeHoldingTheWholeAccess) {
  AddressMap map("bus");
  map.add({"rom", 0x0000, 0x1000, 0});
  map.add({"uart", 0x2000, 0x100, 1});
  map.add({"ram", 0x1000, 0x1000, 2});  // added out of order, adjacent to both
  ASSERT_EQ(map.ranges().size(), 3u);
  EXPECT_EQ(map.ranges()[0].name, "rom");
  EXPECT_EQ(map.ranges()[1].name, "ram");
  EXPECT_EQ(map.ranges()[2].name, "uart");

  const AddressRange* r = map.find(0x1000, 4);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->name, "ram");
  EXPECT_EQ(r->port, 2u);
  ASSERT_NE(map.find(0x0FFC, 4), nullptr);
  EXPECT_EQ(map.find(0x0FFC, 4)->name, "rom");
  ASSERT_NE(map.find(0x20FC, 4), nullptr);
  EXPECT_EQ(map.find(0x20FC, 4)->name, "uart");
  EXPECT_EQ(map.find(0x0FFE, 4), nullptr);  // straddles rom and ram
  EXPECT_EQ(map.find(0x20FE, 4), nullptr);  // runs past the end of uart
  EXPECT_EQ(map.find(0x2100, 4), nullptr);  // hole
  EXPECT_EQ(map.find(0x1000, 0x1000)->name, "ram");
  EXPECT_EQ(map.find(0x1000, 0x1001), nullptr);
}

TEST(ModelAddressMap, OverlapIsRejectedNamingBothDevices) {
  AddressMap map("soc.bus");
  map.add({"ddr", 0x10000, 0x10000, 0});
  try {
    map.add({"sram", 0x1F000, 0x2000, 1});
    FAIL() << "overlap accepted";
  } catch (const ElaborationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("soc.bus"), std::string::npos) << what;
    EXPECT_NE(what.find("\"sram\""), std::string::npos) << what;
    EXPECT_NE(what.find("\"ddr\""), std::string::npos) << what;
    EXPECT_NE(what.find("0x1f000"), std::string::npos) << what;
  }
  EXPECT_THROW(map.add({"inside", 0x18000, 0x10, 2}), ElaborationError);
  EXPECT_THROW(map.add({"around", 0x0, 0x100000, 3}), ElaborationError);
  EXPECT_THROW(map.add({"empty", 0x40000, 0, 4}), ElaborationError);
  EXPECT_THROW(map.add({"wraps", ~0ull - 0xF, 0x20, 5}), ElaborationError);
  EXPECT_EQ(map.ranges().size(), 1u);
  // Touching ranges do not overlap.
  EXPECT_NO_THROW(map.add({"below", 0x0F000, 0x1000, 6}));
  EXPECT_NO_THROW(map.add({"above", 0x20000, 0x1000, 7}));
}

TEST(ModelAddressMap, HexFormatting) {
  EXPECT_EQ(hex(0), "0x0");
  EXPECT_EQ(hex(0x4000ABCDull), "0x4000abcd");
  EXPECT_EQ(hex(~0ull), "0xffffffffffffffff");
}

TEST(ModelRoutingBus, OverlappingTargetRejectedAtElaboration) {
  OnChipBus bus("bus", OnChipBusParams{});
  Memory flash("flash", MemoryParams{});
  Memory ram("ram", MemoryParams{});
  bus.add_target(flash.target, 0x0, 0x100000, "flash");
  try {
    bus.add_target(ram.target, 0x80000, 0x100000, "ram");
    FAIL() << "overlap accepted";
  } catch (const ElaborationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bus"), std::string::npos) << what;
    EXPECT_NE(what.find("\"ram\""), std::string::npos) << what;
    EXPECT_NE(what.find("\"flash\""), std::string::npos) << what;
  }
  EXPECT_EQ(bus.address_map().ranges().size(), 1u);
}

// CPU (10 ns, 1 issue cycle) -> bus -> a probe at 0x40000000 and a memory at 0x1000.
struct RoutingBench {
  RoutingBench()
      : cpu("cpu", CpuParams{}),
        bus("bus", OnChipBusParams{ns(10), 1, 1}),
        probe("probe", ns(7)),
        mem("mem", MemoryParams{0x1000, ns(10), 1, 1}),
        raw("raw") {
    bus.add_initiator(cpu.initiator);
    bus.add_initiator(raw.initiator);
    bus.add_target(probe.target, 0x40000000, 0x100, "probe");
    bus.add_target(mem.target, 0x1000, 0x1000, "mem");
  }
  SoftCpu cpu;
  OnChipBus bus;
  test::ProbeTarget probe;
  Memory mem;
  test::RawInitiator raw;
};

TEST(ModelRoutingBus, UnmappedAccessAnswersAddressError) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  RoutingBench b;
  std::vector<tlm::tlm_response_status> status;
  std::vector<sc_core::sc_time> end;
  test::TestThread th("th", [&] {
    CpuThread& t = b.cpu.thread(0);
    std::uint32_t v = 0;
    status.push_back(t.read(0x0, &v, 4));  // below every device
    end.push_back(t.now());
    status.push_back(t.read(0x1FFE, &v, 4));       // straddles the end of mem
    status.push_back(t.write(0x40000100, &v, 4));  // just past the probe
    status.push_back(t.read(0x40000000, &v, 4));   // mapped
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(status.size(), 4u);
  EXPECT_EQ(status[0], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(status[1], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(status[2], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(status[3], tlm::TLM_OK_RESPONSE);
  // An unmapped access costs only the CPU's issue cycle: 1 * 10 ns.
  EXPECT_EQ(end[0], ns(10));
  EXPECT_EQ(b.bus.unmapped_accesses(), 3u);
  EXPECT_EQ(b.bus.transactions(), 1u);  // only the mapped access was timed
  EXPECT_EQ(b.probe.accesses(), 1u);
}

TEST(ModelRoutingBus, DeviceSeesTheOffsetInsideItsRange) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  RoutingBench b;
  std::uint32_t read_back = 0, last_word = 0;
  std::uint32_t debug_word = 0, mem_word = 0;
  unsigned debug_bytes = 0, unmapped_debug_bytes = 1;
  tlm::tlm_response_status debug_status = tlm::TLM_INCOMPLETE_RESPONSE;
  tlm::tlm_response_status unmapped_status = tlm::TLM_INCOMPLETE_RESPONSE;
  test::TestThread th("th", [&] {
    CpuThread& t = b.cpu.thread(0);
    t.write32(0x40000010, 0xCAFEF00D);
    read_back = t.read32(0x40000010);
    last_word = t.read32(0x400000FC);
    t.write32(0x1004, 0x12345678);
    debug_bytes = b.raw.debug(tlm::TLM_READ_COMMAND, 0x40000010, &debug_word, 4, &debug_status);
    b.raw.debug(tlm::TLM_READ_COMMAND, 0x1004, &mem_word, 4, &debug_status);
    std::uint32_t dummy = 0;
    unmapped_debug_bytes = b.raw.debug(tlm::TLM_READ_COMMAND, 0x3000, &dummy, 4, &unmapped_status);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(b.probe.addresses().size(), 3u);  // debug accesses are not recorded
  EXPECT_EQ(b.probe.addresses()[0], 0x10u);
  EXPECT_EQ(b.probe.addresses()[1], 0x10u);
  EXPECT_EQ(b.probe.addresses()[2], 0xFCu);
  EXPECT_EQ(read_back, 0xCAFEF00Du);
  EXPECT_EQ(last_word, test::ProbeTarget::pattern(0xFC));
  EXPECT_EQ(debug_bytes, 4u);
  EXPECT_EQ(debug_word, 0xCAFEF00Du);
  EXPECT_EQ(debug_status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(mem_word, 0x12345678u);
  std::uint32_t peeked = 0;
  b.mem.peek(0x4, reinterpret_cast<std::uint8_t*>(&peeked), 4);  // the memory saw offset 4
  EXPECT_EQ(peeked, 0x12345678u);
  EXPECT_EQ(unmapped_debug_bytes, 0u);
  EXPECT_EQ(unmapped_status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(ModelRoutingBus, WordsOfRoundsUp) {
  tlm::tlm_generic_payload p;
  p.set_data_length(1);
  EXPECT_EQ(words_of(p), 1u);
  p.set_data_length(4);
  EXPECT_EQ(words_of(p), 1u);
  p.set_data_length(5);
  EXPECT_EQ(words_of(p), 2u);
  p.set_data_length(64);
  EXPECT_EQ(words_of(p), 16u);
}

}  // namespace
}  // namespace rsoc::models
