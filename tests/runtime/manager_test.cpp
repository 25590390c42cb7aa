// The manager: identical bytes from hardware and software, every selection policy, module caching and the
// replacement strategies, a core in use never evicted, waiting for a slot or falling back to software.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "runtime/manager.h"

#include <gtest/gtest.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <random>
#include <systemc>

#include "models/bitstream.h"
#include "models/config_port.h"
#include "models/crypto/modexp.h"
#include "models/memory.h"
#include "models/modexp_core.h"
#include "models/onchip_bus.h"

using namespace rsoc;
using runtime::Functionality;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

// CPU (two hardware threads) + bus + DDR holding an AES, a DES and a modexp bitstream + port + slots.
struct Bench {
  models::SoftCpu cpu{"cpu", models::CpuParams{sc_time(10, SC_NS), 2, 1, 1024}};
  models::OnChipBus bus{"bus", models::OnChipBusParams{}};
  models::Memory ddr{"ddr", models::MemoryParams{16 << 20, sc_time(10, SC_NS), 1, 1}};
  std::vector<std::unique_ptr<models::FpgaSlot>> slots;
  std::unique_ptr<models::ConfigPort> port;
  std::vector<runtime::CoreDesign> designs;
  std::vector<runtime::SlotView> views;
  runtime::Scheduler sched0{cpu.thread(0), runtime::SchedulerParams{}};
  runtime::Scheduler sched1{cpu.thread(1), runtime::SchedulerParams{}};
  std::vector<runtime::RequestRecord> log;

  explicit Bench(unsigned n_slots) {
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1, sc_core::SC_US));
    bus.add_initiator(cpu.initiator);
    bus.add_target(ddr.target, 0, 16 << 20, "ddr");
    const models::CoreKind kinds[] = {models::CoreKind::kAes128, models::CoreKind::kDes,
                                      models::CoreKind::kModexp};
    const char* names[] = {"aes", "des", "modexp"};
    for (std::uint32_t id = 0; id < 3; ++id) {
      const std::uint64_t addr = 0x100000 * (id + 1), bytes = 4096;  // 1024 words at 10 cycles: 102.4 us
      const auto image = models::make_bitstream(id, bytes);
      ddr.load(addr, image.data(), image.size());
      designs.push_back(
          {names[id], id, kinds[id], addr, bytes, kinds[id] == models::CoreKind::kModexp ? 2048u : 0u});
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

  runtime::RuntimeParams params(runtime::PolicyKind policy) const {
    runtime::RuntimeParams p;
    p.policy = policy;
    p.software[Functionality::kAes128] = {1000, 2000};
    p.software[Functionality::kDes] = {1000, 1500};
    p.software[Functionality::kTripleDes] = {1000, 4000};
    p.software[Functionality::kModexp1024] = {1000, 5000000};
    p.software[Functionality::kModexp2048] = {1000, 40000000};
    return p;
  }

  std::unique_ptr<runtime::Manager> manager(const runtime::RuntimeParams& p,
                                            const runtime::CostModel* model = nullptr) {
    runtime::ReconfigurationFeed feed;
    feed.cpu_copy_cycles_per_word = 10;
    return std::make_unique<runtime::Manager>(
        p, views, designs, std::make_unique<runtime::ReconfigurationDriver>(0x40000000, feed), model,
        [this](const runtime::RequestRecord& r) { log.push_back(r); });
  }
};

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

std::vector<std::uint8_t> random_key(Functionality f, std::uint64_t seed) {
  auto key = random_bytes(runtime::info(f).key_bytes, seed);
  runtime::shape_key(f, key);
  return key;
}

std::vector<std::uint8_t> input_blocks(Functionality f, std::uint64_t blocks, std::uint64_t seed) {
  auto data = random_bytes(runtime::info(f).block_bytes * blocks, seed);
  runtime::shape_data(f, data);
  return data;
}

runtime::RequestOutcome ask(runtime::Manager& m, runtime::Process& p, Functionality f, std::uint64_t blocks,
                            std::uint64_t seed = 1) {
  return m.request(p, "app", f, random_key(f, seed), input_blocks(f, blocks, seed + 1), true);
}

}  // namespace

