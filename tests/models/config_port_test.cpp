// ConfigPort + FpgaSlot + bitstreams: partial reconfiguration fed by a CPU copy loop or by a DMA engine,
// and every way a configuration can fail or be refused.
#include "models/config_port.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "models/bitstream.h"
#include "models/dma_engine.h"
#include "models/fpga_slot.h"
#include "models/ip_core.h"
#include "models/memory.h"
#include "models/onchip_bus.h"
#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

constexpr std::uint64_t kBitstreamMem = 0x00000000;
constexpr std::uint64_t kImage = kBitstreamMem + 0x100000;  // where bitstreams are loaded
constexpr std::uint64_t kPort = 0x40000000;
constexpr std::uint64_t kPortDma = 0x41000000;
constexpr std::uint64_t kPortSlot = 0x50000000;
constexpr std::uint32_t kAesId = 7;
constexpr std::uint32_t kDesId = 9;

// Everything at 100 MHz (10 ns): CPU (1 issue cycle), on-chip bus (1 latency cycle, 1 cycle per word),
// memory (1 + 1 per word), configuration port (1 access cycle), optional DMA (10 setup cycles, 1 per word).
// The slot can host an AES core (id 7) and a DES core (id 9).
struct ReconfBench {
  ReconfBench(const SlotParams& slot_params, const ConfigPortParams& port_params, bool with_dma = false)
      : cpu("cpu", CpuParams{ns(10), 1, 1, 1024}),
        bus("bus", OnChipBusParams{ns(10), 1, 1}),
        mem("mem", MemoryParams{4 << 20, ns(10), 1, 1}),
        slot("slot", slot_params),
        port("port", port_params, {&slot}) {
    slot.add_candidate(kAesId, make_core("aes", CoreParams{CoreKind::kAes128, ns(10), 1, 0, 100000}));
    slot.add_candidate(kDesId, make_core("des", CoreParams{CoreKind::kDes, ns(10), 1, 0, 16}));
    bus.add_initiator(cpu.initiator);
    bus.add_target(mem.target, kBitstreamMem, 4 << 20, "mem");
    bus.add_target(port.target, kPort, port_reg::kSize, "port");
    bus.add_target(slot.target, kPortSlot, 0x2000, "slot");
    if (with_dma) {
      dma = std::make_unique<DmaEngine>("dma", DmaParams{ns(10), 1, 10, 1, 1024});
      bus.add_initiator(dma->initiator);
      bus.add_target(dma->target, kPortDma, dma_reg::kSize, "dma");
    }
  }
  void load(const std::vector<std::uint8_t>& image) {
    mem.load(kImage - kBitstreamMem, image.data(), image.size());
  }

  SoftCpu cpu;
  OnChipBus bus;
  Memory mem;
  FpgaSlot slot;
  ConfigPort port;
  std::unique_ptr<DmaEngine> dma;
};

SlotParams big_slot() {
  return SlotParams{1 << 20, true, ns(10)};
}

// --- a 500 KiB bitstream copied by the CPU
// -------------------------------------------------------------------

struct CpuCopyRun {
  sc_core::sc_time started;  // CPU time after the START write
  sc_core::sc_time copied;   // CPU time after the stream copy
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  std::string bottleneck;
  std::uint32_t status_reg = 0, words_reg = 0, error_reg = 0, name0 = 0;
  SlotState before = SlotState::kBusy, after_start = SlotState::kBusy, midway = SlotState::kBusy;
  SlotState after = SlotState::kBusy;
};

// 512000 bytes = 128000 words copied at 120 CPU cycles per word into the DATA window.
CpuCopyRun run_cpu_copy(ReconfBench& b) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  b.load(make_bitstream(kAesId, 512000));
  CpuCopyRun r;
  r.before = b.slot.state_at(sc_core::SC_ZERO_TIME);
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    c.write32(kPort + port_reg::kCtrl, port_reg::kCtrlStart | 0);
    r.started = c.now();
    r.after_start = b.slot.state_at(c.now());
    r.status = c.stream_copy(kImage, kPort + port_reg::kData, /*dst_fixed=*/true, 128000,
                             /*cycles_per_word=*/120, &r.bottleneck);
    r.copied = c.now();
    r.status_reg = c.read32(kPort + port_reg::kStatus);
    r.words_reg = c.read32(kPort + port_reg::kWords);
    r.error_reg = c.read32(kPort + port_reg::kErrorCode);
    r.name0 = c.read32(kPortSlot + reg::kName0);
  });
  test::TestThread sampler("sampler", [&] {
    sc_core::wait(sc_core::sc_time(50, sc_core::SC_MS));
    r.midway = b.slot.state_at(sc_core::sc_time_stamp());
    sc_core::wait(sc_core::sc_time(150, sc_core::SC_MS));
    r.after = b.slot.state_at(sc_core::sc_time_stamp());
  });
  sc_core::sc_start();
  EXPECT_TRUE(th.finished());
  return r;
}

