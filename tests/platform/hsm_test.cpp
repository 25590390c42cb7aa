// The HSM reference (scenarios/hsm_rsa2048.json): real RSA-2048 signatures that OpenSSL verifies, the
// firmware's operation counts, the calibrated single-client rate, overlap through yields, and the variants.
#include "platform/hsm.h"

#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <memory>

#include "platform/reproduce.h"
#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/platform/platform_test_support.h"

using namespace rsoc;

namespace {

const std::string kHsm = std::string(RSOC_SOURCE_DIR) + "/scenarios/hsm_rsa2048.json";

platform::Scenario hsm(std::vector<std::string> overrides) {
  platform::LoadOptions options;
  options.overrides = std::move(overrides);
  return platform::load_scenario_file(kHsm, options);
}

// RSA PKCS#1 v1.5 with SHA-256, verified by OpenSSL with the public key (n, e).
bool openssl_verifies(const runtime::RsaKey& key, const runtime::HsmFirmware::Signature& s) {
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

struct HsmRun {
  std::vector<runtime::RequestRecord> records;
  std::vector<runtime::HsmFirmware::Signature> signatures;
  std::vector<analysis::StatGroup> stats;
  runtime::RsaKey key;
  double end_ms = 0;
};

HsmRun run(const platform::Scenario& scenario) {
  HsmRun r;
  platform::Simulation sim(scenario.params,
                           [&](const runtime::RequestRecord& rec) { r.records.push_back(rec); });
  sim.hsm()->on_signature([&](const runtime::HsmFirmware::Signature& s) { r.signatures.push_back(s); });
  sim.spawn_background();
  sim.spawn_apps();
  sim.run();
  r.end_ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
  r.stats = sim.stats(r.end_ms);
  r.key = sim.hsm()->key();
  return r;
}

using rsoc::test::stat;

}  // namespace

TEST(Hsm, SignaturesAreRealRsa2048ThatOpenSslVerifies) {
  const HsmRun r = run(hsm({"workload.hsm.clients=2", "workload.hsm.signatures_per_client=3"}));
  ASSERT_EQ(r.signatures.size(), 6u);
  EXPECT_EQ(r.key.n.bit_length(), 2048u);
  for (const auto& s : r.signatures) {
    EXPECT_EQ(s.signature.size(), 256u);
    EXPECT_TRUE(openssl_verifies(r.key, s));
  }
  // A tampered signature does not verify: the check can fail.
  auto bad = r.signatures.front();
  bad.signature[100] ^= 1;
  EXPECT_FALSE(openssl_verifies(r.key, bad));
  for (const auto& rec : r.records) {
    EXPECT_TRUE(rec.ok) << rec.error;
    EXPECT_TRUE(rec.verified);
    EXPECT_EQ(rec.breakdown.total(), rec.end_ps - rec.issue_ps);  // where the time went sums to the latency
  }
  // Every signature unwrapped the 3,290-byte key record through the AES core: 412 semiblocks x 6 operations,
  // each 4 data words and a control word written, the status polled and 4 words read (REFERENCE.md section
  // 3).
  EXPECT_EQ(stat(r.stats, "hsm", "aes_block_operations"), 6 * 2472.0);
  const double aes_writes = stat(r.stats, "slot.aes", "words_written");
  const double aes_data_reads =
      stat(r.stats, "slot.aes", "words_read") - stat(r.stats, "slot.aes", "status_reads");
  EXPECT_EQ(aes_data_reads, 2 * 6 * 2472 * 4.0);  // the FMC reads everything twice
  EXPECT_EQ(aes_writes,
            6 * 2472 * 5.0 + 4 + 1 + 1);  // and the KEK, the direction and INIT once, at the start
  // Each CRT half is uploaded as Cryptech's hal_modexp2 does: 261 word writes, 33 reads besides the polls.
  for (const char* slot : {"slot.modexp0", "slot.modexp1"}) {
    EXPECT_EQ(stat(r.stats, slot, "words_written"), 6 * 261.0) << slot;
    EXPECT_EQ(stat(r.stats, slot, "words_read") - stat(r.stats, slot, "status_reads"), 2 * 6 * 33.0) << slot;
  }
}

TEST(Hsm, OneClientSignsThePublishedRate) {
  // The calibration (scenarios/hsm_rsa2048.md): 5.68 signatures per second, 176 ms each, with one client.
  const HsmRun r = run(hsm({"workload.hsm.signatures_per_client=30"}));
  ASSERT_EQ(r.records.size(), 30u);
  EXPECT_NEAR(30 / (r.end_ms / 1e3), 5.68, 5.68 * 0.005);
  EXPECT_NEAR(stat(r.stats, "hsm", "signatures_per_s"), 5.68, 5.68 * 0.005);
  EXPECT_EQ(stat(r.stats, "hsm", "modexp_alloc_attempts"), 30.0);  // alone, a task never finds the pair taken
  // The two CRT halves ran at the same time: each modexp core did 30 exponentiations of 64.06 ms, (1024 + 2)
  // Montgomery steps and one to reduce the unreduced message, 2 * 32^2 + 1,071 cycles each at 50 MHz.
  EXPECT_NEAR(stat(r.stats, "slot.modexp0", "core_busy_ms"), 30 * 1027 * 3119 / 50e3, 1e-6);
  EXPECT_NEAR(stat(r.stats, "slot.modexp1", "core_busy_ms"), 30 * 1027 * 3119 / 50e3, 1e-6);
}

TEST(Hsm, TasksYieldOnCorePollsSoClientsOverlap) {
  // With two clients, one task's FPGA wait overlaps the other's ARM work only because a task yields on every
  // core-status poll: the rate rises well above one client's.
  const HsmRun r = run(hsm({"workload.hsm.clients=2", "workload.hsm.signatures_per_client=15"}));
  const double rate = static_cast<double>(r.records.size()) / (r.end_ms / 1e3);
  EXPECT_GT(rate, 1.4 * 5.68);
  EXPECT_GT(stat(r.stats, "scheduler.thread0", "context_switches"), 100.0);
  EXPECT_GT(stat(r.stats, "hsm", "core_polls"), 1000.0);
}

TEST(Hsm, TasksWaitingForTheModexpPairSpinUntilTheyTakeIt) {
  // hal_core_alloc2: a task that finds the pair taken yields and tries again, so with 4 clients tasks spin
  // (many attempts per signature, counted as waiting for a slot). The cores go to whichever task tries first
  // after a release (no queue): signatures wait unevenly, but with the hosts' varying work no client starves.
  const HsmRun r = run(hsm({"workload.hsm.clients=4", "workload.hsm.signatures_per_client=10"}));
  ASSERT_EQ(r.records.size(), 40u);
  EXPECT_GT(stat(r.stats, "hsm", "modexp_alloc_attempts"), 100 * 40.0);
  double mean = 0, worst = 0, slot_wait = 0;
  for (const auto& rec : r.records) {
    const double ms = (rec.end_ps - rec.issue_ps) / 1e9;
    mean += ms / 40;
    worst = std::max(worst, ms);
    slot_wait += rec.breakdown[runtime::TimeUse::kSlotWait] / 1e9 / 40;
  }
  EXPECT_GT(slot_wait, 64.0);  // waiting for the pair is a large share of the latency
  EXPECT_LT(worst, 4 * mean);
}

TEST(Hsm, HostWorkSpreadsAroundItsMean) {
  // host_jitter 0.5: every gap between a signature's delivery and the client's next request (its host work)
  // lies in 20 ms * (1 +- 0.5), and they differ.
  const HsmRun r = run(hsm({"workload.hsm.host_jitter=0.5", "workload.hsm.signatures_per_client=20"}));
  ASSERT_EQ(r.records.size(), 20u);
  double lo = 1e9, hi = 0;
  for (std::size_t i = 1; i < r.records.size(); ++i) {
    const double gap = (r.records[i].issue_ps - r.records[i - 1].end_ps) / 1e9;
    lo = std::min(lo, gap);
    hi = std::max(hi, gap);
  }
  EXPECT_GE(lo, 10.0);
  EXPECT_LE(hi, 30.0);
  EXPECT_GT(hi - lo, 5.0);
}

TEST(Hsm, EveryVariantLoads) {
  for (const char* v : {"half_cores", "aes_2x", "sync_fmc", "hw_byteswap", "sync_fmc+hw_byteswap"}) {
    auto overrides = platform::hsm_variant(v);
    overrides.push_back("workload.hsm.clients=4");
    EXPECT_NO_THROW(hsm(overrides)) << v;
  }
  EXPECT_EQ(hsm(platform::hsm_variant("half_cores")).params.hsm->params.modexp_bases.size(), 1u);
  EXPECT_EQ(hsm(platform::hsm_variant("sync_fmc")).params.buses.at(1).fmc_params.mode,
            models::FmcMode::kSync);
  EXPECT_THROW(platform::hsm_variant("quantum"), std::invalid_argument);
}
