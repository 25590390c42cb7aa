// The HSM reference (scenarios/hsm_rsa2048.json): real RSA-2048 signatures that OpenSSL verifies, the
// firmware's operation counts, the calibrated single-client rate, and each behaviour of the firmware's code
// (libhal and the stm32 firmware of May 2018) with a test that fails without it.
#include "platform/hsm.h"

#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "platform/reproduce.h"
#include "platform/scenario.h"
#include "platform/session.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

using namespace rsoc;

namespace {

const std::string kHsm = std::string(rsoc_test::kSourceDir) + "/scenarios/hsm_rsa2048.json";

platform::Scenario hsm(std::vector<std::string> overrides) {
  platform::LoadOptions options;
  options.overrides = std::move(overrides);
  return platform::load_scenario_file(kHsm, options);
}

// RSA PKCS#1 v1.5 with SHA-256, verified by OpenSSL with the public key (n, e).
bool openssl_verifies(const crypto::RsaKey& key, const runtime::HsmFirmware::Signature& s) {
  const auto n = key.n.to_bytes_be((key.n.bit_length() + 7) / 8);
  const auto e = key.e.to_bytes_be((key.e.bit_length() + 7) / 8);
  BIGNUM* bn_n = BN_bin2bn(n.data(), static_cast<int>(n.size()), nullptr);
  BIGNUM* bn_e = BN_bin2bn(e.data(), static_cast<int>(e.size()), nullptr);
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e);
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* from = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  EVP_PKEY* pkey = nullptr;
  EVP_PKEY_fromdata_init(from);
  EVP_PKEY_fromdata(from, &pkey, EVP_PKEY_PUBLIC_KEY, params);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(pkey, nullptr);
  const bool ok =
      EVP_PKEY_verify_init(ctx) == 1 && EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1 &&
      EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) == 1 &&
      EVP_PKEY_verify(ctx, s.signature.data(), s.signature.size(), s.digest.data(), s.digest.size()) == 1;
  EVP_PKEY_CTX_free(ctx);
  EVP_PKEY_free(pkey);
  EVP_PKEY_CTX_free(from);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  BN_free(bn_n);
  BN_free(bn_e);
  return ok;
}

// The cores' work, per slot lane: which operations each core did, in time order.
class CoreWork : public models::ActivitySink {
 public:
  struct Span {
    models::Lane lane;
    std::uint64_t start, end;
  };
  std::vector<Span> spans;
  std::vector<Span> runs;  // processes on the CPU: from taking it to leaving it
  void core_work(models::Lane slot, const char*, std::uint64_t start, std::uint64_t end) override {
    spans.push_back({slot, start, end});
  }
  void bus_transfer(models::Lane, std::uint64_t, std::uint64_t, std::uint64_t, models::BurstRef,
                    std::uint64_t) override {}
  void configuration_began(models::Lane, std::uint64_t) override {}
  void configuration_ended(models::Lane, std::uint64_t, const std::string*) override {}
  void port_configuration(models::Lane, const std::string&, std::uint64_t, std::uint64_t, std::uint64_t,
                          bool) override {}
  void dma_transfer(models::Lane, std::uint64_t, std::uint64_t, std::uint64_t, const std::string&,
                    bool) override {}
  void process_ran(models::Lane cpu, const std::string&, std::uint64_t start, std::uint64_t end) override {
    runs.push_back({cpu, start, end});
  }
  void fault(models::Lane, const char*, std::uint64_t) override {}
};

struct HsmRun {
  std::vector<runtime::RequestRecord> records;
  std::vector<runtime::HsmFirmware::Signature> signatures;
  std::vector<analysis::StatGroup> stats;
  std::vector<models::LaneInfo> lanes;
  CoreWork work;
  crypto::RsaKey key;
  double end_ms = 0;
  double per_signature(const std::string& resource, const std::string& name) const {
    return rsoc::test::stat(stats, resource, name) / static_cast<double>(records.size());
  }
  // A statistic summed over the slots whose names start with `prefix` ("slot.aes").
  double over_slots(const std::string& prefix, const std::string& name) const {
    double sum = 0;
    for (const auto& g : stats)
      if (g.resource.rfind(prefix, 0) == 0)
        for (const auto& s : g.stats)
          if (s.name == name) sum += s.value;
    return sum;
  }
};