TEST(ModelConfigPort, CpuCopyConfiguresTheSlot) {
  ReconfBench b(big_slot(), ConfigPortParams{ns(10), 32, 1});
  const CpuCopyRun r = run_cpu_copy(b);
  EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r.before, SlotState::kEmpty);
  EXPECT_EQ(r.after_start, SlotState::kConfiguring);
  EXPECT_EQ(r.midway, SlotState::kConfiguring);
  EXPECT_EQ(r.after, SlotState::kReady);
  EXPECT_TRUE(b.slot.hosts(kAesId));
  ASSERT_NE(b.slot.core(), nullptr);
  EXPECT_EQ(b.slot.core()->params().kind, CoreKind::kAes128);
  EXPECT_EQ(b.slot.configurations(), 1u);
  EXPECT_EQ(r.name0, 0x61657331u);  // "aes1"
  EXPECT_EQ(r.status_reg, port_reg::kStatusDone);
  EXPECT_EQ(r.words_reg, 128000u);
  EXPECT_EQ(r.error_reg, 0u);
  EXPECT_EQ(r.bottleneck, "cpu.copy_loop");
  EXPECT_FALSE(b.port.busy());
  ASSERT_EQ(b.port.records().size(), 1u);
  const ReconfigurationRecord& rec = b.port.records()[0];
  EXPECT_TRUE(rec.ok) << rec.error;
  EXPECT_EQ(rec.slot, "slot");
  EXPECT_EQ(rec.words, 128000u);
  EXPECT_EQ(rec.error, "");
  // START takes effect at the end of its register access: 10 ns issue + (1 + 1) * 10 ns bus + 10 ns port.
  EXPECT_EQ(r.started, ns(40));
  EXPECT_EQ(rec.start, ns(40));
  EXPECT_EQ(rec.end, r.copied);  // the last word lands when the copy loop ends
  // The port saw 128000 words of 10 ns each.
  EXPECT_EQ(b.port.calendar().busy_time(), ns(128000 * 10));
}

TEST(ModelConfigPort, CpuCopyTimeIsTheCopyLoopTime) {
  ReconfBench b(big_slot(), ConfigPortParams{ns(10), 32, 1});
  const CpuCopyRun r = run_cpu_copy(b);
  // The CPU stage (120 cycles * 10 ns = 1.2 us per word) is slower than bus (2 * 10 ns per word), memory
  // (10 ns) and port (10 ns): 128000 words * 120 cycles * 10 ns = 153.6 ms. The read and the write burst of a
  // chunk share the bus stage: the stream never waits for itself.
  EXPECT_EQ(r.copied - r.started, sc_core::sc_time(153.6, sc_core::SC_MS));
  EXPECT_EQ(r.copied - r.started, ns(153600000));
  EXPECT_EQ(b.port.records().at(0).end, ns(40 + 153600000));
  EXPECT_EQ(b.bus.calendar().wait_time(), sc_core::SC_ZERO_TIME);  // a single initiator never waits
}

// --- the same bitstream fed by a DMA engine into an 8-bit port
// ------------------------------------------------

struct DmaCopyRun {
  sc_core::sc_time programmed, done;
  std::uint32_t dma_status = 0, port_status = 0;
};