TEST(RuntimeManager, HardwareAndSoftwareGiveIdenticalBytes) {
  Bench bench(2);
  auto hw = bench.manager(bench.params(runtime::PolicyKind::kHardware));
  auto sw = bench.manager(bench.params(runtime::PolicyKind::kSoftware));
  int checked = 0;
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    for (auto f : {Functionality::kAes128, Functionality::kDes, Functionality::kTripleDes}) {
      for (bool encrypt : {true, false}) {
        const auto& fi = runtime::info(f);
        const auto key = random_bytes(fi.key_bytes, 7 + checked);
        const auto data = random_bytes(fi.block_bytes * 37, 99 + checked);
        const auto a = hw->request(p, "app", f, key, data, encrypt);
        const auto b = sw->request(p, "app", f, key, data, encrypt);
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
  EXPECT_EQ(hw->slots().cache_misses(), 2u);  // 3DES runs on the DES core
  EXPECT_EQ(hw->slots().cache_hits(), 4u);
}

TEST(RuntimeManager, ModexpOnTheCoreEqualsSoftwareAndTakesTheFormulaTime) {
  Bench bench(1);
  runtime::RuntimeParams params = bench.params(runtime::PolicyKind::kHardware);
  params.driver.poll_loop_cycles = 500;  // the driver polls every 5 us during the 168 ms of a 2048-bit modexp
  auto hw = bench.manager(params);
  auto sw = bench.manager(bench.params(runtime::PolicyKind::kSoftware));
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    for (auto f : {Functionality::kModexp1024, Functionality::kModexp2048}) {
      const auto key = random_key(f, 5);
      const auto data = input_blocks(f, 3, 6);
      const auto a = hw->request(p, "app", f, key, data, true);
      const auto b = sw->request(p, "app", f, key, data, true);
      ASSERT_TRUE(a.record.ok) << a.record.error;
      EXPECT_EQ(a.record.decision, "hardware");
      EXPECT_TRUE(a.record.verified);
      EXPECT_EQ(a.output, b.output);
      // Spot check one block by its definition: message ^ exponent mod modulus, all big-endian.
      const std::size_t n = runtime::info(f).block_bytes;
      const auto expect = crypto::modexp(crypto::BigInt::from_bytes_be(&data[n], n),
                                         crypto::BigInt::from_bytes_be(&key[n], n),
                                         crypto::BigInt::from_bytes_be(key.data(), n));
      EXPECT_EQ(crypto::BigInt::from_bytes_be(&a.output[n], n), expect);
      // Three exponentiations at the core's formula bound the execution from below; the driver's words
      // and polls add less than 10 %.
      const double core_s =
          3 * 10e-9 * static_cast<double>(models::modexp_cycles(models::CoreParams{}, 8 * n, 8 * n));
      const double exec_s = static_cast<double>(a.record.exec_ps) * 1e-12;
      EXPECT_GT(exec_s, core_s);
      EXPECT_LT(exec_s, core_s * 1.1);
    }
    // A modulus wider than the core takes: no hardware implementation, so the hardware policy cannot run it.
    const auto big =
        hw->request(p, "app", Functionality::kModexp4096, random_key(Functionality::kModexp4096, 1),
                    input_blocks(Functionality::kModexp4096, 1, 2), true);
    EXPECT_NE(big.record.decision, "hardware");
  });
  sc_core::sc_start();
  EXPECT_EQ(hw->slots().cache_misses(), 1u);  // one modexp core serves both sizes
}

TEST(RuntimeManager, RsaCrtRunsWholeOnOneCoreAndSigns) {
  // rsa2048_crt: a real key drawn from random bytes; one message signed on the modexp core in CRT mode equals
  // the software implementation and verifies with e = 65537 and n = p * q.
  Bench bench(1);
  runtime::RuntimeParams params = bench.params(runtime::PolicyKind::kHardware);
  params.driver.poll_loop_cycles = 500;
  params.software[Functionality::kRsaCrt2048] = {1000, 10000000};
  auto hw = bench.manager(params);
  params.policy = runtime::PolicyKind::kSoftware;
  auto sw = bench.manager(params);
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    const Functionality f = Functionality::kRsaCrt2048;
    const auto key = random_key(f, 11);
    const auto data = input_blocks(f, 2, 12);
    const auto a = hw->request(p, "app", f, key, data, true);
    const auto b = sw->request(p, "app", f, key, data, true);
    ASSERT_TRUE(a.record.ok) << a.record.error;
    EXPECT_EQ(a.record.decision, "hardware");
    EXPECT_EQ(a.output, b.output);
    const crypto::BigInt n =
        crypto::BigInt::from_bytes_be(key.data(), 128) * crypto::BigInt::from_bytes_be(&key[128], 128);
    for (std::size_t i = 0; i < 2; ++i)
      EXPECT_EQ(
          crypto::modexp(crypto::BigInt::from_bytes_be(&a.output[256 * i], 256), crypto::BigInt(65537), n),
          crypto::BigInt::from_bytes_be(&data[256 * i], 256));
    // Two 1024-bit exponentiations and the recombination per message, at the core's clock.
    const double core_s = 2 * 10e-9 * static_cast<double>(models::rsa_crt_cycles(models::CoreParams{}, 1024));
    EXPECT_GT(static_cast<double>(a.record.exec_ps) * 1e-12, core_s);
    EXPECT_LT(static_cast<double>(a.record.exec_ps) * 1e-12, core_s * 1.1);
  });
  sc_core::sc_start();
}