std::unique_ptr<HsmRun> run(const platform::Scenario& scenario) {
  auto r = std::make_unique<HsmRun>();
  platform::Simulation sim(scenario.params,
                           [&](const runtime::RequestRecord& rec) { r->records.push_back(rec); });
  sim.hsm()->on_signature([&](const runtime::HsmFirmware::Signature& s) { r->signatures.push_back(s); });
  r->lanes = sim.activity_lanes();
  sim.set_activity(&r->work);
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  r->end_ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
  r->stats = sim.stats(r->end_ms);
  r->key = sim.hsm()->key();
  return r;
}

using rsoc::test::stat;

double latency_ms(const runtime::RequestRecord& r) {
  return static_cast<double>(r.end_ps - r.issue_ps) / 1e9;
}

}  // namespace

TEST(Hsm, SignaturesAreRealRsa2048ThatOpenSslVerifies) {
  const auto r = run(hsm({"workload.hsm.clients=2", "workload.hsm.signatures_per_client=3"}));
  ASSERT_EQ(r->signatures.size(), 6u);
  EXPECT_EQ(r->key.n.bit_length(), 2048u);
  for (const auto& s : r->signatures) {
    EXPECT_EQ(s.signature.size(), 256u);
    EXPECT_TRUE(openssl_verifies(r->key, s));
  }
  // A tampered signature does not verify: the check can fail.
  auto bad = r->signatures.front();
  bad.signature[100] ^= 1;
  EXPECT_FALSE(openssl_verifies(r->key, bad));
  for (const auto& rec : r->records) {
    EXPECT_TRUE(rec.ok) << rec.error;
    EXPECT_TRUE(rec.verified);
    EXPECT_EQ(rec.breakdown.total(), rec.end_ps - rec.issue_ps);  // where the time went sums to the latency
  }
  // Every signature unwrapped the 2,258-byte key record on an AES core: the 256-bit KEK (8 words), CONFIG
  // and INIT, then 283 semiblocks x 6 operations, each 4 data words and CTRL written, the status read and 4
  // words read (twice: the FMC reads everything twice) (derived in scenarios/hsm_rsa2048.md, "The published
  // system").
  EXPECT_EQ(stat(r->stats, "hsm", "aes_block_operations"), 6 * 1698.0);
  EXPECT_EQ(r->over_slots("slot.aes", "words_written"), 6 * (10 + 1698 * 5.0));
  EXPECT_EQ(r->over_slots("slot.aes", "words_read") - r->over_slots("slot.aes", "status_reads"),
            2 * 6 * 1698 * 4.0);
  // Each CRT half is uploaded as Cryptech's hal_modexp2 does: 261 word writes, 33 reads besides the polls;
  // the first signature also made fresh blinding factors: r^e mod n on one core (MODULUS_WORDS, 64 modulus
  // words, CONFIG, 64 message words, the exponent word, EXPONENT_BITS, CTRL twice: 134 writes; BUFFER_BITS
  // and 64 result words: 65 reads).
  EXPECT_EQ(stat(r->stats, "hsm", "blinding_misses"), 1.0);
  EXPECT_EQ(r->over_slots("slot.modexp", "words_written"), 2 * 6 * 261.0 + 134);
  EXPECT_EQ(r->over_slots("slot.modexp", "words_read") - r->over_slots("slot.modexp", "status_reads"),
            2 * (2 * 6 * 33.0 + 65));
}

