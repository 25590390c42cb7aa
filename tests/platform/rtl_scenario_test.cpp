// RTL cores in scenarios (platform.cores[].rtl, platform/rtl_build.h): the shipped designs of scenarios/rtl
// verilated, loaded and measured from their own clock edges, every result of a run through them checked
// against the functionality's reference in both directions (AES, DES and 3DES on random keys and data), the
// exact busy cycles of a request, and the keys an RTL core cannot go with. Errors of the build itself
// (syntax, ports, no verilator) and the cache are the CLI's tests (tests/cli/cli_rtl_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/rtl_core.h"
#include "platform/scenario.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

namespace rsoc::platform {
namespace {

const std::string kAes = std::string(rsoc_test::kSourceDir) + "/scenarios/os_aes_des_rtl.json";
const std::string kCrc = std::string(rsoc_test::kSourceDir) + "/scenarios/custom_crc32_rtl.json";
const std::string kCrcStream = std::string(rsoc_test::kSourceDir) + "/scenarios/custom_crc32_dma_rtl.json";

TEST(RtlScenario, TheShippedAesCoreIsMeasuredFromItsClockEdges) {
  const Scenario s = load_scenario_file(kAes);
  const models::CoreParams& aes = s.params.cores[0].params;
  ASSERT_TRUE(aes.rtl);
  EXPECT_EQ(aes.rtl->name, "aes128_core");
  // A register read takes one edge; INIT's 10 rounds of key expansion and NEXT's 10 rounds are each seen done
  // by a status read that ends 11 cycles after the command (the read samples the state before its edge).
  EXPECT_EQ(aes.access_cycles, 1u);
  EXPECT_EQ(aes.key_setup_cycles, 11u);
  EXPECT_EQ(aes.block_cycles, 11u);
  // DES: INIT takes the keys at once (seen by the next read), a pass is 16 rounds.
  const models::CoreParams& des = s.params.cores[1].params;
  ASSERT_TRUE(des.rtl);
  EXPECT_EQ(des.access_cycles, 1u);
  EXPECT_EQ(des.key_setup_cycles, 1u);
  EXPECT_EQ(des.block_cycles, 17u);
}

// Every request in hardware, with random keys and data drawn per request, in one direction: AES on the AES
// core, and `des` (DES or 3DES) on the DES core. Every output is checked against the reference (a mismatch
// fails the request as a wrong output). One simulation per test process.
void every_request_verified(const std::string& operation, const std::string& des) {
  const auto run = test::run_scenario(
      kAes, {"runtime.policy=hardware", "workload.apps.0.requests=6", "workload.apps.1.requests=4",
             "workload.apps.0.blocks_list=[1,2,3]", "workload.apps.1.blocks_list=[1,2]",
             "workload.background=[]", "workload.apps.0.operation=" + operation,
             "workload.apps.1.operation=" + operation, "workload.apps.1.functionality=" + des});
  ASSERT_EQ(run.records.size(), 10u);
  for (const auto& r : run.records) {
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.verified);
    EXPECT_FALSE(r.wrong_output);
  }
}
TEST(RtlScenario, TheAesAndDesCoresEncryptAsTheReferenceDoes) {
  every_request_verified("encrypt", "des");
}
TEST(RtlScenario, TheAesAndDesCoresDecryptAsTheReferenceDoes) {
  every_request_verified("decrypt", "des");
}
TEST(RtlScenario, TheDesCoreEncryptsIn3DesAsTheReferenceDoes) {
  every_request_verified("encrypt", "3des");
}
TEST(RtlScenario, TheDesCoreDecryptsIn3DesAsTheReferenceDoes) {
  every_request_verified("decrypt", "3des");
}

TEST(RtlScenario, TheCrcCoreIsBusySixteenCyclesPerRecordAndItsResultsAreVerified) {
  const auto run = test::run_scenario(
      kCrc, {"runtime.policy=hardware", "workload.apps.0.requests=2", "workload.apps.0.blocks_list=[1,5]"});
  ASSERT_EQ(run.records.size(), 2u);
  for (const auto& r : run.records) {
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.verified);
  }
  // Six records of 16 words, one word a cycle at 100 MHz: 6 x 160 ns of work, from the design's edges.
  EXPECT_NEAR(test::stat(run.stats, "slot.slot0", "core_busy_ms"), 6 * 160e-6, 1e-12);
}