TEST(RuntimeManager, MalformedInputIsARecordedFailureNotACrash) {
  Bench bench(1);
  auto m = bench.manager(bench.params(runtime::PolicyKind::kHardware));
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    auto key = random_key(Functionality::kModexp1024, 1);
    key[127] &= 0xFE;  // even modulus
    const auto even = m->request(p, "app", Functionality::kModexp1024, key,
                                 input_blocks(Functionality::kModexp1024, 1, 2), true);
    EXPECT_FALSE(even.record.ok);
    EXPECT_EQ(even.record.error, "the modulus of a modexp1024 key must be odd with its top bit set");
    const auto ragged = m->request(p, "app", Functionality::kAes128, random_key(Functionality::kAes128, 1),
                                   random_bytes(20, 2), true);
    EXPECT_FALSE(ragged.record.ok);
    EXPECT_EQ(ragged.record.error, "20 bytes of data are not whole aes128 blocks (16 bytes each)");
  });
  sc_core::sc_start();
  ASSERT_EQ(bench.log.size(), 2u);
  EXPECT_EQ(bench.log[0].decision, "none");
}

TEST(RuntimeManager, TheUnitMultipliesTheDataAndTheSoftwareTime) {
  // Blocks of 64 bytes (four AES cipher blocks): 1,000 cycles per request, per block 2,000 and 10.5 per
  // byte (672 cycles).
  Bench bench(1);
  auto params = bench.params(runtime::PolicyKind::kSoftware);
  params.unit_bytes[Functionality::kAes128] = 64;
  params.software[Functionality::kAes128].cycles_per_byte = 10.5;
  auto sw = bench.manager(params);
  params.policy = runtime::PolicyKind::kHardware;
  auto hw = bench.manager(params);
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    const auto key = random_key(Functionality::kAes128, 3);
    const auto data = random_bytes(5 * 64, 4);
    const auto a = sw->request(p, "app", Functionality::kAes128, key, data, true);
    EXPECT_EQ(a.record.blocks, 5u);
    EXPECT_EQ(a.record.bytes, 320u);
    EXPECT_EQ(a.record.exec_ps, sc_time(10, SC_NS).value() * (1000 + 5 * (2000 + 672)));
    const auto b = hw->request(p, "app", Functionality::kAes128, key, data, true);  // the same bytes
    ASSERT_TRUE(b.record.ok) << b.record.error;
    EXPECT_EQ(b.record.blocks, 5u);
    EXPECT_EQ(b.output, a.output);
    EXPECT_TRUE(b.record.verified);
    const auto ragged = sw->request(p, "app", Functionality::kAes128, key, random_bytes(48, 5), true);
    EXPECT_FALSE(ragged.record.ok);
    EXPECT_EQ(ragged.record.error, "48 bytes of data are not whole aes128 blocks (64 bytes each)");
  });
  sc_core::sc_start();
}

TEST(RuntimeManager, TheDriverChargesEveryBlockAndEveryCipherBlockOfIt) {
  // Blocks of 64 bytes (four AES cipher blocks), three per request, each manager's first (it configures
  // the slot and loads the key): against a driver without costs, 1,000 cycles per block add 3 x 1,000,
  // 300 cycles per cipher block 12 x 300. The PIO loop simulated word by word takes the same time as the
  // burst's replays.
  Bench bench(1);
  auto params = bench.params(runtime::PolicyKind::kHardware);
  params.unit_bytes[Functionality::kAes128] = 64;
  auto plain = bench.manager(params);
  params.driver.cycles_per_block = 1000;
  auto per_block = bench.manager(params);
  params.driver.cycles_per_block = 0;
  params.driver.cycles_per_cipher_block = 300;
  auto per_cipher_block = bench.manager(params);
  params.driver.cycles_per_cipher_block = 0;
  params.driver.pio_timing = runtime::PioTiming::kWord;
  auto word = bench.manager(params);
  std::vector<std::uint64_t> exec;
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    const auto key = random_key(Functionality::kAes128, 8);
    const auto data = random_bytes(3 * 64, 9);
    for (auto* m : {plain.get(), per_block.get(), per_cipher_block.get(), word.get()}) {
      const auto r = m->request(p, "app", Functionality::kAes128, key, data, true).record;
      EXPECT_TRUE(r.ok && r.verified && r.reconfigured) << r.error;
      exec.push_back(r.exec_ps);
    }
  });
  sc_core::sc_start();
  ASSERT_EQ(exec.size(), 4u);
  const std::uint64_t cycle = sc_time(10, SC_NS).value();
  EXPECT_EQ(exec[1] - exec[0], 3 * 1000 * cycle);
  EXPECT_EQ(exec[2] - exec[0], 12 * 300 * cycle);
  EXPECT_EQ(exec[3], exec[0]);
}