TEST(Hsm, OneClientSignsThePublishedRate) {
  // The calibration (scenarios/hsm_rsa2048.md): 5.68 signatures per second, 176 ms each, with one client.
  const auto r = run(hsm({"workload.hsm.signatures_per_client=40"}));
  ASSERT_EQ(r->records.size(), 40u);
  EXPECT_NEAR(40 / (r->end_ms / 1e3), 5.68, 5.68 * 0.01);
  // Alone, a task finds every core free: one attempt per core (the AES core, the pair) and per signature.
  EXPECT_EQ(stat(r->stats, "hsm", "core_alloc_attempts"), 2 * 40.0 + 1);  // + the miss's modexp core
  // The two CRT halves ran at the same time on two cores, each ModExpA7 with 4 processing elements at 50 MHz
  // (models/modexp_core.h, n = 32 words, E = 1024 bits): M = 5 * 32 * (8 + 6) + 6 * 32 + 3 * 8 + 29 = 2,485,
  // E (M + 2n + 8) + 3M + 6n + 25 = 2,626,040 cycles; the first signature's r^e mod n (n = 64, E = 32):
  // M = 5 * 64 * 22 + 384 + 48 + 29 = 7,501, 32 * 7,637 + 2 * 7,501 + 384 + 25 = 259,795 cycles.
  EXPECT_NEAR(r->over_slots("slot.modexp", "core_busy_ms"), 2 * 40 * 2626040 / 50e3 + 259795 / 50e3,
              1e-6);
}

TEST(Hsm, ClientsMeasureFromTheirCallToTheAnswerHostPartIncluded) {
  // tests/parallel-signatures.py: no think time; each signature timed around the sign call. The next call
  // follows the answer at once, and the host's part is inside the latency.
  const auto r = run(hsm({"workload.hsm.signatures_per_client=5", "workload.hsm.host_jitter=0"}));
  ASSERT_EQ(r->records.size(), 5u);
  for (std::size_t i = 1; i < r->records.size(); ++i)
    EXPECT_EQ(r->records[i].issue_ps, r->records[i - 1].end_ps);
  for (const auto& rec : r->records) {
    EXPECT_EQ(rec.breakdown[runtime::TimeUse::kHost], 20'000'000'000u);  // 20 ms
    // The request on the line: 80 bytes at 921,600 baud, 10 bits each.
    EXPECT_NEAR(static_cast<double>(rec.breakdown[runtime::TimeUse::kBusTransfer]), 80 * 10 / 921600.0 * 1e12,
                1e3);
  }
}

TEST(Hsm, CoresAreHandedOutLeastRecentlyUsedFirst) {
  // hal_core_alloc: any free core of the kind, the least recently used first; the pair takes the two least
  // recently used. One client: the AES cores in turn, the modexp cores two by two (the first signature's
  // fresh blinding factors took modexp0).
  const auto r = run(hsm({"workload.hsm.signatures_per_client=6"}));
  const char* aes[] = {"aes0", "aes1", "aes2", "aes3", "aes0", "aes1"};
  const char* pairs[] = {"modexp1 and modexp2", "modexp3 and modexp4", "modexp5 and modexp6",
                         "modexp7 and modexp0", "modexp1 and modexp2", "modexp3 and modexp4"};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_NE(r->records[i].reason.find(std::string("key unwrapped on ") + aes[i]), std::string::npos)
        << r->records[i].reason;
    EXPECT_NE(r->records[i].reason.find(std::string("CRT halves on ") + pairs[i]), std::string::npos)
        << r->records[i].reason;
  }
}

TEST(Hsm, AYieldComesBeforeEveryStatusReadTheFirstIncludedAndWhenACoreIsFreed) {
  // hal_io_wait yields before every status read. With AES cores that finish at once, every block's first
  // status read finds the core ready, and still costs a yield: at 100,000 cycles a yield, a signature takes
  // at least 1,698 yields longer than its 176 ms.
  const auto r = run(hsm({"platform.cores.0.block_cycles=0", "platform.cores.0.key_setup_cycles=0",
                          "workload.hsm.signatures_per_client=2", "workload.hsm.host_jitter=0",
                          "runtime.scheduler.yield_cycles=100000"}));
  EXPECT_GE(latency_ms(r->records[1]), 176 + 1698 * 100000 / 180e3);
  // Exactly: a yield per round of status reads (one per AES block; a round of the pair reads each core not
  // done yet), and one per freed core (hal_core_free: the AES core and the pair), for each signature; the
  // first signature's fresh blinding factors (on modexp0; its pair on modexp1 and 2, the second's on 3 and 4)
  // add a core's wait and its free.
  const auto reads = [&](const char* slot) {
    return stat(r->stats, slot, "status_reads") / 2;
  };  // FMC: twice
  const double rounds = reads("slot.modexp0") + std::max(reads("slot.modexp1"), reads("slot.modexp2")) +
                        std::max(reads("slot.modexp3"), reads("slot.modexp4"));
  EXPECT_EQ(stat(r->stats, "scheduler.arm.thread0", "yields"), 2 * 1698 + rounds + 2 * 3 + 1);
}

