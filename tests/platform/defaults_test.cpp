// One default per key: what a model's or the runtime's Params struct holds when default-constructed is what
// the scenario schema fills in when the key is absent. A scenario that gives only required keys is loaded and
// every resolved parameter that has a schema default is compared with the struct's own default, so a default
// changed in one place and not the other fails here. Keys that are required in scenarios (clocks that the CPU
// or bus decides, sizes, addresses) have no schema default and are not compared.
#include <gtest/gtest.h>

#include "platform/scenario.h"

namespace rsoc::platform {
namespace {

// Only what the schema requires (and what the HSM firmware's checks need: static slots for its cores).
constexpr const char* kRequiredOnly =
    R"json({"platform":{"cpus":[{"name":"cpu","bus":"plb"}],"buses":[{"name":"plb","kind":"onchip"},{"name":"fmc","kind":"fmc","window":{"parent":"plb","base":"0x60000000","size_kib":1024}}],"memories":[{"name":"ddr","bus":"plb","base":"0x00000000","size_kib":65536}],"dmas":[{"name":"dma","bus":"plb","base":"0x50000000"}],"config_port":{"bus":"plb","base":"0x40000000"},"slots":[{"name":"slot0","bus":"plb","base":"0x80000000","capacity_kib":600},{"name":"slot1","bus":"fmc","base":"0x60000000","capacity_kib":600},{"name":"s2","bus":"plb","base":"0x81000000","capacity_kib":600,"reconfigurable":false,"core":"mx"},{"name":"s3","bus":"plb","base":"0x82000000","capacity_kib":600,"reconfigurable":false,"core":"mx2"},{"name":"s4","bus":"plb","base":"0x83000000","capacity_kib":600,"reconfigurable":false,"core":"aes2"}],"cores":[{"name":"aes_core","type":"aes128","bitstream":{"memory":"ddr","address":"0x01000000","size_kib":500}},{"name":"x_core","type":"custom","custom":{"functionality":"x","input_bytes":16,"computes":"copy"},"bitstream":{"memory":"ddr","address":"0x02000000","size_kib":500}},{"name":"mx","type":"modexp","bitstream":{"memory":"ddr","address":"0x03000000","size_kib":100}},{"name":"mx2","type":"modexp","bitstream":{"memory":"ddr","address":"0x03100000","size_kib":100}},{"name":"aes2","type":"aes128","bitstream":{"memory":"ddr","address":"0x03200000","size_kib":100}},{"name":"des_core","type":"des","bitstream":{"memory":"ddr","address":"0x03300000","size_kib":100}}],"uarts":[{"name":"u"}]},"software":{"aes128":{"cycles_per_request":20000,"cycles_per_block":3000},"x":{"cycles_per_request":1,"cycles_per_block":1}},"workload":{"apps":[{"name":"a","functionality":"aes128","blocks":1}],"hsm":{"uart":"u","keystore_memory":"ddr","keystore_address":"0x03800000"}}})json";

class OneDefaultPerKey : public ::testing::Test {
 protected:
  ScenarioParams p = load_scenario_text(kRequiredOnly, "required_only.json").params;
};

TEST_F(OneDefaultPerKey, Cpu) {
  const models::CpuParams d;
  ASSERT_EQ(p.cpus.size(), 1u);
  const models::CpuParams& r = p.cpus[0].params;
  EXPECT_EQ(r.clock_period, d.clock_period);
  EXPECT_EQ(r.hw_threads, d.hw_threads);
  EXPECT_EQ(r.mmio_cycles, d.mmio_cycles);
  EXPECT_EQ(r.stream_chunk_words, d.stream_chunk_words);
  EXPECT_EQ(r.smt_throughput, d.smt_throughput);
  EXPECT_FALSE(p.cpus[0].desrnd.has_value());
}

TEST_F(OneDefaultPerKey, BusesAndFmc) {
  ASSERT_EQ(p.buses.size(), 2u);
  const models::OnChipBusParams d;
  ASSERT_TRUE(p.buses[0].onchip());
  const models::OnChipBusParams& r = *p.buses[0].onchip();
  EXPECT_EQ(r.clock_period, d.clock_period);
  EXPECT_EQ(r.latency_cycles, d.latency_cycles);
  EXPECT_EQ(r.cycles_per_word, d.cycles_per_word);
  const models::FmcBusParams f;
  ASSERT_TRUE(p.buses[1].fmc());
  const models::FmcBusParams& rf = *p.buses[1].fmc();
  EXPECT_EQ(rf.clock_period, f.clock_period);
  EXPECT_EQ(rf.mode, f.mode);
  EXPECT_EQ(rf.addr_setup_cycles, f.addr_setup_cycles);
  EXPECT_EQ(rf.data_cycles, f.data_cycles);
  EXPECT_EQ(rf.hold_cycles, f.hold_cycles);
  EXPECT_EQ(rf.sync_latency_cycles, f.sync_latency_cycles);
  EXPECT_EQ(rf.poll_cycles, f.poll_cycles);
  EXPECT_EQ(rf.max_polls, f.max_polls);
  EXPECT_EQ(rf.double_read, f.double_read);
  EXPECT_EQ(rf.byteswap_cycles, f.byteswap_cycles);
  EXPECT_EQ(rf.nwait, f.nwait);
  EXPECT_EQ(rf.write_software_cycles, f.write_software_cycles);
  EXPECT_EQ(rf.read_software_cycles, f.read_software_cycles);
  EXPECT_EQ(rf.timing, f.timing);
}

TEST_F(OneDefaultPerKey, MemoryDmaPortSlotUart) {
  const models::MemoryParams m;
  ASSERT_EQ(p.memories.size(), 1u);
  EXPECT_EQ(p.memories[0].params.clock_period, m.clock_period);
  EXPECT_EQ(p.memories[0].params.latency_cycles, m.latency_cycles);
  EXPECT_EQ(p.memories[0].params.cycles_per_word, m.cycles_per_word);
  const models::DmaParams d;
  ASSERT_EQ(p.dmas.size(), 1u);
  EXPECT_EQ(p.dmas[0].params.clock_period, d.clock_period);
  EXPECT_EQ(p.dmas[0].params.cycles_per_word, d.cycles_per_word);
  EXPECT_EQ(p.dmas[0].params.setup_cycles, d.setup_cycles);
  EXPECT_EQ(p.dmas[0].params.access_cycles, d.access_cycles);
  EXPECT_EQ(p.dmas[0].params.chunk_words, d.chunk_words);
  const models::ConfigPortParams c;
  ASSERT_TRUE(p.config_port.has_value());
  EXPECT_EQ(p.config_port->params.clock_period, c.clock_period);
  EXPECT_EQ(p.config_port->params.width_bits, c.width_bits);
  EXPECT_EQ(p.config_port->params.access_cycles, c.access_cycles);
  const ConfigPortSpec port;
  EXPECT_EQ(p.config_port->dma_feed, port.dma_feed);
  EXPECT_EQ(p.config_port->cpu_copy_cycles_per_word, port.cpu_copy_cycles_per_word);
  const models::SlotParams s;
  ASSERT_FALSE(p.slots.empty());
  EXPECT_EQ(p.slots[0].params.reconfigurable, s.reconfigurable);
  EXPECT_EQ(p.slots[0].params.clock_period, s.clock_period);
  EXPECT_TRUE(p.slots[0].core.empty());
  const models::UartParams u;
  ASSERT_EQ(p.uarts.size(), 1u);
  EXPECT_EQ(p.uarts[0].params.baud, u.baud);
  EXPECT_EQ(p.uarts[0].params.bits_per_byte, u.bits_per_byte);
}

// Every core kind's common keys, and the modexp and custom cores' own.
TEST_F(OneDefaultPerKey, Cores) {
  const models::CoreParams d;
  ASSERT_FALSE(p.cores.empty());
  for (const CoreSpec& core : p.cores) {
    SCOPED_TRACE(core.name);
    const models::CoreParams& r = core.params;
    EXPECT_EQ(r.clock_period, d.clock_period);
    EXPECT_EQ(r.access_cycles, d.access_cycles);
    EXPECT_EQ(r.key_setup_cycles, d.key_setup_cycles);
    EXPECT_EQ(r.block_cycles, d.block_cycles);
    EXPECT_EQ(r.multiplier_width_bits, d.multiplier_width_bits);
    EXPECT_EQ(r.montmul_overhead_cycles, d.montmul_overhead_cycles);
    EXPECT_EQ(r.setup_cycles, d.setup_cycles);
    EXPECT_EQ(r.max_operand_bits, d.max_operand_bits);
    EXPECT_EQ(r.fifo_words, d.fifo_words);
    EXPECT_EQ(r.initiation_interval_cycles, d.initiation_interval_cycles);
    if (r.kind == models::CoreKind::kCustom) {
      EXPECT_EQ(r.custom.key_bytes, d.custom.key_bytes);
      EXPECT_EQ(r.custom.pio, d.custom.pio);
    }
  }
}

TEST_F(OneDefaultPerKey, RuntimeAndScheduler) {
  const runtime::RuntimeParams d;
  EXPECT_EQ(p.runtime.policy, d.policy);
  EXPECT_EQ(p.runtime.caching, d.caching);
  EXPECT_EQ(p.runtime.replacement, d.replacement);
  EXPECT_EQ(p.runtime.wait_for_slot, d.wait_for_slot);
  EXPECT_TRUE(p.runtime.thresholds.empty());
  EXPECT_TRUE(p.runtime.unit_bytes.empty());
  const runtime::DriverCosts c;
  EXPECT_EQ(p.runtime.driver.cycles_per_request, c.cycles_per_request);
  EXPECT_EQ(p.runtime.driver.prepare_cycles_per_request, c.prepare_cycles_per_request);
  EXPECT_EQ(p.runtime.driver.cycles_per_block, c.cycles_per_block);
  EXPECT_EQ(p.runtime.driver.cycles_per_cipher_block, c.cycles_per_cipher_block);
  EXPECT_EQ(p.runtime.driver.poll_loop_cycles, c.poll_loop_cycles);
  EXPECT_EQ(p.runtime.driver.max_polls, c.max_polls);
  EXPECT_EQ(p.runtime.driver.pio_timing, c.pio_timing);
  EXPECT_FALSE(p.data_dma.has_value());
  const runtime::SchedulerParams s;
  EXPECT_EQ(p.scheduler.mode, s.mode);
  EXPECT_EQ(p.scheduler.time_slice, s.time_slice);
  EXPECT_EQ(p.scheduler.context_switch_cycles, s.context_switch_cycles);
  EXPECT_EQ(p.scheduler.yield_cycles, s.yield_cycles);
}

TEST_F(OneDefaultPerKey, WorkloadHsmOutputsAndLimits) {
  ASSERT_EQ(p.apps.size(), 1u);
  const AppSpec a;
  const AppSpec& r = p.apps[0];
  EXPECT_EQ(r.priority, a.priority);
  EXPECT_EQ(r.requests, a.requests);
  EXPECT_EQ(r.poisson, a.poisson);
  EXPECT_EQ(r.think, a.think);
  EXPECT_EQ(r.rate_per_s, a.rate_per_s);
  EXPECT_EQ(r.encrypt, a.encrypt);
  EXPECT_EQ(r.start, a.start);
  EXPECT_EQ(r.duration, a.duration);
  EXPECT_EQ(r.after, a.after);
  EXPECT_TRUE(r.placement.cpus.empty());
  EXPECT_FALSE(r.placement.hw_thread.has_value());
  ASSERT_TRUE(p.hsm.has_value());
  const HsmSpec h;
  EXPECT_EQ(p.hsm->key_bits, h.key_bits);
  EXPECT_EQ(p.hsm->key_record_bytes, h.key_record_bytes);
  const runtime::HsmParams& rh = p.hsm->params;
  EXPECT_EQ(rh.rpc_tasks, h.params.rpc_tasks);
  EXPECT_EQ(rh.task_priority, h.params.task_priority);
  EXPECT_EQ(rh.clients, h.params.clients);
  EXPECT_EQ(rh.signatures_per_client, h.params.signatures_per_client);
  EXPECT_EQ(rh.host_time, h.params.host_time);
  EXPECT_EQ(rh.host_jitter, h.params.host_jitter);
  EXPECT_EQ(rh.rx_tick, h.params.rx_tick);
  EXPECT_EQ(rh.request_bytes, h.params.request_bytes);
  EXPECT_EQ(rh.response_bytes, h.params.response_bytes);
  EXPECT_EQ(rh.blinding_cache, h.params.blinding_cache);
  const ScenarioParams s;
  EXPECT_EQ(p.seed, s.seed);
  EXPECT_EQ(p.requests_csv, s.requests_csv);
  EXPECT_EQ(p.stats_json, s.stats_json);
  EXPECT_EQ(p.breakdown_csv, s.breakdown_csv);
  EXPECT_EQ(p.limits.simulated, s.limits.simulated);
  EXPECT_EQ(p.limits.events, s.limits.events);
  EXPECT_FALSE(p.trace.has_value());
  EXPECT_FALSE(p.vcd.has_value());
}

// A core is given its own kind's parameters (models/core_kinds.h) and no other kind's: a modexp core takes
// its multiplier width and precomputation, an AES core keeps its defaults for them.
TEST(KindParameters, ACoreTakesItsOwnKindsParametersOnly) {
  LoadOptions o;
  o.overrides = {"platform.cores.0.multiplier_width_bits=64",  "platform.cores.0.setup_cycles=7",
                 "platform.cores.2.multiplier_width_bits=64",  "platform.cores.2.setup_cycles=7",
                 "platform.cores.2.architecture=\"modexpa7\"", "platform.cores.1.setup_cycles=5"};
  const ScenarioParams p = load_scenario_text(kRequiredOnly, "required_only.json", o).params;
  const models::CoreParams d;
  EXPECT_EQ(p.cores[0].params.multiplier_width_bits, d.multiplier_width_bits);  // aes128
  EXPECT_EQ(p.cores[0].params.setup_cycles, d.setup_cycles);
  EXPECT_EQ(p.cores[1].params.setup_cycles, 5u);            // custom
  EXPECT_EQ(p.cores[2].params.multiplier_width_bits, 64u);  // modexp
  EXPECT_EQ(p.cores[2].params.setup_cycles, 7u);
  EXPECT_EQ(p.cores[2].params.modexp_architecture, models::ModexpArchitecture::kModExpA7);
}

}  // namespace
}  // namespace rsoc::platform