TEST(RuntimeManager, TwoThreadsRunBlocksOnTwoCoresAtOnce) {
  // Blocks of 64 bytes on both hardware threads at once, AES in one slot and DES in the other: the threads
  // interleave every quantum (1 us), in the middle of blocks, each recording and replaying its own cipher
  // blocks.
  Bench bench(2);
  auto params = bench.params(runtime::PolicyKind::kHardware);
  params.unit_bytes[Functionality::kAes128] = 64;
  params.unit_bytes[Functionality::kDes] = 64;
  auto m = bench.manager(params);
  for (auto* sched : {&bench.sched0, &bench.sched1})
    sched->spawn("app", 10, [&, sched](runtime::Process& p) {
      const Functionality f = sched == &bench.sched0 ? Functionality::kAes128 : Functionality::kDes;
      for (int i = 0; i < 3; ++i)
        m->request(p, "app", f, random_key(f, 20 + i), random_bytes(20 * 64, 30 + i), true);
    });
  sc_core::sc_start();
  ASSERT_EQ(bench.log.size(), 6u);
  for (const auto& r : bench.log) {
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.verified) << r.functionality;
    EXPECT_EQ(r.decision, "hardware");
  }
}

TEST(RuntimeManager, CacheHitSkipsReconfigurationAndCachingOffDoesNot) {
  Bench bench(1);
  auto cached = bench.manager(bench.params(runtime::PolicyKind::kHardware));
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    ask(*cached, p, Functionality::kAes128, 2);
    ask(*cached, p, Functionality::kAes128, 2);
  });
  sc_core::sc_start();
  ASSERT_EQ(bench.log.size(), 2u);
  EXPECT_TRUE(bench.log[0].reconfigured);
  // 1024 words x 10 cycles x 10 ns, plus the START write and the STATUS read: 10 (issue) + 20 (bus) + 10
  // (port) ns each.
  EXPECT_EQ(bench.log[0].reconfig_ps, sc_time(102400 + 40 + 40, SC_NS).value());
  EXPECT_FALSE(bench.log[1].reconfigured);
  EXPECT_EQ(bench.log[1].reconfig_ps, 0u);
  EXPECT_NE(bench.log[1].reason.find("core resident in slot0"), std::string::npos) << bench.log[1].reason;
  // The core still holds the key: the driver skips 4 key writes, CONFIG, INIT and its status read (7 x 40
  // ns).
  EXPECT_EQ(bench.log[0].exec_ps - bench.log[1].exec_ps, sc_time(280, SC_NS).value());
  // The manager declares its counters itself (models/statistics.h): one miss, one hit.
  std::vector<models::StatGroup> stats;
  const models::StatisticsSource& source = *cached;
  source.statistics(1.0, stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].resource, "manager");
  ASSERT_EQ(stats[0].stats.size(), 14u);
  EXPECT_EQ(stats[0].stats[0].name, "cache_hits");
  EXPECT_EQ(stats[0].stats[0].value, 1.0);
  EXPECT_EQ(stats[0].stats[1].name, "cache_misses");
  EXPECT_EQ(stats[0].stats[1].value, 1.0);
}

TEST(RuntimeManager, WithoutCachingEveryHardwareRequestReconfigures) {
  Bench bench(1);
  auto params = bench.params(runtime::PolicyKind::kHardware);
  params.caching = false;
  auto m = bench.manager(params);
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    for (int i = 0; i < 3; ++i) ask(*m, p, Functionality::kAes128, 1);
  });
  sc_core::sc_start();
  for (const auto& r : bench.log) EXPECT_TRUE(r.reconfigured) << r.id;
  EXPECT_EQ(m->slots().cache_hits(), 0u);
}

TEST(RuntimeManager, ACoreInUseIsNeverEvictedTheRequestWaits) {
  // One slot. Thread 0 runs AES on 300 blocks; thread 1 asks for DES meanwhile: it must wait for the slot.
  Bench bench(1);
  auto m = bench.manager(bench.params(runtime::PolicyKind::kHardware));
  sc_time aes_end, des_start;
  bench.sched0.spawn("aes_app", 10, [&](runtime::Process& p) {
    ask(*m, p, Functionality::kAes128, 300);
    aes_end = sc_core::sc_time_stamp();
  });
  bench.sched1.spawn(
      "des_app", 10,
      [&](runtime::Process& p) {
        const auto out = ask(*m, p, Functionality::kDes, 1);
        des_start = sc_time(static_cast<double>(out.record.start_ps), sc_core::SC_PS);
        EXPECT_NE(out.record.reason.find("evicting aes from slot0"), std::string::npos) << out.record.reason;
      },
      sc_time(200, sc_core::SC_US));
  sc_core::sc_start();
  EXPECT_EQ(m->slots().slot_waits(), 1u);
  EXPECT_GE(des_start, aes_end);
  ASSERT_EQ(bench.log.size(), 2u);
  EXPECT_TRUE(bench.log[0].ok);
  EXPECT_EQ(bench.log[0].functionality, "aes128");  // finished first, untouched
}