TEST(Hsm, BothCoresOfThePairAreReadInEachRound) {
  // hal_io_wait2: each round reads the status of every core of the pair not done yet. The halves take the
  // same time, so both cores answer (nearly) the same number of status reads; waiting for one core after the
  // other would read the second once.
  const auto r = run(hsm({"workload.hsm.signatures_per_client=3"}));
  std::map<std::string, double> reads;
  for (const auto& g : r->stats)
    if (g.resource.rfind("slot.modexp", 0) == 0)
      for (const auto& s : g.stats)
        if (s.name == "status_reads" && s.value > 0) reads[g.resource] = s.value;
  // Signatures 2 and 3 used modexp3/4 and modexp5/6 (LRU); each core's reads are those of one wait.
  // (The first core starts its half first and finishes a few rounds before the second.)
  ASSERT_TRUE(reads.count("slot.modexp3") && reads.count("slot.modexp4"));
  EXPECT_GT(reads["slot.modexp3"], 1000);
  for (const auto& [first, second] :
       {std::pair{"slot.modexp3", "slot.modexp4"}, {"slot.modexp5", "slot.modexp6"}}) {
    EXPECT_GE(reads[second], reads[first]);
    EXPECT_GT(reads[first], 0.99 * reads[second]);
  }
}

TEST(Hsm, TheKeystoreLockIsReleasedBeforeTheUnwrapSoUnwrapsRunInParallel) {
  // ks.c (May 2018): the lock covers the copy of the wrapped key only, so several tasks unwrap at once, each
  // on its own AES core. With 4 clients the AES cores' blocks interleave: the work moves from one core to
  // another thousands of times per signature (a lock held through the unwrap would give one run of 1,698
  // blocks per signature).
  const auto r = run(hsm({"workload.hsm.clients=4", "workload.hsm.signatures_per_client=3"}));
  std::vector<models::Lane> aes;
  for (models::Lane l = 0; l < r->lanes.size(); ++l)
    if (r->lanes[l].kind == models::LaneKind::kSlot && r->lanes[l].name.rfind("aes", 0) == 0)
      aes.push_back(l);
  std::vector<CoreWork::Span> blocks;
  for (const auto& s : r->work.spans)
    if (std::find(aes.begin(), aes.end(), s.lane) != aes.end()) blocks.push_back(s);
  std::sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
  ASSERT_EQ(blocks.size(), 12 * (1698 + 1));  // the blocks and each unwrap's INIT
  std::size_t moves = 0;
  for (std::size_t i = 1; i < blocks.size(); ++i) moves += blocks[i].lane != blocks[i - 1].lane;
  EXPECT_GT(moves, 12 * 1000u);
  EXPECT_EQ(stat(r->stats, "hsm", "keystore_contended"), 0.0);  // nobody yields while holding it
}

TEST(Hsm, TheResponseIsSentByPollingTheUartWithTheCpuBusy) {
  // HAL_UART_Transmit: the CPU writes each byte and polls until it is on the line. A 2,800-byte response
  // keeps the task on the CPU, stalled on the UART, for 2,800 byte times (10.85 us each): CPU I/O of the
  // request, not time on the line while the task sleeps (that part of the latency is the request's 80 bytes).
  const auto r = run(hsm({"workload.hsm.signatures_per_client=3", "workload.hsm.response_bytes=2800"}));
  const double byte_ms = 10 / 921600.0 * 1e3;
  for (const auto& rec : r->records) {
    EXPECT_GT(rec.breakdown[runtime::TimeUse::kCpuIo] / 1e9, 2800 * byte_ms);
    EXPECT_NEAR(rec.breakdown[runtime::TimeUse::kBusTransfer] / 1e9, 80 * byte_ms, 1e-6);
  }
}

