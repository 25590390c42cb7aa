// The Cell reference (scenarios/cell_rsa4096.json): a verify is m^e mod n, on an SPU and on the PPU alike
// (checked against OpenSSL's BN_mod_exp), with the core told the exponent's real length; its software cost is
// the counted fraction of the calibrated sign's; processes that run for the same time are measured as
// `openssl speed -multi` measures them. Each test is its own process (CTest): one elaboration each.
#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>

#include "models/ip_core.h"
#include "models/modexp_core.h"
#include "platform/reproduce.h"
#include "platform/scenario.h"
#include "platform/session.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;
using runtime::Functionality;
namespace fs = std::filesystem;

namespace {

const std::string kCell = std::string(rsoc_test::kSourceDir) + "/scenarios/cell_rsa4096.json";

platform::Scenario cell(std::vector<std::string> overrides) {
  platform::LoadOptions options;
  options.overrides = std::move(overrides);
  return platform::load_scenario_file(kCell, options);
}

// The scenario's verify entry alone, `count` processes of it; `extra` is added to the entry's JSON.
// (pinned as the shipped scenario's entries are: the copies take the PPU's two threads in turn)
std::string verify_only(unsigned count, const std::string& extra) {
  return "workload.apps=[{\"name\":\"verify\",\"functionality\":\"rsa4096_verify\",\"blocks\":1,\"hw_"
         "thread\":0,"
         "\"count\":" +
         std::to_string(count) + extra + "}]";
}

// m^e mod n by OpenSSL, big-endian and `bytes` long.
std::vector<std::uint8_t> openssl_modexp(const std::uint8_t* m, const std::vector<std::uint8_t>& key,
                                         std::size_t bytes) {
  using Bn = std::unique_ptr<BIGNUM, decltype(&BN_free)>;
  std::unique_ptr<BN_CTX, decltype(&BN_CTX_free)> ctx(BN_CTX_new(), BN_CTX_free);
  Bn base(BN_bin2bn(m, static_cast<int>(bytes), nullptr), BN_free);
  Bn n(BN_bin2bn(key.data(), static_cast<int>(bytes), nullptr), BN_free);
  Bn e(BN_bin2bn(key.data() + bytes, static_cast<int>(key.size() - bytes), nullptr), BN_free);
  Bn r(BN_new(), BN_free);
  std::vector<std::uint8_t> out(bytes);
  if (!ctx || !base || !n || !e || !r || BN_mod_exp(r.get(), base.get(), e.get(), n.get(), ctx.get()) != 1 ||
      BN_bn2binpad(r.get(), out.data(), static_cast<int>(bytes)) != static_cast<int>(bytes))
    ADD_FAILURE() << "OpenSSL BN_mod_exp failed";
  return out;
}

// 15 processes of the verify entry (`extra` added to it) verifying in software: the sum of their rates as
// openssl speed reports it (platform::speed_rates), over what the PPU's two threads do together.
double software_verify_rate_over_capacity(const std::string& extra, const std::string& folder) {
  const auto scenario = cell({"runtime.policy=software", verify_only(15, extra)});
  const fs::path out = fs::path(::testing::TempDir()) / folder;
  fs::remove_all(out);
  EXPECT_EQ(platform::run_session(scenario, out).failed, 0u);
  const auto& cpu = scenario.params.cpus.at(0).params;
  const double cycles = static_cast<double>(
      scenario.params.runtime.software.at(Functionality::kRsaVerify4096).cycles_per_block);
  const double rate = platform::speed_rates(out / "requests.csv").at("rsa4096_verify");
  return rate * cpu.clock_period.to_seconds() * cycles / cpu.smt_throughput;
}

}  // namespace

TEST(Cell, AVerifyIsMToTheEModNOnAnSpuAndOnThePpu) {
  const auto scenario = cell({verify_only(1, "")});
  const Functionality f = Functionality::kRsaVerify4096;
  const std::vector<std::uint8_t> key = platform::key_of(scenario.params.apps.at(0));  // n, then e
  ASSERT_EQ(key.size(), 516u);
  EXPECT_EQ(crypto::BigInt::from_bytes_be(key.data() + 512, 4), crypto::BigInt(65537));
  std::vector<std::uint8_t> data(3 * 512);
  std::mt19937_64 rng(5);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  runtime::shape_data(f, data);

  platform::Simulation sim(scenario.params, nullptr);
  runtime::RequestOutcome spu, ppu;
  sim.scheduler().spawn("probe", 10, [&](runtime::Process& p) {
    spu = sim.manager().request(p, "probe", f, key, data, true, std::nullopt, true);
    ppu = sim.manager().request(p, "probe", f, key, data, true, std::nullopt, false);
    sim.finish();
  });
  sim.run();
  ASSERT_TRUE(spu.record.ok) << spu.record.error;
  ASSERT_TRUE(ppu.record.ok) << ppu.record.error;
  EXPECT_EQ(spu.record.decision, "hardware");
  EXPECT_EQ(ppu.record.decision, "software");
  for (std::size_t at = 0; at < data.size(); at += 512) {
    const auto expect = openssl_modexp(&data[at], key, 512);
    EXPECT_TRUE(std::equal(expect.begin(), expect.end(), spu.output.begin() + static_cast<long>(at))) << at;
    EXPECT_TRUE(std::equal(expect.begin(), expect.end(), ppu.output.begin() + static_cast<long>(at))) << at;
  }
  // The SPU was told the exponent's 17 bits: three exponentiations of 19 Montgomery steps at 4096 bits (with
  // a 32-bit exponent they would take 34 steps each), plus the key words and the DMA transfers (< 2 %).
  const models::CoreParams& core = scenario.params.cores.at(0).params;
  const double steps_s =
      3 * core.clock_period.to_seconds() * static_cast<double>(models::modexp_cycles(core, 4096, 17));
  const double exec_s = static_cast<double>(spu.record.exec_ps) * 1e-12;
  EXPECT_GT(exec_s, steps_s);
  EXPECT_LT(exec_s, steps_s * 1.02);
}