TEST(RuntimeManager, TakeCoreHandsOutTheLeastRecentlyUsedIdleCoreAndRequestsWaitForIt) {
  // A core library's allocation (libhal's hal_core_alloc): any idle core of the kind, the least recently used
  // first; a core's place in that order moves only when the allocation is confirmed (stamp). A request for a
  // taken core's functionality waits for its slot until the core is given back.
  Bench bench(2);
  bench.slots[0]->preload(0);  // aes
  bench.slots[1]->preload(0);  // aes
  auto m = bench.manager(bench.params(runtime::PolicyKind::kHardware));
  EXPECT_EQ(m->slots().cores_of(models::CoreKind::kAes128), 2u);
  EXPECT_EQ(m->slots().cores_of(models::CoreKind::kModexp), 0u);
  sc_time given_back;
  bench.sched0.spawn("library", 10, [&](runtime::Process& p) {
    const auto a = m->slots().take_core(models::CoreKind::kAes128);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->slot_name, "slot0");
    EXPECT_EQ(a->base, 0x80000000u);
    m->slots().stamp(*a);
    const auto b = m->slots().take_core(models::CoreKind::kAes128);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->slot_name, "slot1");
    m->slots().stamp(*b);
    EXPECT_FALSE(m->slots().take_core(models::CoreKind::kAes128));  // both taken
    EXPECT_FALSE(m->slots().take_core(models::CoreKind::kDes));     // none configured
    p.sleep(sc_time(50, sc_core::SC_US));                   // the request below waits meanwhile
    given_back = sc_core::sc_time_stamp();
    m->slots().give_back(p, *b);
    m->slots().give_back(p, *a);
    p.sleep(sc_time(50, sc_core::SC_US));  // the request ran on slot0 (least recently used) meanwhile
    const auto c = m->slots().take_core(models::CoreKind::kAes128);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->slot_name, "slot1");  // slot0 was used by the request since
    m->slots().give_back(p, *c);  // not stamped: its place in the order is unchanged
    const auto d = m->slots().take_core(models::CoreKind::kAes128);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->slot_name, "slot1");
    m->slots().give_back(p, *d);
  });
  bench.sched1.spawn(
      "app", 10, [&](runtime::Process& p) { ask(*m, p, Functionality::kAes128, 1); },
      sc_time(10, sc_core::SC_US));
  sc_core::sc_start();
  ASSERT_EQ(bench.log.size(), 1u);
  const auto& r = bench.log[0];
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.slot, "slot0");
  EXPECT_FALSE(r.reconfigured);
  EXPECT_GE(r.start_ps, given_back.value());
  EXPECT_GE(r.breakdown[runtime::TimeUse::kSlotWait], (given_back - sc_time(10, sc_core::SC_US)).value());
}

TEST(RuntimeManager, ASlotLeaseGivesItsSlotBackOnceWhenDestroyedEvenByAnException) {
  // The slot broker's lease: the request's hold on its slot ends when the lease is destroyed (an exception
  // included), once, whichever lease it was moved to; a request waiting for the slot then runs.
  Bench bench(1);
  bench.slots[0]->preload(0);  // aes
  auto m = bench.manager(bench.params(runtime::PolicyKind::kHardware));
  runtime::SlotBroker& slots = m->slots();
  bench.sched0.spawn("holder", 10, [&](runtime::Process& p) {
    const runtime::CoreDesign& aes = *slots.design_for(Functionality::kAes128);
    bool configure = true;
    std::string reason;
    try {
      std::optional<runtime::SlotBroker::Lease> held = slots.take(p, aes, {}, configure, reason);
      ASSERT_TRUE(held);
      EXPECT_FALSE(configure);
      EXPECT_EQ(reason, "; core resident in slot0");
      EXPECT_TRUE(slots.table()[0].in_use);
      EXPECT_FALSE(slots.take(p, aes, {}, configure, reason));  // in use: nothing to take
      runtime::SlotBroker::Lease moved(std::move(*held));
      held.reset();  // the moved-from lease gives nothing back
      EXPECT_TRUE(slots.table()[0].in_use);
      p.sleep(sc_time(50, sc_core::SC_US));  // the request below waits meanwhile
      throw std::runtime_error("the request failed");
    } catch (const std::runtime_error&) {
    }
    EXPECT_FALSE(slots.table()[0].in_use);
    EXPECT_EQ(slots.resident(0), "aes");  // module caching: the core stays
  });
  bench.sched1.spawn(
      "app", 10, [&](runtime::Process& p) { ask(*m, p, Functionality::kAes128, 1); },
      sc_time(10, sc_core::SC_US));
  sc_core::sc_start();
  ASSERT_EQ(bench.log.size(), 1u);
  EXPECT_TRUE(bench.log[0].ok) << bench.log[0].error;
  EXPECT_GE(bench.log[0].start_ps, sc_time(50, sc_core::SC_US).value());
  EXPECT_EQ(slots.slot_waits(), 1u);
  EXPECT_EQ(slots.cache_hits(), 2u);  // the lease's take and the request's
}