TEST(Hsm, TheBlindingFactorCacheSquaresInsteadOfMakingFreshFactors) {
  // rsa.c: a 2-entry cache by modulus; a hit squares both factors mod n (blinding_hit cycles), a miss draws a
  // fresh r, computes r^e mod n on a modexp core and r^-1 mod n. One key: the first signature misses, the
  // others hit, and verify (the squared factors stay each other's blinding pair).
  // The remainder at dispatch: the blinding steps cost their named cycles.
  const auto r = run(hsm({"workload.hsm.signatures_per_client=4", "workload.hsm.host_jitter=0",
                          "workload.hsm.rx_tick_us=0", "workload.hsm.remainder_at=dispatch"}));
  EXPECT_EQ(stat(r->stats, "hsm", "blinding_hits"), 3.0);
  EXPECT_EQ(stat(r->stats, "hsm", "blinding_misses"), 1.0);
  for (const auto& s : r->signatures) EXPECT_TRUE(openssl_verifies(r->key, s));
  EXPECT_NE(r->records[0].reason.find("fresh blinding factors"), std::string::npos);
  EXPECT_NE(r->records[1].reason.find("blinding factors cached"), std::string::npos);
  // The miss cost blinding_miss cycles and r^e mod n on a core (259,795 cycles at 50 MHz: see
  // OneClientSignsThePublishedRate; with its I/O) instead of blinding_hit cycles.
  const double miss_minus_hit_ms = (2000000 - 170000) / 180e3 + 259795 / 50e3;
  EXPECT_GT(latency_ms(r->records[0]) - latency_ms(r->records[2]), miss_minus_hit_ms);
  EXPECT_LT(latency_ms(r->records[0]) - latency_ms(r->records[2]), miss_minus_hit_ms + 0.5);
}

// The longest time one task held the CPU, with the remainder at `at` (11.3 M cycles, 63 ms at 180 MHz) and
// four clients that ask again within a millisecond, so that another task is nearly always there to take the
// CPU at a yield.
double longest_run_ms(const char* at) {
  const auto r = run(hsm({"workload.hsm.clients=4", "workload.hsm.signatures_per_client=4",
                          "workload.hsm.host_us=500", "workload.hsm.rx_tick_us=0",
                          "workload.hsm.cycles.remainder=11326000",
                          std::string("workload.hsm.remainder_at=") + at}));
  for (const auto& s : r->signatures) EXPECT_TRUE(openssl_verifies(r->key, s)) << at;
  // After the signature that made the blinding factors (the miss, once per run, is a long bignum step too).
  std::uint64_t after = 0;
  for (const auto& rec : r->records)
    if (rec.reason.find("fresh blinding factors") != std::string::npos) after = rec.end_ps;
  EXPECT_GT(after, 0u);
  double longest = 0;
  for (const auto& span : r->work.runs)
    if (span.start >= after) longest = std::max(longest, static_cast<double>(span.end - span.start) / 1e9);
  return longest;
}
constexpr double kRemainderMs = 11326000 / 180e3;

// At dispatch the remainder is one step without a yield: a task holds the CPU at least that long.
TEST(Hsm, TheRemainderAtDispatchHoldsTheCpuInOneRun) { EXPECT_GT(longest_run_ms("dispatch"), kRemainderMs); }

// Spread before the unwrap's 1,698 AES blocks, with a yield before each status read, other tasks run between
// the shares: no run of a task comes near the remainder.
TEST(Hsm, TheRemainderInTheUnwrapIsSharedBetweenYields) {
  EXPECT_LT(longest_run_ms("unwrap"), 0.2 * kRemainderMs);
}

