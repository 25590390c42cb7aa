// ActivitySink reports of the models: what a timeline sees of buses (booked intervals, stream bursts), slots
// and cores (configurations, core work), and DMA engines (whole transfers), with exact times.
#include "models/activity.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/bitstream.h"
#include "models/dma_engine.h"
#include "models/faults.h"
#include "models/fpga_slot.h"
#include "models/ip_core.h"
#include "models/memory.h"
#include "models/onchip_bus.h"
#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

std::uint64_t ps_of_ns(std::uint64_t n) {
  return n * 1000;
}

// Keeps every report as one line of text.
class RecordingSink : public ActivitySink {
 public:
  struct Transfer {
    Lane lane;
    std::uint64_t start, end, words;
    BurstRef burst;
    std::uint64_t now;
  };
  std::vector<Transfer> transfers;
  std::vector<std::string> events;

  void bus_transfer(Lane bus, std::uint64_t start, std::uint64_t end, std::uint64_t words, BurstRef burst,
                    std::uint64_t now) override {
    transfers.push_back(Transfer{bus, start, end, words, burst, now});
  }
  void configuration_began(Lane slot, std::uint64_t at) override {
    events.push_back("began " + std::to_string(slot) + " " + std::to_string(at));
  }
  void configuration_ended(Lane slot, std::uint64_t at, const std::string* core) override {
    events.push_back("ended " + std::to_string(slot) + " " + std::to_string(at) + " " +
                     (core ? *core : std::string("(failed)")));
  }
  void core_work(Lane slot, const char* operation, std::uint64_t start, std::uint64_t end) override {
    events.push_back(std::string(operation) + " " + std::to_string(slot) + " " + std::to_string(start) + " " +
                     std::to_string(end));
  }
  void port_configuration(Lane port, const std::string& slot, std::uint64_t start, std::uint64_t end,
                          std::uint64_t words, bool ok) override {
    events.push_back("port " + std::to_string(port) + " " + slot + " " + std::to_string(start) + " " +
                     std::to_string(end) + " " + std::to_string(words) + (ok ? " ok" : " failed"));
  }
  void dma_transfer(Lane dma, std::uint64_t start, std::uint64_t end, std::uint64_t words,
                    const std::string& bottleneck, bool ok) override {
    events.push_back("dma " + std::to_string(dma) + " " + std::to_string(start) + " " + std::to_string(end) +
                     " " + std::to_string(words) + " " + bottleneck + (ok ? " ok" : " failed"));
  }
  void process_ran(Lane, const std::string&, std::uint64_t, std::uint64_t) override {
    ADD_FAILURE() << "models never report processes";
  }
  struct Fault {
    Lane lane;
    std::string what;
    std::uint64_t at;
  };
  std::vector<Fault> faults;
  void fault(Lane lane, const char* what, std::uint64_t at_ps) override {
    faults.push_back({lane, what, at_ps});
  }
};