TEST(RuntimeRequestLedger, NumbersEveryRequestInOneSequenceAndRecordsThemInTheOrderTheyEnd) {
  std::vector<std::uint64_t> sunk;
  runtime::RequestLedger ledger([&](const runtime::RequestRecord& r) { sunk.push_back(r.id); });
  const runtime::RequestRecord a = ledger.open("app", "aes128", 4, 64, 1000);
  const runtime::RequestRecord b = ledger.open("client0", "rsa2048_sign", 1, 256, 2000);
  EXPECT_EQ(a.id, 0u);
  EXPECT_EQ(b.id, 1u);
  EXPECT_EQ(b.app, "client0");
  EXPECT_EQ(b.functionality, "rsa2048_sign");
  EXPECT_EQ(b.blocks, 1u);
  EXPECT_EQ(b.bytes, 256u);
  EXPECT_EQ(b.issue_ps, 2000u);
  ledger.record(b);
  ledger.record(a);
  EXPECT_EQ(sunk, (std::vector<std::uint64_t>{1, 0}));
  EXPECT_EQ(ledger.recorded(), 2u);
}

TEST(RuntimeManager, SoftwareThatDoesNotExistIsNeverRunInNoTime) {
  // No software for modexp4096 and no core that takes 4096-bit operands: the request fails with the reason,
  // it does not "run in software" in 0 ms. With a core but no software (DES here) and no threshold for it,
  // the threshold policy chooses the core.
  Bench bench(1);
  auto hw = bench.manager(bench.params(runtime::PolicyKind::kHardware));
  auto no_des_software = bench.params(runtime::PolicyKind::kThreshold);
  no_des_software.software.erase(Functionality::kDes);
  auto threshold = bench.manager(no_des_software);
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    const auto none = ask(*hw, p, Functionality::kModexp4096, 1);
    EXPECT_FALSE(none.record.ok);
    EXPECT_EQ(none.record.error,
              "no software implementation of modexp4096 (/software/modexp4096 is not defined)");
    const auto des = ask(*threshold, p, Functionality::kDes, 1);
    EXPECT_TRUE(des.record.ok) << des.record.error;
    EXPECT_EQ(des.record.decision, "hardware");
    EXPECT_NE(des.record.reason.find("threshold: none set for des, and no software implementation"),
              std::string::npos)
        << des.record.reason;
  });
  sc_core::sc_start();
  ASSERT_EQ(bench.log.size(), 2u);
}

TEST(RuntimeManager, WithoutAFreeSlotTheRequestCanFallBackToSoftware) {
  Bench bench(1);
  auto params = bench.params(runtime::PolicyKind::kHardware);
  params.wait_for_slot = false;
  auto m = bench.manager(params);
  bench.sched0.spawn("aes_app", 10, [&](runtime::Process& p) { ask(*m, p, Functionality::kAes128, 300); });
  bench.sched1.spawn(
      "des_app", 10,
      [&](runtime::Process& p) {
        const auto out = ask(*m, p, Functionality::kDes, 1);
        EXPECT_EQ(out.record.decision, "software");
        EXPECT_NE(out.record.reason.find("no slot free: software instead"), std::string::npos)
            << out.record.reason;
      },
      sc_time(200, sc_core::SC_US));
  sc_core::sc_start();
  EXPECT_EQ(m->slots().fallbacks(), 1u);
}

TEST(RuntimeManager, ThresholdPolicyChoosesByBlockCount) {
  Bench bench(1);
  auto params = bench.params(runtime::PolicyKind::kThreshold);
  params.thresholds[Functionality::kAes128] = 10;
  auto m = bench.manager(params);
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    EXPECT_EQ(ask(*m, p, Functionality::kAes128, 9).record.decision, "software");
    const auto r = ask(*m, p, Functionality::kAes128, 10).record;
    EXPECT_EQ(r.decision, "hardware");
    EXPECT_EQ(r.reason.rfind("threshold: 10 >= 10 blocks", 0), 0u) << r.reason;
    EXPECT_EQ(ask(*m, p, Functionality::kDes, 50).record.decision, "software");  // no threshold set for des
  });
  sc_core::sc_start();
}

namespace {
// A cost model for the bench: software 20 us per AES block; hardware 1 us per block after 100 us of
// reconfiguration. Crossover: 100 + n < 20 n  ->  n >= 6.
runtime::CostModel bench_model() {
  runtime::CostModelParams p;
  p.cpu_hz = 100e6;
  p.software[Functionality::kAes128] = {0, 2000};
  p.hardware[Functionality::kAes128] = {0.0, 1e-6};
  p.reconfiguration_s[Functionality::kAes128] = 100e-6;
  return runtime::CostModel(p);
}
}  // namespace