// In the bignum steps it runs from the key's parse to the pair's first status poll and from the results to
// the response without a yield: long runs, each shorter than the whole remainder.
TEST(Hsm, TheRemainderInTheBignumStepsRunsInTheirTwoStretches) {
  const double longest = longest_run_ms("bignum");
  EXPECT_GT(longest, 0.4 * kRemainderMs);
  EXPECT_LT(longest, 0.9 * kRemainderMs);
}

TEST(Hsm, WithoutTheBlindingCacheEverySignatureMakesFreshFactors) {
  const auto r = run(hsm({"workload.hsm.signatures_per_client=3", "workload.hsm.blinding_cache=0"}));
  EXPECT_EQ(stat(r->stats, "hsm", "blinding_hits"), 0.0);
  EXPECT_EQ(stat(r->stats, "hsm", "blinding_misses"), 3.0);
  EXPECT_EQ(stat(r->stats, "hsm", "core_alloc_attempts"), 3 * 3.0);  // the AES core, the pair, a modexp core
  for (const auto& s : r->signatures) EXPECT_TRUE(openssl_verifies(r->key, s));
}

TEST(Hsm, TasksWaitingForCoresSpinUntilTheyTakeThem) {
  // The build with half the cores (2 AES, 4 modexp) and 4 clients: pairs are sometimes all taken and tasks
  // retry (hal_core_alloc2: take one, then another; none: free the first, which yields, and try again),
  // counted as waiting for a slot. No queue: whoever tries first after a release wins, yet no client starves.
  auto overrides = platform::hsm_variant("half_cores");
  overrides.insert(overrides.end(), {"workload.hsm.clients=4", "workload.hsm.signatures_per_client=8"});
  const auto r = run(hsm(overrides));
  ASSERT_EQ(r->records.size(), 32u);
  EXPECT_GT(stat(r->stats, "hsm", "core_alloc_attempts"), 3 * 32.0);
  double mean = 0, worst = 0, slot_wait = 0;
  for (const auto& rec : r->records) {
    mean += latency_ms(rec) / 32;
    worst = std::max(worst, latency_ms(rec));
    slot_wait += rec.breakdown[runtime::TimeUse::kSlotWait] / 1e9 / 32;
  }
  EXPECT_GT(slot_wait, 1.0);
  EXPECT_LT(worst, 4 * mean);
}

TEST(Hsm, TheFullBuildNeverMakesATaskWaitForCores) {
  // 4 tasks, 4 AES cores, 4 pairs of modexp cores: one attempt per core and per pair, whatever the load.
  const auto r = run(hsm({"workload.hsm.clients=8", "workload.hsm.signatures_per_client=3"}));
  EXPECT_EQ(stat(r->stats, "hsm", "core_alloc_attempts"), 2 * 24.0 + 1);
}

TEST(Hsm, HostWorkSpreadsAroundItsMean) {
  // host_jitter 0.5: each signature's host part lies in 20 ms * (1 +- 0.5), and they differ.
  const auto r = run(hsm({"workload.hsm.host_jitter=0.5", "workload.hsm.signatures_per_client=20"}));
  ASSERT_EQ(r->records.size(), 20u);
  double lo = 1e9, hi = 0;
  for (const auto& rec : r->records) {
    const double host = rec.breakdown[runtime::TimeUse::kHost] / 1e9;
    lo = std::min(lo, host);
    hi = std::max(hi, host);
  }
  EXPECT_GE(lo, 10.0);
  EXPECT_LE(hi, 30.0);
  EXPECT_GT(hi - lo, 5.0);
}

TEST(Hsm, EveryVariantLoads) {
  for (const char* v : {"half_cores", "aes_2x", "hw_nwait", "hw_byteswap", "hw_nwait+hw_byteswap"}) {
    auto overrides = platform::hsm_variant(v);
    overrides.push_back("workload.hsm.clients=4");
    EXPECT_NO_THROW(hsm(overrides)) << v;
  }
  const auto half = hsm(platform::hsm_variant("half_cores")).params;
  EXPECT_EQ(std::count_if(half.slots.begin(), half.slots.end(),
                          [](const auto& s) { return s.core == "modexp_core"; }),
            4);
  EXPECT_EQ(
      std::count_if(half.slots.begin(), half.slots.end(), [](const auto& s) { return s.core == "aes_core"; }),
      2);
  const auto nwait_in_hardware = *hsm(platform::hsm_variant("hw_nwait")).params.buses.at(1).fmc();
  EXPECT_EQ(nwait_in_hardware.nwait, models::FmcNwait::kHardware);
  EXPECT_FALSE(nwait_in_hardware.double_read);
  EXPECT_THROW(platform::hsm_variant("quantum"), std::invalid_argument);
}