TEST(ModelActivity, BusReportsEveryBookedTransferAndNamesStreamBursts) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  // CPU 100 MHz (10 ns issue), bus 50 MHz (2 latency cycles, 1 per word), memory 200 MHz.
  SoftCpu cpu("cpu", CpuParams{ns(10), 1, 1, /*stream_chunk_words=*/1024});
  OnChipBus bus("bus", OnChipBusParams{ns(20), 2, 1});
  Memory mem("mem", MemoryParams{1 << 20, ns(5), 3, 2});
  bus.add_initiator(cpu.initiator);
  bus.add_target(mem.target, 0, 1 << 20, "mem");
  RecordingSink sink;
  bus.set_activity(&sink, 3);
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    c.read32(0);
    c.write32(4, 5);
    ASSERT_EQ(c.stream_copy(0x1000, 0x8000, false, 1500, 1), tlm::TLM_OK_RESPONSE);  // chunks of 1024 and 476
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(sink.transfers.size(), 2u + 4u);
  // One word on the bus for (2 + 1) * 20 ns after the 10 ns issue; the next access 95 ns later (see
  // onchip_bus_test: 10 + 60 + 25 ns per access).
  const auto& t = sink.transfers;
  for (const auto& x : t) EXPECT_EQ(x.lane, 3u);
  EXPECT_EQ(t[0].start, ps_of_ns(10));
  EXPECT_EQ(t[0].end, ps_of_ns(70));
  EXPECT_EQ(t[0].words, 1u);
  EXPECT_EQ(t[0].now, 0u);
  EXPECT_EQ(t[0].burst.id, 0u);
  EXPECT_EQ(t[1].start, ps_of_ns(105));
  EXPECT_EQ(t[1].now, ps_of_ns(95));  // quantum zero: the CPU synchronised before the access
  // The stream: a read and a write burst per chunk, all of one burst; the last chunk's marked last.
  const std::uint64_t burst = t[2].burst.id;
  EXPECT_NE(burst, 0u);
  const std::vector<std::uint64_t> words = {1024, 1024, 476, 476};
  for (std::size_t i = 2; i < t.size(); ++i) {
    EXPECT_EQ(t[i].burst.id, burst);
    EXPECT_EQ(t[i].burst.last, i >= 4) << i;
    EXPECT_EQ(t[i].words, words[i - 2]);
    EXPECT_EQ(t[i].end - t[i].start, ps_of_ns(20 * (2 + words[i - 2])));  // the bus occupancy
    EXPECT_LE(t[i].now, t[i].start);  // never booked before the kernel's time
  }
  EXPECT_EQ(t[3].start, t[2].end);  // the write follows the read of its chunk on the bus
  std::uint64_t busy = 0;
  for (const auto& x : t) busy += x.end - x.start;
  EXPECT_EQ(busy, to_ps(bus.calendar().busy_time()));
}

// Writes `value` to the register at `offset` of `core`, arriving at `at`.
void write_reg(IpCore& core, std::uint32_t offset, std::uint32_t value, const sc_core::sc_time& at) {
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(offset);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  p.set_data_length(4);
  p.set_streaming_width(4);
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;
  core.access(p, at, latency);
  ASSERT_EQ(p.get_response_status(), tlm::TLM_OK_RESPONSE);
}

TEST(ModelActivity, SlotReportsConfigurationsAndTheWorkOfItsCore) {
  FpgaSlot slot("slot", SlotParams{1 << 16, true, ns(10)});
  // AES at 100 MHz: 1 access cycle, 10 cycles of key setup, 11 per block.
  slot.add_candidate(1, make_core("slot.aes", CoreParams{CoreKind::kAes128, ns(10), 1, 10, 11}));
  RecordingSink sink;
  slot.set_activity(&sink, 5);
  EXPECT_TRUE(sink.events.empty());  // nothing configured at boot
  std::string why;
  ASSERT_TRUE(slot.begin_configuration(ns(100), &why)) << why;
  const auto image = make_bitstream(1, 2048);
  slot.configuration_words(image.data(), image.size() / 4, ns(300));
  ASSERT_NE(slot.core(), nullptr);
  // Register writes take effect after one access cycle: INIT at 410 ns for 100 ns, NEXT at 610 ns for 110 ns.
  write_reg(*slot.core(), reg::kCtrl, reg::kCtrlInit, ns(400));
  write_reg(*slot.core(), reg::kCtrl, reg::kCtrlNext, ns(600));
  write_reg(*slot.core(), reg::kCtrl, reg::kCtrlNext, ns(650));  // while busy: ignored, no work
  ASSERT_TRUE(slot.begin_configuration(ns(1000), &why)) << why;
  slot.abort_configuration(ns(1100));
  EXPECT_EQ(sink.events, (std::vector<std::string>{"began 5 100000", "ended 5 300000 slot.aes",
                                                   "init 5 410000 510000", "block 5 610000 720000",
                                                   "began 5 1000000", "ended 5 1100000 (failed)"}));
  // A slot whose core was configured at boot says so when the sink is attached.
  FpgaSlot boot("boot", SlotParams{});
  boot.add_candidate(2, make_core("boot.des", CoreParams{CoreKind::kDes}));
  boot.preload(2);
  RecordingSink boot_sink;
  boot.set_activity(&boot_sink, 6);
  EXPECT_EQ(boot_sink.events, std::vector<std::string>{"ended 6 0 boot.des"});
}