TEST(RuntimeManager, CostModelPolicyCountsReconfigurationOnlyWhenTheCoreIsNotResident) {
  Bench bench(1);
  const runtime::CostModel model = bench_model();
  EXPECT_EQ(model.crossover_blocks(Functionality::kAes128, 100), 6u);
  auto params = bench.params(runtime::PolicyKind::kCostModel);
  params.software[Functionality::kAes128] = {0, 2000};
  auto m = bench.manager(params, &model);
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    EXPECT_EQ(ask(*m, p, Functionality::kAes128, 5).record.decision, "software");  // 100 us vs 105 us
    const auto r = ask(*m, p, Functionality::kAes128, 6).record;                   // 120 us vs 106 us
    EXPECT_EQ(r.decision, "hardware");
    EXPECT_EQ(r.reason,
              "cost model: software 0.120 ms vs hardware 0.106 ms (reconfiguration 0.100 ms); "
              "configuring empty slot0");
    EXPECT_EQ(ask(*m, p, Functionality::kAes128, 1).record.decision, "hardware");  // resident: 20 us vs 1 us
  });
  sc_core::sc_start();
}

TEST(RuntimeManager, AdaptivePolicyLearnsThenDecidesLikeTheCostModel) {
  // The bench's real costs: software 1000 + 2000 n cycles; hardware whatever the models do. The adaptive
  // policy explores (2 software, 2 hardware requests), then its decisions equal a cost model fitted to the
  // same truth.
  Bench bench(1);
  auto params = bench.params(runtime::PolicyKind::kAdaptive);
  auto m = bench.manager(params);
  std::vector<std::string> decisions;
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    for (std::uint64_t n : {3, 40, 3, 40, 1, 2, 60, 200}) {
      const auto r = ask(*m, p, Functionality::kAes128, n).record;
      decisions.push_back(r.decision + ":" + r.reason.substr(0, r.reason.find(':')));
    }
  });
  sc_core::sc_start();
  ASSERT_EQ(decisions.size(), 8u);
  EXPECT_EQ(decisions[0], "software:adaptive");
  EXPECT_EQ(decisions[1], "software:adaptive");
  EXPECT_EQ(decisions[2], "hardware:adaptive");
  EXPECT_EQ(decisions[3], "hardware:adaptive");
  // Learned: software 20 us/block + 10 us; the core is resident, hardware is a few us per block: hardware
  // wins from 1 block on (resident). Same verdict as a model that knows the parameters.
  for (std::size_t i = 4; i < decisions.size(); ++i) EXPECT_EQ(decisions[i], "hardware:adaptive") << i;
}

TEST(RuntimeSlotTable, LruFifoAndLfuChooseDifferentVictims) {
  // Two slots. Designs A=0, B=1, C=2. Sequence: A (slot0), B (slot1), A (hit, slot0), A (hit), then C must
  // evict.
  auto victim = [](runtime::Replacement r) {
    runtime::SlotTable t({{true, 100}, {true, 100}}, r);
    auto run = [&](int design) {
      const auto c = t.choose(design, 10, true);
      t.start(c->slot, design, c->configure);
      t.finish(c->slot, true);
      return c;
    };
    run(0);
    run(1);
    run(0);
    run(0);
    return run(2)->evicted;
  };
  EXPECT_EQ(victim(runtime::Replacement::kLru), 1);   // B was used least recently
  EXPECT_EQ(victim(runtime::Replacement::kFifo), 0);  // A was loaded first
  EXPECT_EQ(victim(runtime::Replacement::kLfu), 1);   // B was used once, A three times
  // LFU and LRU part: A (0), B (1), B, B, A -> LRU evicts B? no: B used before the last A -> LRU evicts B;
  // LFU evicts A (used twice vs three times).
  auto victim2 = [](runtime::Replacement r) {
    runtime::SlotTable t({{true, 100}, {true, 100}}, r);
    for (int d : {0, 1, 1, 1, 0}) {
      const auto c = t.choose(d, 10, true);
      t.start(c->slot, d, c->configure);
      t.finish(c->slot, true);
    }
    return t.choose(2, 10, true)->evicted;
  };
  EXPECT_EQ(victim2(runtime::Replacement::kLru), 1);
  EXPECT_EQ(victim2(runtime::Replacement::kLfu), 0);
}

TEST(RuntimeSlotTable, InUseSlotsAreNeverChosenAndBigBitstreamsDoNotFit) {
  runtime::SlotTable t({{true, 100}, {true, 50}}, runtime::Replacement::kLru);
  t.start(0, 0, true);                              // A in slot0, in use
  EXPECT_FALSE(t.choose(1, 80, true).has_value());  // slot1 too small, slot0 in use
  const auto c = t.choose(1, 40, true);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->slot, 1u);
  t.start(1, 1, true);
  EXPECT_FALSE(t.choose(2, 10, true).has_value());  // both in use: nobody is evicted
  t.finish(0, true);
  EXPECT_EQ(t.choose(2, 10, true)->evicted, 0);
}