TEST(Hsm, TimelinesShowEveryClientsSignatures) {
  // The clients are processes of the workload like applications: a trace of the run has a lane for each,
  // with its signatures, and the RPC tasks on the CPU's lane.
  const auto dir = std::filesystem::temp_directory_path() / "rsoc_hsm_trace";
  std::filesystem::remove_all(dir);
  const auto summary = platform::run_session(
      hsm({"workload.hsm.clients=2", "workload.hsm.signatures_per_client=2", "outputs.trace={}"}), dir);
  EXPECT_EQ(summary.requests, 4u);
  std::ifstream in(dir / "trace.json");
  const auto trace = nlohmann::json::parse(in);
  std::map<std::string, int> spans;  // lane name -> complete events on it
  std::map<std::int64_t, std::string> lane_names;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name")
      lane_names[e["tid"].get<std::int64_t>()] = e["args"]["name"];
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "X") ++spans[lane_names[e["tid"].get<std::int64_t>()]];
  EXPECT_EQ(spans["client0"], 2);
  EXPECT_EQ(spans["client1"], 2);
  EXPECT_GT(spans["arm.thread0"], 4);
  std::filesystem::remove_all(dir);
}

TEST(Hsm, TheFirmwaresStatusWaitsAreTheDriversWithItsWatchdog) {
  // The firmware waits for its cores with the drivers' wait (hal_io_wait2 as CoreDriver::wait_status with a
  // yield before every round): a hung core is given up when the watchdog runs out, long before max_polls.
  const auto r = run(hsm({"faults.hangs.probability=0.05", "runtime.recovery.watchdog_cycles=100000",
                          "runtime.driver.max_polls=1000000", "workload.hsm.signatures_per_client=4"}));
  int failed = 0;
  for (const auto& rec : r->records) {
    if (rec.ok) continue;
    ++failed;
    EXPECT_NE(rec.error.find("did not finish within the watchdog's 100000 CPU cycles"), std::string::npos)
        << rec.error;
  }
  EXPECT_GE(failed, 1);
}

TEST(Hsm, EachFailedSignatureReportsTheCoreItsOwnTaskWaitedFor) {
  // Cores that hang (one operation in 2,000) and a firmware that gives up after 2,000 status polls, with 4
  // tasks: failures meet while other tasks fail too. A task frees its core (which yields) outside the handler
  // of its exception, so each failed request reports its own core: an AES core's failure names the core the
  // request unwrapped its key on.
  const auto r = run(hsm({"faults.hangs.probability=0.0005", "runtime.recovery.watchdog_cycles=1000000",
                          "runtime.driver.max_polls=2000", "workload.hsm.clients=4",
                          "workload.hsm.signatures_per_client=5"}));
  ASSERT_EQ(r->records.size(), 20u);
  int aes_failures = 0;
  for (const auto& rec : r->records) {
    if (rec.ok) continue;
    const std::string prefix = "core at 0x600", aes = "key unwrapped on aes";
    ASSERT_EQ(rec.error.rfind(prefix, 0), 0u) << rec.error;
    const char window = rec.error[prefix.size()];  // 64 KiB windows: aes0-3 at 0x6000-0x6003, modexp above
    if (window > '3') continue;
    const std::size_t at = rec.reason.find(aes);
    ASSERT_NE(at, std::string::npos) << rec.reason;
    EXPECT_EQ(window, rec.reason[at + aes.size()]) << rec.reason << " -> " << rec.error;
    ++aes_failures;
  }
  EXPECT_GE(aes_failures, 5);
}