// Port width 8 bits at 100 MHz: a word takes 4 port cycles = 40 ns, the slowest stage (DMA 10 ns, memory
// 10 ns, bus 2 * 10 ns per word).
DmaCopyRun run_dma_copy(ReconfBench& b) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  b.load(make_bitstream(kDesId, 512000));
  DmaCopyRun r;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    c.write32(kPort + port_reg::kCtrl, port_reg::kCtrlStart | 0);
    c.write32(kPortDma + dma_reg::kSrc, static_cast<std::uint32_t>(kImage));
    c.write32(kPortDma + dma_reg::kDst, static_cast<std::uint32_t>(kPort + port_reg::kData));
    c.write32(kPortDma + dma_reg::kWords, 128000);
    c.write32(kPortDma + dma_reg::kCtrl, dma_reg::kCtrlStart | dma_reg::kCtrlDstFixed);
    r.programmed = c.now();
    sc_core::wait(b.dma->done_event());
    r.done = sc_core::sc_time_stamp();
    c.sync();  // the CPU was idle while waiting for the interrupt
    r.dma_status = c.read32(kPortDma + dma_reg::kStatus);
    r.port_status = c.read32(kPort + port_reg::kStatus);
  });
  sc_core::sc_start();
  EXPECT_TRUE(th.finished());
  return r;
}

TEST(ModelConfigPort, DmaCopyConfiguresTheSlot) {
  ReconfBench b(big_slot(), ConfigPortParams{ns(10), 8, 1}, /*with_dma=*/true);
  const DmaCopyRun r = run_dma_copy(b);
  EXPECT_EQ(b.port.word_time(), ns(40));
  EXPECT_EQ(r.dma_status, dma_reg::kStatusDone);
  EXPECT_EQ(r.port_status, port_reg::kStatusDone);
  EXPECT_TRUE(b.slot.hosts(kDesId));
  EXPECT_EQ(b.dma->words_moved(), 128000u);
  EXPECT_EQ(b.dma->transfers(), 1u);
  ASSERT_EQ(b.port.records().size(), 1u);
  EXPECT_TRUE(b.port.records()[0].ok) << b.port.records()[0].error;
  EXPECT_EQ(b.port.records()[0].words, 128000u);
  // Five register writes of 40 ns each: START takes effect at 200 ns.
  EXPECT_EQ(r.programmed, ns(200));
  EXPECT_EQ(b.port.records()[0].end, r.done);
  EXPECT_EQ(r.done - ns(200), b.dma->busy_time());
  EXPECT_EQ(b.port.calendar().busy_time(), ns(128000 * 40));
}

TEST(ModelConfigPort, DmaCopyTimeIsThePortTime) {
  ReconfBench b(big_slot(), ConfigPortParams{ns(10), 8, 1}, /*with_dma=*/true);
  const DmaCopyRun r = run_dma_copy(b);
  // setup 10 cycles * 10 ns + 128000 words * 4 port cycles * 10 ns = 100 ns + 5.12 ms = 5120100 ns.
  EXPECT_EQ(b.dma->busy_time(), ns(5120100));
  EXPECT_EQ(r.done, ns(200 + 5120100));
}

// --- failures
// ---------------------------------------------------------------------------------------------------

struct FailedRun {
  std::uint32_t status_reg = 0, error_reg = 0;
  tlm::tlm_response_status slot_access = tlm::TLM_INCOMPLETE_RESPONSE;
  SlotState after = SlotState::kBusy;
};

// Loads `image`, configures the slot with it through the CPU and reports what the port and slot say.
FailedRun run_bad_copy(ReconfBench& b, const std::vector<std::uint8_t>& image) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  b.load(image);
  FailedRun r;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    c.write32(kPort + port_reg::kCtrl, port_reg::kCtrlStart | 0);
    EXPECT_EQ(c.stream_copy(kImage, kPort + port_reg::kData, true, image.size() / 4, 4),
              tlm::TLM_OK_RESPONSE);
    r.status_reg = c.read32(kPort + port_reg::kStatus);
    r.error_reg = c.read32(kPort + port_reg::kErrorCode);
    std::uint32_t v = 0;
    r.slot_access = c.read(kPortSlot + reg::kName0, &v, 4);
    r.after = b.slot.state_at(c.now());
  });
  sc_core::sc_start();
  EXPECT_TRUE(th.finished());
  return r;
}