TEST(Cell, TheVerifysSoftwareCostIsTheCountedFractionOfTheSigns) {
  // OpenSSL 0.9.8: a verify is 20 Montgomery multiplications at 4096 bits (80 units of 2048 bits), a sign
  // 5,003 units (runtime/rsa_work.h). The verify's cycles follow from the calibrated sign's.
  const auto scenario = cell({verify_only(1, "")});
  const auto& software = scenario.params.runtime.software;
  const double sign = static_cast<double>(software.at(Functionality::kRsaCrt4096).cycles_per_block);
  EXPECT_EQ(software.at(Functionality::kRsaVerify4096).cycles_per_block,
            static_cast<std::uint64_t>(std::llround(sign * 80 / 5003)));
  EXPECT_EQ(software.at(Functionality::kRsaVerify4096).cycles_per_request, 0u);
}

TEST(Cell, ProcessesVerifyingForTheSameTimeShareThePpuAtItsSmtThroughput) {
  // 15 processes verify in software for 3 s from 50 ms on, 8 on one hardware thread and 7 on the other: as
  // openssl speed measures them (each over its own window from its first issue, summed), together they do
  // what both threads do, smt_throughput times one thread's verifications.
  EXPECT_NEAR(software_verify_rate_over_capacity(R"(,"requests":1000000,"duration_ms":3000,"start_us":50000)",
                                                 "cell_window"),
              1, 0.005);
}

TEST(Cell, AFixedCountPerProcessOverstatesTheSharedRate) {
  // The same 15 processes with 60 verifications each instead of a fixed time: the 7 sharing a thread finish
  // first, the other 8 then have the whole core; each measured over its own run, their sum overstates what
  // the two threads do together (by 4 %).
  EXPECT_GT(software_verify_rate_over_capacity(R"(,"requests":60)", "cell_fixed_count"), 1.02);
}

TEST(Cell, EachProcessSetsUpItsFirstUseOnceAndOneAtATime) {
  // Two unpinned processes sign twice each from t = 0, one on each PPU thread; a first use costs 10 ms of
  // the PPU, one process at a time: the second waits the first's 10 ms (computed alone on the core), and
  // neither pays it again. (Without serialising, no wait: the stat would be 0.)
  const std::vector<std::string> overrides = {
      "runtime.contexts.first_use_cycles=32000000",
      R"(workload.apps=[{"name":"sign","functionality":"rsa4096_crt","blocks":1,"requests":2,"count":2}])"};
  const auto run = test::run_scenario(kCell, overrides);
  EXPECT_EQ(test::stat(run.stats, "manager", "first_uses"), 2);
  // 10 ms and the few microseconds before the waiter runs again (scheduler switches, the quantum)
  EXPECT_NEAR(test::stat(run.stats, "manager", "first_use_wait_ms"), 10, 0.05);
  EXPECT_GE(test::stat(run.stats, "manager", "first_use_wait_ms"), 10);
}