TEST(RtlScenario, TheCrcStreamCoreIsMeasuredThroughItsStreamPort) {
  const Scenario s = load_scenario_file(kCrcStream);
  const models::CoreParams& crc = s.params.cores[0].params;
  ASSERT_TRUE(crc.rtl);
  EXPECT_TRUE(crc.rtl->stream);
  // A record of 16 words taken one an edge, its CRC given at the next edge: 17 cycles from the write's start;
  // two records at once give the second CRC 16 cycles after the first (it takes the next record's words while
  // the first CRC leaves).
  EXPECT_EQ(crc.block_cycles, 17u);
  EXPECT_EQ(crc.initiation_interval_cycles, 16u);
  EXPECT_EQ(crc.access_cycles, 1u);
}

TEST(RtlScenario, ThroughTheStreamPortDmaMovesTheRecordsAndEveryCrcIsVerified) {
  const auto run = test::run_scenario(kCrcStream, {"runtime.policy=hardware", "workload.apps.0.requests=3",
                                                   "workload.apps.0.blocks_list=[1,5,100]"});
  ASSERT_EQ(run.records.size(), 3u);
  for (const auto& r : run.records) {
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.verified);
    EXPECT_FALSE(r.wrong_output);
  }
  // busy is a CRC waiting to leave: one edge a record (106 records), each taken at the edge after it is made.
  EXPECT_NEAR(test::stat(run.stats, "slot.slot0", "core_busy_ms"), 106 * 10e-6, 1e-12);
}

TEST(RtlScenario, KeysAnRtlCoreCannotGoWithAreRefusedAtTheirPointers) {
  const auto dma = test::load_issues(kCrc, {"runtime.driver.data_path=dma"});
  bool named = false;
  for (const auto& i : dma)
    named = named || i.rfind("/runtime/driver/data_path: core \"crc_core\" is RTL", 0) == 0;
  EXPECT_TRUE(named) << ::testing::PrintToString(dma);
  const auto stream_interface = test::load_issues(kCrcStream, {"platform.cores.0.rtl.protocol=register"});
  named = false;
  for (const auto& i : stream_interface)
    named = named || i.rfind(
                         "/platform/cores/0/rtl/protocol: the stream interface of an RTL core is its "
                         "stream port",
                         0) == 0;
  EXPECT_TRUE(named) << ::testing::PrintToString(stream_interface);
  const auto hangs = test::load_issues(
      kCrc, {"faults={\"hangs\":{\"probability\":0.1}}", "runtime.recovery.watchdog_cycles=100000"});
  named = false;
  for (const auto& i : hangs) named = named || i.rfind("/faults: core \"crc_core\" is RTL", 0) == 0;
  EXPECT_TRUE(named) << ::testing::PrintToString(hangs);
  const auto upsets = test::load_issues(kCrc, {"faults={\"upsets\":{\"rate_per_mbit_hour\":1}}"});
  named = false;
  for (const auto& i : upsets) named = named || i.rfind("/faults: core \"crc_core\" is RTL", 0) == 0;
  EXPECT_TRUE(named) << ::testing::PrintToString(upsets);
  // A design of 16-word records told it computes records of 256 bytes: its CRC of the probe is not zlib's.
  const auto wider = test::load_issues(kCrc, {"platform.cores.0.custom.input_bytes=256"});
  named = false;
  for (const auto& i : wider)
    named =
        named || i.rfind(
                     "/platform/cores/0/rtl: measuring crc32_core through one request of crc32: its result "
                     "of one block (256 bytes) is not the reference's",
                     0) == 0;
  EXPECT_TRUE(named) << ::testing::PrintToString(wider);
  const auto modexp =
      test::load_issues(kCrc, {"platform.cores.0.type=modexp", "platform.cores.0.custom=null"});
  named = false;
  for (const auto& i : modexp)
    named = named || i.rfind("/platform/cores/0/rtl: an RTL core of type modexp", 0) == 0;
  EXPECT_TRUE(named) << ::testing::PrintToString(modexp);
}

}  // namespace
}  // namespace rsoc::platform