TEST(ModelConfigPort, BitstreamLargerThanTheSlotFails) {
  ReconfBench b(SlotParams{4096, true, ns(10)}, ConfigPortParams{});
  const FailedRun r = run_bad_copy(b, make_bitstream(kAesId, 8192));
  EXPECT_EQ(r.status_reg, port_reg::kStatusDone | port_reg::kStatusError);
  EXPECT_EQ(r.error_reg, 2u);
  EXPECT_EQ(r.slot_access, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(r.after, SlotState::kEmpty);
  EXPECT_EQ(b.slot.core(), nullptr);
  EXPECT_TRUE(b.slot.configuration_failed());
  EXPECT_EQ(b.slot.configurations(), 0u);
  ASSERT_EQ(b.port.records().size(), 1u);
  EXPECT_FALSE(b.port.records()[0].ok);
  EXPECT_NE(b.port.records()[0].error.find("does not fit"), std::string::npos) << b.port.records()[0].error;
  EXPECT_FALSE(b.port.busy());
}

TEST(ModelConfigPort, CorruptedWordFailsTheChecksum) {
  ReconfBench b(big_slot(), ConfigPortParams{});
  std::vector<std::uint8_t> image = make_bitstream(kAesId, 8192);
  image[4 * 100 + 1] ^= 0x10;  // one bit of payload word 100
  const FailedRun r = run_bad_copy(b, image);
  EXPECT_EQ(r.status_reg, port_reg::kStatusDone | port_reg::kStatusError);
  EXPECT_EQ(r.error_reg, 2u);
  EXPECT_EQ(r.slot_access, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(r.after, SlotState::kEmpty);
  EXPECT_EQ(b.slot.core(), nullptr);
  ASSERT_EQ(b.port.records().size(), 1u);
  EXPECT_FALSE(b.port.records()[0].ok);
  EXPECT_EQ(b.port.records()[0].words, 2048u);  // the checksum is the last word
  EXPECT_NE(b.port.records()[0].error.find("checksum"), std::string::npos) << b.port.records()[0].error;
}

TEST(ModelConfigPort, BitstreamForAnotherSlotFails) {
  ReconfBench b(big_slot(), ConfigPortParams{});
  const FailedRun r = run_bad_copy(b, make_bitstream(42, 8192));  // core 42 is no candidate of this slot
  EXPECT_EQ(r.status_reg, port_reg::kStatusDone | port_reg::kStatusError);
  EXPECT_EQ(r.after, SlotState::kEmpty);
  ASSERT_EQ(b.port.records().size(), 1u);
  EXPECT_FALSE(b.port.records()[0].ok);
  EXPECT_NE(b.port.records()[0].error.find("does not target this slot"), std::string::npos);
}

TEST(ModelConfigPort, StartWhileConfiguringIsACommandErrorAndAbortEnds) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  ReconfBench b(big_slot(), ConfigPortParams{});
  b.load(make_bitstream(kAesId, 8192));
  std::vector<tlm::tlm_response_status> starts;
  std::uint32_t busy_status = 0, words = 0, aborted_status = 0;
  SlotState during = SlotState::kEmpty, after_abort = SlotState::kBusy;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    const std::uint32_t start = port_reg::kCtrlStart | 0;
    starts.push_back(c.write(kPort + port_reg::kCtrl, &start, 4));
    c.stream_copy(kImage, kPort + port_reg::kData, true, 100, 4);
    starts.push_back(c.write(kPort + port_reg::kCtrl, &start, 4));
    const std::uint32_t bad_slot = port_reg::kCtrlStart | 5;
    starts.push_back(c.write(kPort + port_reg::kCtrl, &bad_slot, 4));
    busy_status = c.read32(kPort + port_reg::kStatus);
    words = c.read32(kPort + port_reg::kWords);
    during = b.slot.state_at(c.now());
    c.write32(kPort + port_reg::kCtrl, port_reg::kCtrlAbort);
    aborted_status = c.read32(kPort + port_reg::kStatus);
    after_abort = b.slot.state_at(c.now());
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(starts.size(), 3u);
  EXPECT_EQ(starts[0], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(starts[1], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(starts[2], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(busy_status, port_reg::kStatusBusy);
  EXPECT_EQ(words, 100u);
  EXPECT_EQ(during, SlotState::kConfiguring);
  EXPECT_EQ(aborted_status, port_reg::kStatusDone | port_reg::kStatusError);
  EXPECT_EQ(after_abort, SlotState::kEmpty);
  ASSERT_EQ(b.port.records().size(), 1u);  // the refused STARTs left no record
  EXPECT_FALSE(b.port.records()[0].ok);
  EXPECT_EQ(b.port.records()[0].error, "configuration aborted");
  EXPECT_EQ(b.port.records()[0].words, 100u);
}

TEST(ModelConfigPort, ReconfiguringAComputingCoreIsRefused) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  ReconfBench b(big_slot(), ConfigPortParams{});
  b.slot.preload(kAesId);  // AES with 100000 block cycles: 1 ms per block
  tlm::tlm_response_status refused_write = tlm::TLM_INCOMPLETE_RESPONSE;
  std::uint32_t refused_status = 0, refused_code = 0, later_status = 0;
  SlotState while_busy = SlotState::kEmpty, later = SlotState::kEmpty;
  sc_core::sc_time next_at;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    c.write32(kPortSlot + reg::kCtrl, reg::kCtrlNext);  // busy from 40 ns to 40 ns + 1 ms
    next_at = c.now();
    const std::uint32_t start = port_reg::kCtrlStart | 0;
    refused_write = c.write(kPort + port_reg::kCtrl, &start, 4);
    refused_status = c.read32(kPort + port_reg::kStatus);
    refused_code = c.read32(kPort + port_reg::kErrorCode);
    while_busy = b.slot.state_at(c.now());
    c.compute(100000);  // 1 ms later the core is idle again
    c.write32(kPort + port_reg::kCtrl, start);
    later_status = c.read32(kPort + port_reg::kStatus);
    later = b.slot.state_at(c.now());
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(next_at, ns(40));
  EXPECT_EQ(refused_write, tlm::TLM_OK_RESPONSE);  // the refusal is reported in STATUS
  EXPECT_EQ(refused_status, port_reg::kStatusDone | port_reg::kStatusError);
  EXPECT_EQ(refused_code, 1u);
  EXPECT_EQ(while_busy, SlotState::kBusy);
  ASSERT_EQ(b.port.records().size(), 2u);
  EXPECT_FALSE(b.port.records()[0].ok);
  EXPECT_EQ(b.port.records()[0].error, "the hosted core is computing");
  EXPECT_EQ(later_status, port_reg::kStatusBusy);
  EXPECT_EQ(later, SlotState::kConfiguring);
  EXPECT_TRUE(b.port.busy());
}

TEST(ModelConfigPort, StaticSlotIsNeverReconfigured) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  ReconfBench b(SlotParams{1 << 20, false, ns(10)}, ConfigPortParams{});
  b.slot.preload(kDesId);
  std::uint32_t status = 0;
  test::TestThread th("th", [&] {
    b.cpu.thread(0).write32(kPort + port_reg::kCtrl, port_reg::kCtrlStart | 0);
    status = b.cpu.thread(0).read32(kPort + port_reg::kStatus);
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  EXPECT_EQ(status, port_reg::kStatusDone | port_reg::kStatusError);
  EXPECT_TRUE(b.slot.hosts(kDesId));
  ASSERT_EQ(b.port.records().size(), 1u);
  EXPECT_EQ(b.port.records()[0].error, "slot is static");
}

TEST(ModelConfigPort, RegisterAccessRules) {
  test::set_quantum(sc_core::SC_ZERO_TIME);
  ReconfBench b(big_slot(), ConfigPortParams{ns(10), 32, 3});
  std::vector<tlm::tlm_response_status> s;
  sc_core::sc_time t_status;
  test::TestThread th("th", [&] {
    CpuThread& c = b.cpu.thread(0);
    std::uint32_t v = 0;
    s.push_back(c.read(kPort + port_reg::kStatus, &v, 4));
    t_status = c.now();
    s.push_back(c.write(kPort + port_reg::kStatus, &v, 4));    // read-only
    s.push_back(c.read(kPort + 0x10, &v, 4));                  // no register there
    s.push_back(c.read(kPort + port_reg::kData, &v, 4));       // DATA is write-only
    s.push_back(c.write(kPort + port_reg::kData + 2, &v, 4));  // misaligned
    s.push_back(c.write(kPort + port_reg::kData, &v, 4));      // no configuration: dropped
  });
  sc_core::sc_start();
  ASSERT_TRUE(th.finished());
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s[0], tlm::TLM_OK_RESPONSE);
  // 10 ns issue + (1 + 1) * 10 ns bus + 3 access cycles * 10 ns = 60 ns.
  EXPECT_EQ(t_status, ns(60));
  EXPECT_EQ(s[1], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(s[2], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(s[3], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(s[4], tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(s[5], tlm::TLM_OK_RESPONSE);
  EXPECT_TRUE(b.port.records().empty());
}

}  // namespace
}  // namespace rsoc::models