TEST(Cell, AProcessFindingAnotherProcesssContextOnItsSpuSwitchesItFirst) {
  // One SPU; "a" signs twice, then "b" once, then "c" (a process of its own) once: the SPU loads a's context
  // (the first it serves), keeps it for a's second signature, and switches to b's and c's: three switches of
  // 2 ms each, charged to the requests that needed them.
  const auto run = test::run_scenario(
      kCell, {"platform.slots.0.count=1", "platform.dmas.0.count=1", "runtime.contexts.switch_us=2000",
              R"(workload.apps=[{"name":"a","functionality":"rsa4096_crt","blocks":1,"requests":2},
                                {"name":"b","functionality":"rsa4096_crt","blocks":1,"after":"a"},
                                {"name":"c","functionality":"rsa4096_crt","blocks":1,"after":"b"}])"});
  EXPECT_EQ(test::stat(run.stats, "manager", "context_switches"), 3);
  EXPECT_NEAR(test::stat(run.stats, "manager", "context_switch_ms"), 6, 1e-9);
  // The kernel switches on the caller's PPU thread, busy on the device: the threads' device time holds the
  // 6 ms (asleep instead, it would hold the driver's accesses alone, about 0.01 ms).
  const double io_ms =
      test::stat(run.stats, "ppu.thread0", "io_ms") + test::stat(run.stats, "ppu.thread1", "io_ms");
  EXPECT_GE(io_ms, 6);
  EXPECT_LT(io_ms, 6.5);
  std::map<std::string, std::vector<std::uint64_t>> reconfig_ps;
  for (const auto& r : run.records) reconfig_ps[r.app].push_back(r.reconfig_ps);
  const std::uint64_t two_ms = 2'000'000'000;
  EXPECT_EQ(reconfig_ps["a"], (std::vector<std::uint64_t>{two_ms, 0}));
  EXPECT_EQ(reconfig_ps["b"], (std::vector<std::uint64_t>{two_ms}));
  EXPECT_EQ(reconfig_ps["c"], (std::vector<std::uint64_t>{two_ms}));
}

TEST(Cell, TheWarmUpRequestRunsBeforeTheClockStarts) {
  // One process, warm-up 1, 300 ms: the warm-up signature (98 ms and the first use), then signatures for
  // 300 ms counted from the first after it: issued at 0, 98, 196 and 294 ms of that clock: 5 in all (4
  // when the 300 ms counted from the warm-up).
  const auto run = test::run_scenario(
      kCell, {R"(workload.apps=[{"name":"sign","functionality":"rsa4096_crt","blocks":1,"requests":100,
                                 "duration_ms":300,"warmup_requests":1}])"});
  EXPECT_EQ(run.records.size(), 5u);
}

TEST(Cell, OpenSslSpeedsRateLeavesTheWarmUpOut) {
  // A process's warm-up from 0 to 500 ms, then 10 operations from 500 to 1,500 ms: 10/s measured as
  // openssl speed measures (the clock starts after the warm-up), 7.33/s with the warm-up counted.
  const fs::path dir = fs::path(::testing::TempDir()) / "cell_speed_rates";
  fs::create_directories(dir);
  {
    std::ofstream csv(dir / "requests.csv");
    csv << "app,functionality,ok,end_ms,latency_ms\n";
    csv << "p,f,true,500,500\n";
    for (int i = 1; i <= 10; ++i) csv << "p,f,true," << 500 + 100 * i << ",100\n";
  }
  EXPECT_NEAR(platform::speed_rates(dir / "requests.csv", {{"p", 1}}).at("f"), 10, 1e-9);
  EXPECT_NEAR(platform::speed_rates(dir / "requests.csv").at("f"), 11 / 1.5, 1e-9);
}

TEST(ScenarioCell, TheMeasurementsAndContextsKeysAreChecked) {
  const auto issues = [](std::vector<std::string> overrides) {
    return test::load_issues(kCell, std::move(overrides));
  };
  EXPECT_EQ(issues({"workload.apps.0.warmup_requests=1000000"}),
            (std::vector<std::string>{"/workload/apps/0/warmup_requests: 1000000 of 1000000 requests would "
                                      "leave none measured; expected fewer than requests"}));
  EXPECT_EQ(issues({"runtime.contexts.per_process=false"}),
            (std::vector<std::string>{"/runtime/contexts/switch_us: a switch time without per-process "
                                      "contexts does nothing; expected per_process true, or 0"}));
  EXPECT_EQ(issues({"platform.cpus.0.smt_throughput=0"}),
            (std::vector<std::string>{"/software/rsa4096_verify/smt_throughput: no CPU has hardware "
                                      "threads sharing a core (expected a CPU with hw_threads > 1 and "
                                      "smt_throughput > 0, or null here)"}));
}

TEST(Cell, AProcessTakesTheIdleSpuThatHoldsItsContext) {
  // Two SPUs: "b" signs once from 0 (spu0 loads its context), "a" from 1 ms (spu1 loads a's), then a thinks
  // 200 ms and signs again with both SPUs idle: it takes spu1, which holds its context, not the first idle
  // one (spu0, b's): two loads and no switch (three, taking the first).
  const auto run = test::run_scenario(
      kCell, {"platform.slots.0.count=2", "platform.dmas.0.count=2",
              R"(workload.apps=[{"name":"b","functionality":"rsa4096_crt","blocks":1},
                                {"name":"a","functionality":"rsa4096_crt","blocks":1,"requests":2,
                                 "start_us":1000,"think_us":200000}])"});
  EXPECT_EQ(test::stat(run.stats, "manager", "context_switches"), 2);
  std::vector<std::string> a_slots;
  for (const auto& r : run.records)
    if (r.app == "a") a_slots.push_back(r.slot);
  EXPECT_EQ(a_slots, (std::vector<std::string>{"spu1", "spu1"}));
}
