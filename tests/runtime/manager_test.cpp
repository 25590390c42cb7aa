// The runtime's hardware and software paths give identical bytes, a resident core skips reconfiguration, and
// the LRU victim is the least recently used core.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "runtime/manager.h"

#include <gtest/gtest.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <random>
#include <systemc>

#include "models/bitstream.h"
#include "models/config_port.h"
#include "models/memory.h"
#include "models/onchip_bus.h"

using namespace rsoc;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

// CPU + bus + DDR with three bitstreams (AES, DES, AES-again-as-other-design) + port + `slots` slots.
struct Bench {
  models::SoftCpu cpu{"cpu", models::CpuParams{}};
  models::OnChipBus bus{"bus", models::OnChipBusParams{}};
  models::Memory ddr{"ddr", models::MemoryParams{16 << 20, sc_time(10, SC_NS), 1, 1}};
  std::vector<std::unique_ptr<models::FpgaSlot>> slots;
  std::unique_ptr<models::ConfigPort> port;
  std::vector<runtime::CoreDesign> designs;
  std::vector<runtime::SlotView> views;

  explicit Bench(unsigned n_slots) {
    bus.add_initiator(cpu.initiator);
    bus.add_target(ddr.target, 0, 16 << 20, "ddr");
    const models::CoreKind kinds[] = {models::CoreKind::kAes128, models::CoreKind::kDes};
    for (std::uint32_t id = 0; id < 2; ++id) {
      const std::uint64_t addr = 0x100000 * (id + 1), bytes = 4096;
      const auto image = models::make_bitstream(id, bytes);
      ddr.load(addr, image.data(), image.size());
      designs.push_back({id == 0 ? "aes" : "des", id, kinds[id], addr, bytes});
    }
    std::vector<models::FpgaSlot*> raw;
    for (unsigned i = 0; i < n_slots; ++i) {
      slots.push_back(
          std::make_unique<models::FpgaSlot>(("slot" + std::to_string(i)).c_str(), models::SlotParams{}));
      for (const auto& d : designs) {
        models::CoreParams cp;
        cp.kind = d.kind;
        slots.back()->add_candidate(d.id, models::make_core(d.name, cp));
      }
      bus.add_target(slots.back()->target, 0x80000000ull + 0x10000ull * i, 0x2000, slots.back()->basename());
      raw.push_back(slots.back().get());
      views.push_back(
          {slots.back()->basename(), slots.back().get(), 0x80000000ull + 0x10000ull * i, i, true, 1 << 20});
    }
    port = std::make_unique<models::ConfigPort>("port", models::ConfigPortParams{}, raw);
    bus.add_target(port->target, 0x40000000, models::port_reg::kSize, "port");
  }

  std::unique_ptr<runtime::Manager> manager(runtime::Policy policy,
                                            std::vector<runtime::RequestRecord>& log) {
    runtime::RuntimeParams p;
    p.policy = policy;
    p.software[runtime::Functionality::kAes128] = {1000, 100};
    p.software[runtime::Functionality::kDes] = {1000, 100};
    p.software[runtime::Functionality::kTripleDes] = {1000, 300};
    runtime::ReconfigurationFeed feed;
    feed.cpu_copy_cycles_per_word = 10;
    return std::make_unique<runtime::Manager>(
        p, views, designs, std::make_unique<runtime::ReconfigurationDriver>(0x40000000, feed),
        [&log](const runtime::RequestRecord& r) { log.push_back(r); });
  }
};

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

}  // namespace

TEST(RuntimeManager, HardwareAndSoftwareGiveIdenticalBytes) {
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1, sc_core::SC_US));
  Bench bench(2);
  std::vector<runtime::RequestRecord> hw_log, sw_log;
  auto hw = bench.manager(runtime::Policy::kHardware, hw_log);
  auto sw = bench.manager(runtime::Policy::kSoftware, sw_log);
  int checked = 0;
  sc_core::sc_spawn([&] {
    auto& t = bench.cpu.thread(0);
    for (auto f : {runtime::Functionality::kAes128, runtime::Functionality::kDes,
                   runtime::Functionality::kTripleDes}) {
      for (bool encrypt : {true, false}) {
        const auto& fi = runtime::info(f);
        const auto key = random_bytes(fi.key_bytes, 7 + checked);
        const auto data = random_bytes(fi.block_bytes * 37, 99 + checked);
        const auto a = hw->request(t, "app", f, key, data, encrypt);
        const auto b = sw->request(t, "app", f, key, data, encrypt);
        EXPECT_EQ(a.record.decision, "hardware");
        EXPECT_EQ(b.record.decision, "software");
        EXPECT_TRUE(a.record.ok) << a.record.error;
        EXPECT_EQ(a.output, b.output) << fi.name << (encrypt ? " encrypt" : " decrypt");
        EXPECT_NE(a.output, data);
        ++checked;
      }
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(checked, 6);
  // 3DES runs on the DES core: aes, des configured once each; everything else hit the cache.
  EXPECT_EQ(hw->cache_misses(), 2u);
  EXPECT_EQ(hw->cache_hits(), 4u);
}

TEST(RuntimeManager, CacheHitSkipsReconfigurationAndLruEvictsOldest) {
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1, sc_core::SC_US));
  Bench bench(1);
  std::vector<runtime::RequestRecord> log;
  auto hw = bench.manager(runtime::Policy::kHardware, log);
  sc_core::sc_spawn([&] {
    auto& t = bench.cpu.thread(0);
    const auto key16 = random_bytes(16, 1), key8 = random_bytes(8, 2);
    hw->request(t, "a", runtime::Functionality::kAes128, key16, random_bytes(32, 3),
                true);  // miss: configure
    hw->request(t, "a", runtime::Functionality::kAes128, key16, random_bytes(32, 4), true);  // hit
    hw->request(t, "b", runtime::Functionality::kDes, key8, random_bytes(16, 5), true);      // evicts aes
  });
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_TRUE(log[0].reconfigured);
  EXPECT_GT(log[0].reconfig_ps, 0u);
  EXPECT_FALSE(log[1].reconfigured);
  EXPECT_EQ(log[1].reconfig_ps, 0u);
  EXPECT_LT(log[1].end_ps - log[1].issue_ps, log[0].end_ps - log[0].issue_ps);
  EXPECT_TRUE(log[2].reconfigured);
  EXPECT_NE(log[2].reason.find("evicting aes"), std::string::npos) << log[2].reason;
  EXPECT_EQ(hw->evictions(), 1u);
  EXPECT_TRUE(bench.slots[0]->hosts(1));
}