// A configuration that stops half way (the bitstream in memory is cut short: the port still waits for words
// when the copy ends) is aborted by the driver: the request fails with the reason, the slot is left empty and
// not counted as holding the core, and the next request configures it again and runs on it.
TEST(RuntimeManager, AnAbortedConfigurationLeavesTheSlotEmptyAndTheNextRequestConfiguresAgain) {
  Bench bench(1);
  const runtime::CoreDesign& aes = bench.designs[0];
  const auto whole = models::make_bitstream(aes.id, aes.bitstream_bytes);
  const auto longer = models::make_bitstream(aes.id, aes.bitstream_bytes * 2);  // its header asks for twice
  bench.ddr.load(aes.bitstream_address, longer.data(), aes.bitstream_bytes);
  auto m = bench.manager(bench.params(runtime::PolicyKind::kHardware));
  auto sw = bench.manager(bench.params(runtime::PolicyKind::kSoftware));
  models::SlotState after_abort = models::SlotState::kBusy;
  std::vector<std::uint8_t> output, expected;
  bench.sched0.spawn("app", 10, [&](runtime::Process& p) {
    ask(*m, p, Functionality::kAes128, 2);
    after_abort = bench.slots[0]->state_at(sc_core::sc_time_stamp());
    bench.ddr.load(aes.bitstream_address, whole.data(), whole.size());  // the bitstream repaired
    output = ask(*m, p, Functionality::kAes128, 2, 7).output;
    expected = ask(*sw, p, Functionality::kAes128, 2, 7).output;
  });
  sc_core::sc_start();
  ASSERT_EQ(bench.log.size(), 3u);
  EXPECT_FALSE(bench.log[0].ok);
  EXPECT_EQ(bench.log[0].error, "configuration port still busy: bitstream incomplete");
  EXPECT_EQ(after_abort, models::SlotState::kEmpty);
  ASSERT_EQ(bench.port->records().size(), 2u);
  EXPECT_FALSE(bench.port->records()[0].ok);
  EXPECT_EQ(bench.port->records()[0].error, "configuration aborted");
  EXPECT_TRUE(bench.log[1].ok) << bench.log[1].error;
  EXPECT_TRUE(bench.log[1].reconfigured) << bench.log[1].reason;
  EXPECT_EQ(bench.log[1].slot, "slot0");
  EXPECT_TRUE(bench.port->records()[1].ok);
  EXPECT_EQ(bench.log[2].decision, "software");
  EXPECT_EQ(output, expected);
  EXPECT_EQ(m->slots().cache_misses(), 2u);
}

// What the recovery may act on: faults of the platform (an error response, a device's failure, the
// watchdog), never a mistake of the scenario, which fails the request with its message.
TEST(RuntimeManager, OnlyFaultsOfThePlatformAreRecoverable) {
  EXPECT_TRUE(runtime::recoverable(models::BusError("x", 0, tlm::TLM_GENERIC_ERROR_RESPONSE)));
  EXPECT_FALSE(runtime::recoverable(models::BusError("x", 0, tlm::TLM_ADDRESS_ERROR_RESPONSE)));
  EXPECT_FALSE(runtime::recoverable(models::BusError("x", 0, tlm::TLM_COMMAND_ERROR_RESPONSE)));
  EXPECT_TRUE(runtime::recoverable(runtime::DeviceFault("DMA transfer failed")));
  EXPECT_TRUE(runtime::recoverable(runtime::DriverTimeout("watchdog")));
  EXPECT_FALSE(runtime::recoverable(runtime::DriverError("the buffer is not writable memory")));
  EXPECT_FALSE(runtime::recoverable(std::overflow_error("a duration past 2^57 ps")));
}

TEST(RuntimeSlotTable, OfSeveralResidentCopiesTheOneHoldingTheRequestersContextIsChosen) {
  // Three slots with design A, all idle: without a context to prefer, the first; with one, the slot that
  // holds it (runtime/process_contexts.h); when none does, the first again.
  runtime::SlotTable t({{false, 100}, {false, 100}, {false, 100}}, runtime::Replacement::kLru);
  for (std::size_t s = 0; s < 3; ++s) {
    t.start(s, 0, true);
    t.finish(s, true);
  }
  EXPECT_EQ(t.choose(0, 10, false)->slot, 0u);
  EXPECT_EQ(t.choose(0, 10, false, [](std::size_t s) { return s == 2; })->slot, 2u);
  EXPECT_FALSE(t.choose(0, 10, false, [](std::size_t s) { return s == 2; })->configure);
  EXPECT_EQ(t.choose(0, 10, false, [](std::size_t) { return false; })->slot, 0u);
  t.start(2, 0, false);  // in use: never chosen, whoever's context it holds
  EXPECT_EQ(t.choose(0, 10, false, [](std::size_t s) { return s == 2; })->slot, 0u);
}