TEST(ModelActivity, SlotReportsFaultsAndRepairsAtTheirTimes) {
  // An upset at 200 ns, repaired by a scrub ending at 500 ns; a hang of the block started at 710 ns.
  SlotParams params{1 << 16, true, ns(10)};
  params.upsets.emplace();
  params.upsets->windows = {ns(200)};
  params.hangs.emplace();
  params.hangs->arm(ns(700));
  FpgaSlot slot("slot", params);
  slot.add_candidate(1, make_core("slot.aes", CoreParams{CoreKind::kAes128, ns(10), 1, 10, 11}));
  slot.preload(1);
  RecordingSink sink;
  slot.set_activity(&sink, 5);
  EXPECT_TRUE(slot.repair(ns(500)));
  write_reg(*slot.core(), reg::kCtrl, reg::kCtrlNext, ns(700));
  // A bitstream that fails the slot's check (a word of its payload flipped).
  std::string why;
  ASSERT_TRUE(slot.begin_configuration(ns(1000), &why)) << why;  // over the hung core
  auto image = make_bitstream(1, 2048);
  image[image.size() / 2] ^= 1;
  slot.configuration_words(image.data(), image.size() / 4, ns(1300));
  std::vector<std::string> faults;
  for (const auto& f : sink.faults)
    faults.push_back(std::to_string(f.lane) + " " + f.what + " " + std::to_string(f.at));
  EXPECT_EQ(faults, (std::vector<std::string>{"5 upset 200000", "5 repair 500000", "5 hang 710000",
                                              "5 configuration error 1300000"}));
}

TEST(ModelActivity, DmaReportsWholeTransfersAndItsBurstsOnTheBus) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  // As in dma_test: everything at 100 MHz, the bus is the slowest stage of a memory-to-memory copy.
  SoftCpu cpu("cpu", CpuParams{ns(10), 1, 1, 1024});
  OnChipBus bus("bus", OnChipBusParams{ns(10), 1, 1});
  Memory mem("mem", MemoryParams{1 << 20, ns(10), 1, 1});
  DmaEngine dma("dma", DmaParams{ns(10), 1, 10, 1, 1024});
  bus.add_initiator(cpu.initiator);
  bus.add_initiator(dma.initiator);
  bus.add_target(mem.target, 0x10000000, 1 << 20, "mem");
  bus.add_target(dma.target, 0x20000000, dma_reg::kSize, "dma");
  RecordingSink sink;
  bus.set_activity(&sink, 1);
  dma.set_activity(&sink, 2);
  test::TestThread th("th", [&] {
    CpuThread& c = cpu.thread(0);
    c.write32(0x20000000 + dma_reg::kSrc, 0x10000000);
    c.write32(0x20000000 + dma_reg::kDst, 0x10080000);
    c.write32(0x20000000 + dma_reg::kWords, 2048);
    c.write32(0x20000000 + dma_reg::kCtrl, dma_reg::kCtrlStart);
    sc_core::wait(dma.done_event());
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  // START at 160 ns; 100 ns of setup then two bus-bound chunks of 20500 ns.
  EXPECT_EQ(sink.events, std::vector<std::string>{"dma 2 160000 41260000 2048 bus ok"});
  ASSERT_EQ(sink.transfers.size(), 4u + 4u);  // four register writes, two chunks of a read and a write
  for (std::size_t i = 4; i < sink.transfers.size(); ++i) {
    EXPECT_EQ(sink.transfers[i].burst.id, sink.transfers[4].burst.id);
    EXPECT_EQ(sink.transfers[i].burst.last, i >= 6);
  }
  EXPECT_NE(sink.transfers[4].burst.id, 0u);
}

}  // namespace
}  // namespace rsoc::models
