// End-to-end tests of the `rsoc` command line: exit codes, messages, and result files.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "tests/cli/cli_test_support.h"
#include "tests/test_paths.h"

namespace fs = std::filesystem;
using namespace rsoc_cli_test;

TEST(Cli, VersionAndHelp) {
  const fs::path dir = scratch("help");
  Result v = run_rsoc("--version", dir);
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("rsoc ", 0), 0u) << v.out;
  Result h = run_rsoc("--help", dir);
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("validate SCENARIO..."), std::string::npos);
  Result rh = run_rsoc("run --help", dir);
  EXPECT_EQ(rh.code, 0);
  EXPECT_NE(rh.out.find("--set"), std::string::npos);
  Result bad = run_rsoc("frobnicate", dir);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("unknown command \"frobnicate\""), std::string::npos) << bad.err;
  Result badflag = run_rsoc("run --bogus", dir);
  EXPECT_EQ(badflag.code, 2);
  EXPECT_EQ(badflag.out, "");
}

// The command table (tools/main.cpp, each entry in its tools/command_<name>.cpp) gives the help its command
// list, one line each with its summary in one column, and the message about an unknown command the names of
// them all.
TEST(Cli, EveryCommandIsInTheHelpAndInTheUnknownCommandMessage) {
  const fs::path dir = scratch("commands");
  const Result bad = run_rsoc("frobnicate", dir);
  EXPECT_EQ(
      bad.err,
      "rsoc: unknown command \"frobnicate\" (commands: run, crossover, sweep, sensitivity, point, merge, "
      "reproduce, list, show, validate, schema, verify; see rsoc --help)\n");
  const Result h = run_rsoc("--help", dir);
  for (const char* line :
       {"  run [SCENARIO]       simulate a scenario", "  validate SCENARIO... check scenario",
        "  sensitivity SCENARIO how far each figure", "  point DIR INDEX      run one point",
        "  verify des           check DES/3DES"})
    EXPECT_NE(h.out.find(std::string("\n") + line), std::string::npos) << line << "\n" << h.out;
  EXPECT_LT(h.out.find("\n  run "), h.out.find("\n  validate "));  // the help's own order
  EXPECT_LT(h.out.find("\n  validate "), h.out.find("\n  crossover "));
}

TEST(Cli, DefaultRunIsTheReferenceExperimentWithCompleteResultsAndNoBanner) {
  const fs::path dir = scratch("default");
  Result r = run_rsoc("run --out res", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("SystemC 2.3"), std::string::npos) << "banner leaked: " << r.err;
  EXPECT_EQ(r.err.find("Simulation stopped"), std::string::npos);
  EXPECT_NE(r.err.find("scenarios/os_aes_des.json"), std::string::npos) << r.err;
  // The summary table on stdout: both implementations of both functionalities are chosen somewhere.
  for (const char* line : {"aes128         hardware", "aes128         software", "des            hardware",
                           "des            software"})
    EXPECT_NE(r.out.find(line), std::string::npos) << r.out;
  for (const char* f :
       {"requests.csv", "breakdown.csv", "summary.csv", "stats.json", "resolved_scenario.json", "host.json"})
    EXPECT_TRUE(fs::exists(dir / "res" / f)) << f;
  const std::string csv = slurp(dir / "res" / "requests.csv");
  EXPECT_EQ(
      csv.rfind("id,app,functionality,blocks,bytes,decision,reason,slot,reconfigured,reconfig_ms,queue_ms,"
                "exec_ms,latency_ms,throughput_kBps,start_ms,end_ms",
                0),
      0u)
      << csv;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  int rows = 0;
  while (std::getline(lines, line)) {
    ++rows;
    EXPECT_NE(line.find(",true,,true,"), std::string::npos) << "not ok+verified: " << line;
  }
  EXPECT_EQ(rows, 40);
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".res.partial"), std::string::npos);
}

TEST(Cli, SmokeScenarioConfiguresOnceThenHitsTheCache) {
  const fs::path dir = scratch("smoke");
  ASSERT_EQ(run_rsoc("run " + kScenarios + "/smoke_aes.json --out res", dir).code, 0);
  std::istringstream lines(slurp(dir / "res" / "requests.csv"));
  std::string line;
  std::getline(lines, line);
  int rows = 0, reconfigured = 0;
  while (std::getline(lines, line)) {
    ++rows;
    if (line.find(",slot0,true,153.600100,") != std::string::npos) ++reconfigured;
  }
  EXPECT_EQ(rows, 4);
  EXPECT_EQ(reconfigured, 1);
}

TEST(Cli, CrossoverWritesBothTablesAndPrintsTheSummary) {
  const fs::path dir = scratch("crossover");
  Result r = run_rsoc("crossover --max-blocks 60 --functionality aes128 --out x", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "functionality  crossover_blocks  analytic_crossover_blocks  energy_crossover_blocks\n"
            "aes128                       40                         40                       40\n");
  const std::string csv = slurp(dir / "x" / "crossover.csv");
  EXPECT_EQ(csv.rfind("functionality,blocks,unit_bytes,sw_ms,hw_cold_ms,hw_cached_ms,sw_kBps,hw_cold_kBps,"
                      "hw_cached_kBps,sw_uj,hw_cold_uj,hw_cached_uj,",
                      0),
            0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 61);
  EXPECT_EQ(
      slurp(dir / "x" / "crossover_summary.csv")
          .rfind("functionality,crossover_blocks,analytic_crossover_blocks,energy_crossover_blocks,", 0),
      0u);
  EXPECT_EQ(run_rsoc("crossover --out y --functionality rsa", dir).code, 2);
  // Without --out, beside run's default: rsoc-out/<scenario name>-crossover.
  ASSERT_EQ(run_rsoc("crossover -f aes128 --max-blocks 2", dir).code, 0);
  EXPECT_TRUE(fs::exists(dir / "rsoc-out" / "os_aes_des-crossover" / "crossover_summary.csv"));
  ASSERT_EQ(run_rsoc("crossover " + kSmoke + " --max-blocks 2", dir).code, 0);
  EXPECT_TRUE(fs::exists(dir / "rsoc-out" / "smoke_aes-crossover" / "crossover.csv"));
  Result sweep = run_rsoc("crossover --param platform.slots.0.count=1,2", dir);
  EXPECT_EQ(sweep.code, 2);
  EXPECT_EQ(sweep.err, "rsoc: crossover --param needs --out DIR (the sweep folder)\n");
}

TEST(Cli, SameScenarioTwiceGivesByteIdenticalResults) {
  const fs::path dir = scratch("determinism");
  ASSERT_EQ(run_rsoc("run --out a", dir).code, 0);
  ASSERT_EQ(run_rsoc("run --out b", dir).code, 0);
  for (const char* f :
       {"requests.csv", "breakdown.csv", "summary.csv", "stats.json", "resolved_scenario.json"})
    EXPECT_EQ(slurp(dir / "a" / f), slurp(dir / "b" / f)) << f;
}

TEST(Cli, ARunWithFaultsIsByteIdenticalForASeedAndAnotherSeedDrawsOtherFaults) {
  const fs::path dir = scratch("fault_determinism");
  const std::string faults =
      " --set faults.configuration.bit_error_rate=2e-7 --set runtime.caching=false"
      " --set runtime.recovery.configuration_retries=2 --set runtime.recovery.fallback=software"
      " --set faults.hangs.probability=0.02 --set runtime.recovery.watchdog_cycles=10000"
      " --set workload.apps.0.requests=12 --set workload.apps.0.blocks=1";
  const Result first = run_rsoc("run " + kSmoke + faults + " --set faults.seed=3 --out a -q", dir);
  ASSERT_EQ(first.code, 0) << first.err;
  // After the verdict, the faults line.
  EXPECT_NE(first.out.find("\nfaults: "), std::string::npos) << first.out;
  EXPECT_NE(first.out.find(" requests recovered, 0 failed, 0 delivered wrong output unnoticed (0.00 %)\n"),
            std::string::npos)
      << first.out;
  // One request: no plural.
  const Result one = run_rsoc("run " + kScenarios +
                                  "/faults_aes_des.json --set runtime.recovery.verify_cycles_per_block=0 "
                                  "--out one -q",
                              dir);
  EXPECT_NE(one.out.find("\nfaults: 1 request recovered, "), std::string::npos) << one.out;
  ASSERT_EQ(run_rsoc("run " + kSmoke + faults + " --set faults.seed=3 --out b -q", dir).code, 0);
  ASSERT_EQ(run_rsoc("run " + kSmoke + faults + " --set faults.seed=4 --out c -q", dir).code, 0);
  for (const char* f :
       {"requests.csv", "breakdown.csv", "summary.csv", "stats.json", "resolved_scenario.json"})
    EXPECT_EQ(slurp(dir / "a" / f), slurp(dir / "b" / f)) << f;
  const std::string a = slurp(dir / "a" / "requests.csv");
  EXPECT_NE(a.find(",recovered,"), std::string::npos) << a;  // the rate makes faults a certainty here
  EXPECT_NE(a, slurp(dir / "c" / "requests.csv"));
}

TEST(Cli, ACrossoverWithAScrubberEndsAndScrubbingOnlyDelaysConfigurations) {
  // The scrubber runs for ever; a crossover's simulations end when their requests do. A scrub rewriting the
  // slot (configured by the previous block count's cached run) holds the port, so a configuration that starts
  // meanwhile waits: scrubbing never makes one faster, and software and cached runs do not see it.
  const fs::path dir = scratch("crossover_scrubber");
  const std::string common = "crossover " + kSmoke + " --max-blocks 3 -q";
  ASSERT_EQ(run_rsoc(common + " --out plain", dir).code, 0);
  const Result r = run_rsoc(
      common + R"( --set 'faults={"scrubbing": {"mode": "blind", "period_ms": 2}}' --out scrubbed)", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  auto rows = [&](const char* run) {  // sw_ms, hw_cold_ms, hw_cached_ms by block count
    std::istringstream in(slurp(dir / run / "crossover.csv"));
    std::string line;
    std::getline(in, line);
    std::vector<std::array<double, 3>> out;
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      std::istringstream fields(line);
      for (std::string v; std::getline(fields, v, ',');) f.push_back(v);
      out.push_back({std::stod(f.at(3)), std::stod(f.at(4)), std::stod(f.at(5))});
    }
    return out;
  };
  const auto plain = rows("plain"), scrubbed = rows("scrubbed");
  ASSERT_EQ(plain.size(), 3u);
  ASSERT_EQ(scrubbed.size(), 3u);
  bool delayed = false;
  for (std::size_t b = 0; b < 3; ++b) {
    EXPECT_EQ(scrubbed[b][0], plain[b][0]) << b;
    EXPECT_GE(scrubbed[b][1], plain[b][1]) << b;
    EXPECT_EQ(scrubbed[b][2], plain[b][2]) << b;
    delayed = delayed || scrubbed[b][1] > plain[b][1];
  }
  EXPECT_TRUE(delayed);  // every 2 ms a 1.28 ms scrub: some configuration meets one
}

TEST(Cli, RunEndsWithTheBusiestResourceAndWritesWhereTheTimeWent) {
  const fs::path dir = scratch("breakdown");
  Result r = run_rsoc("run " + kScenarios + "/smoke_aes.json --out res", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  // After the summary table, one line: the smoke test is the CPU copying a bitstream; then the
  // replacement line (one configuration, which no policy could have saved).
  const std::size_t line = r.out.rfind("\nbusiest resource: cpu.thread0 (");
  ASSERT_NE(line, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("% busy); largest share of latency: reconfiguration (", line), std::string::npos)
      << r.out;
  const std::size_t replacement = r.out.find('\n', line + 1);
  EXPECT_EQ(r.out.substr(replacement),
            "\nreconfigurations: 1 (lru); the fewest any replacement could have needed: 1 (Belady's MIN)\n");
  std::istringstream csv(slurp(dir / "res" / "breakdown.csv"));
  std::string row;
  std::getline(csv, row);
  EXPECT_EQ(row,
            "id,app,functionality,blocks,bytes,decision,latency_ms,cpu_compute_ms,cpu_io_ms,cpu_wait_ms,"
            "bus_transfer_ms,slot_wait_ms,reconfig_ms,core_compute_ms,host_ms,recovery_ms,reconfig_hidden_ms,"
            "rsoc_version,scenario_sha256,seed");
  std::getline(csv, row);  // the request that configures the slot, to the picosecond
  EXPECT_NE(row.find(",0.000000000,0.000000000,0.000000000,153.600100000,"), std::string::npos) << row;
  int rows = 1;
  while (std::getline(csv, row)) ++rows;
  EXPECT_EQ(rows, 4);
  EXPECT_NE(slurp(dir / "res" / "stats.json").find("\"reconfig_share\""), std::string::npos);
  // The file can be turned off like requests.csv.
  ASSERT_EQ(
      run_rsoc("run " + kScenarios + "/smoke_aes.json --set outputs.breakdown_csv=false --out off", dir).code,
      0);
  EXPECT_FALSE(fs::exists(dir / "off" / "breakdown.csv"));
  EXPECT_TRUE(fs::exists(dir / "off" / "requests.csv"));
}

TEST(Cli, ARunWithPrefetchingCountsItsPrefetchesBesideTheReconfigurations) {
  // The hint prefetches the one core before the application starts at 200 ms: no request configures.
  const fs::path dir = scratch("prefetch_line");
  const Result r =
      run_rsoc("run " + kSmoke +
                   " --set runtime.prefetch.predictor=hint --set workload.apps.0.start_us=200000 --out p",
               dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(
      r.out.find("\nreconfigurations: 0 (lru); the fewest any replacement could have needed: 1 (Belady's "
                 "MIN); besides, 1 prefetches (1 useful)\n"),
      std::string::npos)
      << r.out;
}

TEST(Cli, SetOverridesAValueAndIsValidated) {
  const fs::path dir = scratch("set");
  Result r = run_rsoc(
      "run " + kScenarios + "/smoke_aes.json --set platform.config_port.cpu_copy_cycles_per_word=60 --out r",
      dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(slurp(dir / "r" / "resolved_scenario.json").find("\"cpu_copy_cycles_per_word\": 60"),
            std::string::npos);
  Result bad = run_rsoc("run --set platform.cpus.0.clok_mhz=50 --out x", dir);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find(
                "--set platform.cpus.0.clok_mhz=50: /platform/cpus/0/clok_mhz: unknown key \"clok_mhz\"; did "
                "you mean \"clock_mhz\"?"),
            std::string::npos)
      << bad.err;
  EXPECT_FALSE(fs::exists(dir / "x"));
  Result range = run_rsoc("run --set platform.cpus.0.clock_mhz=0 --out y", dir);
  EXPECT_EQ(range.code, 2);
  EXPECT_NE(range.err.find("/platform/cpus/0/clock_mhz: 0 is out of range"), std::string::npos) << range.err;
}

TEST(Cli, FailedRunKeepsThePreviousResultAndForeignFolders) {
  const fs::path dir = scratch("keep");
  ASSERT_EQ(run_rsoc("run --out res", dir).code, 0);
  const std::string before = slurp(dir / "res" / "requests.csv");
  EXPECT_EQ(run_rsoc("run --set seed=-1 --out res", dir).code, 2);
  EXPECT_EQ(slurp(dir / "res" / "requests.csv"), before);
  fs::create_directories(dir / "mine");
  std::ofstream(dir / "mine" / "notes.txt") << "precious";
  Result r = run_rsoc("run --out mine", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("does not hold an rsoc result"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir / "mine" / "notes.txt"), "precious");
}

TEST(Cli, ValidateShippedScenarios) {
  const fs::path dir = scratch("validate_ok");
  for (const auto& e : fs::directory_iterator(kScenarios)) {
    if (e.path().extension() != ".json") continue;
    Result r = run_rsoc("validate " + e.path().string(), dir);
    EXPECT_EQ(r.code, 0) << e.path() << ": " << r.err;
  }
}

TEST(Cli, EveryShippedScenarioRunsWithVerifiedResults) {
  const fs::path dir = scratch("shipped");
  for (const auto& e : fs::directory_iterator(kScenarios)) {
    if (e.path().extension() != ".json") continue;
    const std::string name = e.path().stem().string();
    // A custom core that computes `none` is timed only: its requests succeed unverified.
    std::set<std::string> unchecked;
    for (const auto& core :
         nlohmann::json::parse(slurp(e.path())).at("platform").value("cores", nlohmann::json::array()))
      if (core.contains("custom") && core["custom"].at("computes") == "none")
        unchecked.insert(core["custom"].at("functionality").get<std::string>());
    Result r = run_rsoc("run " + e.path().string() + " --out " + name, dir);
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    std::istringstream lines(slurp(dir / name / "requests.csv"));
    std::string line;
    std::getline(lines, line);
    int rows = 0;
    while (std::getline(lines, line)) {
      ++rows;
      const std::string functionality =
          line.substr(0, line.find(',', line.find(',', line.find(',') + 1) + 1));
      const bool timed_only = unchecked.count(functionality.substr(functionality.rfind(',') + 1)) > 0;
      EXPECT_NE(line.find(timed_only ? ",true,,false," : ",true,,true,"), std::string::npos)
          << name << ": not ok+verified: " << line;
    }
    EXPECT_GT(rows, 0) << name;
  }
}

TEST(Cli, FmcScenarioPollsNwaitAndDoubleReads) {
  const fs::path dir = scratch("fmc");
  ASSERT_EQ(run_rsoc("run " + kScenarios + "/smoke_fmc_des.json --out r", dir).code, 0);
  const std::string stats = slurp(dir / "r" / "stats.json");
  // Every read is done twice: bus_reads = 2 * words_read; and the CPU polled.
  const auto value = [&](const std::string& key) {
    const auto at = stats.find("\"" + key + "\"");
    const auto v = stats.find("\"value\": ", at);
    return std::stod(stats.substr(v + 9));
  };
  EXPECT_GT(value("words_read"), 0);
  EXPECT_EQ(value("bus_reads"), 2 * value("words_read"));
  EXPECT_GE(value("polls"), value("bus_reads") + value("words_written"));
}

TEST(Cli, FaultScenarioRecoversFromEachFaultAndItsOutputCheckIsWhatKeepsOutputsRight) {
  // scenarios/faults_aes_des.md: with its fault seed the run meets upsets repaired by scrubbing, an upset
  // found by the output check (repaired, or run in software), and configuration errors retried; no request
  // fails and none delivers a wrong output. Without the output check, upset cores deliver wrong outputs
  // unnoticed.
  const fs::path dir = scratch("fault_scenario");
  const std::string scenario = kScenarios + "/faults_aes_des.json";
  Result r = run_rsoc("run " + scenario + " --out r -q", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string stats = slurp(dir / "r" / "stats.json");
  const auto value = [&](const std::string& text, const std::string& key) {
    const auto at = text.find("\"" + key + "\"");
    if (at == std::string::npos) return -1.0;
    return std::stod(text.substr(text.find("\"value\": ", at) + 9));
  };
  EXPECT_GE(value(stats, "repairs"), 1) << "no upset repaired by scrubbing";
  EXPECT_GE(value(stats, "corruptions_detected"), 1) << "no upset found by the output check";
  EXPECT_GE(value(stats, "configuration_retries"), 1) << "no configuration retried";
  EXPECT_GE(value(stats, "fault_fallbacks"), 1) << "no request ran in software after its hardware failed";
  EXPECT_EQ(value(stats, "silent_corruptions"), 0);
  const std::string csv = slurp(dir / "r" / "requests.csv");
  EXPECT_NE(csv.find(",recovered,"), std::string::npos) << csv;
  EXPECT_EQ(csv.find(",failed,"), std::string::npos) << csv;
  EXPECT_NE(r.out.find("\nfaults: "), std::string::npos) << r.out;

  Result unchecked =
      run_rsoc("run " + scenario + " --set runtime.recovery.verify_cycles_per_block=0 --out u -q", dir);
  ASSERT_EQ(unchecked.code, 0) << unchecked.err;
  EXPECT_GE(value(slurp(dir / "u" / "stats.json"), "silent_corruptions"), 1);
  EXPECT_NE(slurp(dir / "u" / "requests.csv").find(",ok,0,0,false,true,"), std::string::npos)
      << "no request delivered a wrong output unnoticed";
}

TEST(Cli, DmaFedConfigurationPortIsBoundByTheBus) {
  // The same smoke scenario with a DMA engine feeding the port (set entirely from the command line). Per
  // 1024-word chunk the bus carries the read and the write: 2 * (2 + 1024) cycles * 10 ns = 20.52 us, slower
  // than memory, DMA and port (10.24 us each): 125 chunks = 2565 us. Around it: CTRL START to the port and
  // four DMA register writes (5 * 50 ns), DMA setup (100 ns), then DMA STATUS and port STATUS reads (2 * 50
  // ns).
  const fs::path dir = scratch("dma");
  Result r = run_rsoc("run " + kScenarios +
                          "/smoke_aes.json --set "
                          "'platform.dmas=[{\"name\":\"dma0\",\"bus\":\"plb\",\"base\":\"0x40010000\"}]' "
                          "--set platform.config_port.feed=dma --set platform.config_port.dma=dma0 --out r",
                      dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string csv = slurp(dir / "r" / "requests.csv");
  EXPECT_NE(csv.find(",slot0,true,2.565450,"), std::string::npos) << csv;
}

TEST(Cli, FailedRequestsExitOneWithCompleteResultsThatSaySo) {
  // A core that needs 100,000 cycles per block and a driver that gives up after one status poll.
  const fs::path dir = scratch("failing");
  Result r = run_rsoc("run " + kScenarios +
                          "/smoke_aes.json --set runtime.driver.max_polls=1 --set "
                          "platform.cores.0.block_cycles=100000 --out r",
                      dir);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("4 requests (4 failed)"), std::string::npos) << r.err;
  const std::string csv = slurp(dir / "r" / "requests.csv");
  EXPECT_NE(csv.find(",false,core at 0x80000000 did not become ready after 1 status polls,false,"),
            std::string::npos)
      << csv;
}

TEST(Cli, CrossoverWithAFailingRequestWritesNoTable) {
  const fs::path dir = scratch("crossover_failing");
  Result r = run_rsoc(
      "crossover " + kScenarios +
          "/smoke_aes.json --set runtime.driver.max_polls=1 --set platform.cores.0.block_cycles=100000 "
          "--max-blocks 3 --out x",
      dir);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(
      r.err.find("crossover experiment failed (aes128, 1 blocks, hardware with reconfiguration: core at "
                 "0x80000000 did not become ready after 1 status polls)"),
      std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "x"));
}

TEST(Cli, ModexpCrossoverMatchesItsEstimate) {
  // 1024-bit exponentiations: 95.2 ms in software, 21.3 ms on the core, 153.6 ms to configure it: hardware
  // with reconfiguration wins from 3 exponentiations, simulated and estimated.
  const fs::path dir = scratch("modexp");
  Result r = run_rsoc("crossover " + kScenarios + "/smoke_modexp.json --max-blocks 6 --out x", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "functionality  crossover_blocks  analytic_crossover_blocks\nmodexp1024                    3     "
            "                     3\n");
}

namespace {
// Slots 1-4 x six bus clocks on the reference: 24 points.
const std::string kGrid =
    " --param platform.slots.0.count=1:4:1 --param platform.buses.0.clock_mhz=25,50,75,100,150,200";
}  // namespace

TEST(Cli, SweepTableIsTheSameWhateverTheJobsAndThroughGnuParallel) {
  const fs::path dir = scratch("sweep_jobs");
  // The reference with 5 requests per application (each point then simulates in a fraction of a second).
  const std::string small = kReference + " --set workload.apps.0.requests=5 --set workload.apps.1.requests=5";
  Result one = run_rsoc("sweep " + small + kGrid + " --jobs 1 --out one", dir);
  ASSERT_EQ(one.code, 0) << one.err;
  Result two = run_rsoc("sweep " + small + kGrid + " --jobs 2 --out two", dir);
  ASSERT_EQ(two.code, 0) << two.err;
  const std::string table = slurp(dir / "one" / "sweep.csv");
  EXPECT_EQ(table, slurp(dir / "two" / "sweep.csv"));
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 25);
  EXPECT_EQ(
      table.rfind("point,status,error,platform.slots.0.count,platform.buses.0.clock_mhz,requests,failed,"
                  "simulated_ms,requests_per_s,",
                  0),
      0u);
  // One slot for two functionalities: every request evicts the other core; two slots keep both.
  EXPECT_NE(table.find("\n0,ok,,1,25,"), std::string::npos);
  // The same sweep as a GNU Parallel job list, run for real, then merged.
  Result emit = run_rsoc("sweep " + small + kGrid + " --emit parallel --out par", dir);
  ASSERT_EQ(emit.code, 0) << emit.err;
  EXPECT_NE(emit.out.find("parallel --jobs"), std::string::npos);
  ASSERT_FALSE(fs::exists(dir / "par" / "sweep.csv"));
  const std::string run_jobs =
      "cd '" + dir.string() + "' && parallel --will-cite --jobs 2 < par/jobs.txt > /dev/null";
  ASSERT_EQ(std::system(run_jobs.c_str()), 0);
  Result merged = run_rsoc("merge par", dir);
  ASSERT_EQ(merged.code, 0) << merged.err;
  EXPECT_EQ(slurp(dir / "par" / "sweep.csv"), table);
}

TEST(Cli, SweepRecordsAFailingPointAndKeepsTheOthers) {
  // A core that needs 100,000 cycles per block: a driver that gives up after one status poll fails every
  // request, one that polls long enough does not.
  const fs::path dir = scratch("sweep_failing");
  Result r = run_rsoc("sweep " + kSmoke +
                          " --set platform.cores.0.block_cycles=100000"
                          " --param runtime.driver.max_polls=100000000,1,100000000 --out s",
                      dir);
  EXPECT_EQ(r.code, 1) << r.err;
  const std::string table = slurp(dir / "s" / "sweep.csv");
  EXPECT_NE(table.find("\n0,ok,,100000000,"), std::string::npos) << table;
  EXPECT_NE(table.find("\n1,failed,4 of 4 requests failed,1,"), std::string::npos) << table;
  EXPECT_NE(table.find("\n2,ok,,100000000,"), std::string::npos) << table;
  EXPECT_NE(r.err.find("1 failed"), std::string::npos) << r.err;
}

TEST(Cli, SweepResumeRunsOnlyUnfinishedPointsAndRefusesForeignFolders) {
  const fs::path dir = scratch("sweep_resume");
  const std::string sweep =
      "sweep " + kScenarios + "/smoke_aes.json --param runtime.driver.cycles_per_block=100:300:100";
  ASSERT_EQ(run_rsoc(sweep + " --out s", dir).code, 0);
  const std::string table = slurp(dir / "s" / "sweep.csv");
  fs::remove(dir / "s" / "points" / "0001.json");  // as if that point had been killed
  Result resumed = run_rsoc(sweep + " --out s --resume", dir);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("(2 kept from before, 0 failed)"), std::string::npos) << resumed.err;
  EXPECT_EQ(slurp(dir / "s" / "sweep.csv"), table);
  // Another grid cannot resume this sweep; a folder that is not a sweep is never touched.
  Result other = run_rsoc(
      "sweep " + kSmoke + " --param runtime.driver.cycles_per_block=100:400:100 --out s --resume", dir);
  EXPECT_EQ(other.code, 2);
  EXPECT_NE(other.err.find("holds a different sweep"), std::string::npos) << other.err;
  fs::create_directories(dir / "mine");
  std::ofstream(dir / "mine" / "notes.txt") << "keep me";
  Result foreign = run_rsoc(sweep + " --out mine", dir);
  EXPECT_EQ(foreign.code, 2);
  EXPECT_NE(foreign.err.find("is not an rsoc sweep folder"), std::string::npos) << foreign.err;
  EXPECT_EQ(slurp(dir / "mine" / "notes.txt"), "keep me");
  EXPECT_EQ(run_rsoc("point s 3", dir).code, 2);  // no such point
  // Bad options are refused before anything is written.
  EXPECT_EQ(run_rsoc(sweep + " --emit pbs --out e", dir).code, 2);
  EXPECT_EQ(run_rsoc(sweep + " --jobs 0 --out j", dir).code, 2);
  EXPECT_FALSE(fs::exists(dir / "e"));
  EXPECT_FALSE(fs::exists(dir / "j"));
}

TEST(Cli, CrossoverSweepAndSlurmJobArray) {
  const fs::path dir = scratch("sweep_crossover");
  // A DMA-fed configuration port makes the bus the bottleneck of reconfiguration: a slower bus, a later
  // crossover.
  const std::string dma =
      " --set 'platform.dmas=[{\"name\":\"dma\",\"bus\":\"plb\",\"base\":\"0x40100000\"}]'"
      " --set platform.config_port.feed=dma --set platform.config_port.dma=dma"
      " --set 'energy.dmas={\"dma\":{\"pj_per_word\":100,\"idle_mw\":1}}'";
  Result r = run_rsoc(
      "crossover" + dma + " --param platform.buses.0.clock_mhz=5,25 -f aes128 --max-blocks 30 --out x", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string table = slurp(dir / "x" / "sweep.csv");
  EXPECT_NE(table.find("point,status,error,platform.buses.0.clock_mhz,aes128.crossover_blocks,"
                       "aes128.analytic_crossover_blocks,aes128.energy_crossover_blocks,aes128.searched_to_blocks,"
                       "rsoc_version"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("\n0,ok,,5,23,23,"), std::string::npos) << table;
  EXPECT_NE(table.find("\n1,ok,,25,3,3,"), std::string::npos) << table;
  EXPECT_TRUE(fs::exists(dir / "x" / "points" / "0000" / "crossover.csv"));
  // The same grid for a Slurm cluster: one array task per point, each `rsoc point DIR INDEX`.
  Result slurm = run_rsoc("sweep " + kReference + kGrid + " --emit slurm --jobs 8 --out cluster", dir);
  ASSERT_EQ(slurm.code, 0) << slurm.err;
  const std::string script = slurp(dir / "cluster" / "sweep.slurm");
  EXPECT_NE(script.find("#SBATCH --array=0-23%8\n"), std::string::npos) << script;
  EXPECT_NE(script.find(" point '" + fs::absolute(dir / "cluster").string() + "' \"$SLURM_ARRAY_TASK_ID\"\n"),
            std::string::npos)
      << script;
}

TEST(Cli, SweepProgressIsABarOnATerminalAndLinesOtherwise) {
  const fs::path dir = scratch("sweep_progress");
  const std::string sweep = std::string(rsoc_test::kRsocBinary) + " sweep " + kScenarios +
                            "/smoke_aes.json --param runtime.driver.cycles_per_block=100,200 --out ";
  // `script` gives the command a terminal.
  const std::string on_tty =
      "cd '" + dir.string() + "' && script -qec \"" + sweep + "a\" /dev/null > tty.txt";
  ASSERT_EQ(std::system(on_tty.c_str()), 0);
  const std::string tty = slurp(dir / "tty.txt");
  EXPECT_NE(tty.find("\r[###############...............] 1/2 points, 0 failed, ETA "), std::string::npos)
      << tty;
  Result plain = run_rsoc(
      "sweep " + kScenarios + "/smoke_aes.json --param runtime.driver.cycles_per_block=100,200 --out b", dir);
  EXPECT_NE(plain.err.find("rsoc: point 0001 (runtime.driver.cycles_per_block=200) ok; "), std::string::npos)
      << plain.err;
  EXPECT_EQ(plain.err.find('\r'), std::string::npos);
}

TEST(Cli, ReproduceComparesEveryReferenceSystemWithItsPublishedFigures) {
  const fs::path dir = scratch("reproduce");
  Result r = run_rsoc("reproduce --out rep", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string csv = slurp(dir / "rep" / "reproduce.csv");
  EXPECT_EQ(csv.rfind("system,figure,kind,published,simulated,error_pct\n", 0), 0u);
  EXPECT_NE(csv.find("\nsoc,crossover_blocks.aes128,calibrated,40,40.000,0.00\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nsoc,crossover_blocks.des,calibrated,80,80.000,0.00\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nsoc,reconfiguration_ms,calibrated,150,149.769,-0.15\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nsoc,software_throughput_kBps.aes128,predicted,,"), std::string::npos)
      << csv;  // a prediction
  // The energy crossovers, with the scenario's energy model: where hardware costs less energy, predicted.
  EXPECT_NE(csv.find("\nsoc,energy_crossover_blocks.aes128,predicted,,40.000,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nsoc,energy_crossover_blocks.des,predicted,,80.000,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nsoc,reconfiguration_mj,predicted,,"), std::string::npos) << csv;
  // The HSM: the calibrated single-client rate (its latency follows from it), then predictions for 1-8
  // clients and for every variant at 1, 2 and 4 clients.
  EXPECT_NE(csv.find("\nhsm,sigs_per_s.clients=1,calibrated,5.68,5.680,0.00\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nhsm,latency_ms.clients=1,derived,,176.049,\n"), std::string::npos) << csv;
  for (int n = 2; n <= 8; ++n)
    for (const char* figure : {"sigs_per_s", "latency_ms"})
      EXPECT_NE(csv.find("\nhsm," + std::string(figure) + ".clients=" + std::to_string(n) + ",predicted,,"),
                std::string::npos)
          << figure << n;
  for (const char* variant : {"half_cores", "aes_2x", "hw_nwait", "hw_byteswap", "hw_nwait+hw_byteswap"})
    for (const char* n : {"1", "2", "4"})
      EXPECT_NE(csv.find(std::string("\nhsm,sigs_per_s.clients=") + n + "." + variant + ",predicted,,"),
                std::string::npos)
          << variant << n;
  EXPECT_NE(r.out.find("soc      cached_throughput_kBps.aes128"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir / "rep" / "soc" / "crossover" / "crossover.csv"));
  EXPECT_TRUE(fs::exists(dir / "rep" / "hsm" / "clients=4" / "breakdown.csv"));
  // The Cell engine: four published sign rates from one parameter set, each within 1 %; the four published
  // verify rates predicted (no input fitted to them), and under the other reading of the engine.
  auto cell_row = [&](const std::string& figure) {
    const auto at = csv.find("\ncell," + figure);
    if (at == std::string::npos) return std::string();
    return csv.substr(at + 1, csv.find('\n', at + 1) - at - 1);
  };
  for (const char* figure :
       {"sign_per_s.engine=off.procs=1,calibrated,9.2,", "sign_per_s.engine=off.procs=15,calibrated,11,",
        "sign_per_s.engine=on.procs=1,calibrated,10.2,", "sign_per_s.engine=on.procs=15,calibrated,47.8,"}) {
    const std::string row = cell_row(figure);
    ASSERT_FALSE(row.empty()) << figure << "\n" << csv;
    EXPECT_LT(std::abs(std::stod(row.substr(row.rfind(',') + 1))), 1.0) << row;
  }
  for (const char* figure : {"verify_per_s.engine=off.procs=1,predicted,574.1,",
                             "verify_per_s.engine=off.procs=15,predicted,824.7,",
                             "verify_per_s.engine=on.procs=1,predicted,579.7,",
                             "verify_per_s.engine=on.procs=15,predicted,1832.2,",
                             "verify_per_s.engine=on.procs=1.verify_offloaded,predicted,579.7,",
                             "verify_per_s.engine=on.procs=15.verify_offloaded,predicted,1832.2,"})
    EXPECT_FALSE(cell_row(figure).empty()) << figure << "\n" << csv;
  // desrnd: the published speed-ups of in-line assembly at two rounds per instruction (the calibration),
  // predictions for the other integrations, and the coupling trade-off gathered into one table.
  EXPECT_NE(csv.find("\ndesrnd,speedup.des,calibrated,47,47.000,0.00\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ndesrnd,speedup.3des,calibrated,92,92.000,0.00\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ndesrnd,speedup.3des.c_module.rpi=1,predicted,,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ndesrnd,data_rate_mbps.3des.inline_asm.rpi=2,predicted,,312.195,"), std::string::npos)
      << csv;
  // Where one implementation overtakes another (scenarios/desrnd_3des.md), and no row where it never does.
  for (const char* row :
       {"coupling.crossover_blocks.3des.core_reconfigurable_beats_software,predicted,,256.000,",
        "coupling.crossover_blocks.des.core_reconfigurable_beats_software,predicted,,1024.000,",
        "coupling.crossover_blocks.3des.core_static_beats_software,predicted,,1.000,"})
    EXPECT_NE(csv.find(std::string("\ndesrnd,") + row), std::string::npos) << row << "\n" << csv;
  EXPECT_EQ(csv.find("core_static_beats_extension"), std::string::npos) << csv;
  const std::string coupling = slurp(dir / "rep" / "desrnd" / "coupling.csv");
  EXPECT_EQ(
      coupling.rfind("functionality,implementation,blocks,latency_ms,throughput_kBps,cpu_left_pct\n", 0), 0u);
  for (const char* row : {"\ndes,software,4096,", "\n3des,extension,1,", "\n3des,core_static,1024,",
                          "\ndes,core_reconfigurable,16,"})
    EXPECT_NE(coupling.find(row), std::string::npos) << row;
  EXPECT_EQ(run_rsoc("reproduce --out x --system hsn", dir).code, 2);
  // A system that cannot run fails the whole reproduction: no table that looks complete. Its scenario is
  // missing: a scenario error (2).
  fs::create_directories(dir / "empty");
  Result broken = run_rsoc("reproduce --out y --scenarios empty", dir);
  EXPECT_EQ(broken.code, 2);
  EXPECT_NE(broken.err.find("os_aes_des.json"), std::string::npos) << broken.err;
  EXPECT_FALSE(fs::exists(dir / "y"));
}

TEST(Cli, TraceAndVcdFlagsSetTheOutputKeys) {
  const fs::path dir = scratch("timeline");
  const std::string smoke = "run " + kScenarios + "/smoke_aes.json";
  ASSERT_EQ(run_rsoc(smoke + " --out off", dir).code, 0);
  EXPECT_FALSE(fs::exists(dir / "off" / "trace.json"));
  EXPECT_FALSE(fs::exists(dir / "off" / "timeline.vcd"));
  for (const char* out : {"on", "again"}) {
    Result r = run_rsoc(smoke + " --trace --vcd-window 100: --out " + out, dir);
    ASSERT_EQ(r.code, 0) << r.err;
  }
  EXPECT_TRUE(fs::exists(dir / "on" / "timeline.vcd"));
  EXPECT_EQ(slurp(dir / "on" / "trace.json"), slurp(dir / "again" / "trace.json"));  // deterministic
  // Also the VCD: SystemC's wall-clock $date is replaced (runs a second apart would differ).
  const std::string vcd = slurp(dir / "on" / "timeline.vcd");
  EXPECT_EQ(vcd.substr(0, vcd.find("$version")),
            "$date\n     see host.json (results are the same from run to run)\n$end\n\n");
  EXPECT_EQ(vcd, slurp(dir / "again" / "timeline.vcd"));

  // A window after the run's end (154.754 ms) is a warning, the results as usual.
  Result late = run_rsoc(smoke + " --trace-window 5000:6000 --vcd-window 200: --out late", dir);
  EXPECT_EQ(late.code, 0) << late.err;
  EXPECT_NE(
      late.err.find("rsoc: warning: trace.json shows nothing: its window (outputs.trace.start_ms) starts at "
                    "5000 ms, after the run ended at 154.754 ms\n"),
      std::string::npos)
      << late.err;
  EXPECT_NE(
      late.err.find("rsoc: warning: timeline.vcd shows nothing: its window (outputs.vcd.start_ms) starts "
                    "at 200 ms, after the run ended at 154.754 ms\n"),
      std::string::npos)
      << late.err;
  EXPECT_TRUE(fs::exists(dir / "late" / "summary.csv"));
  const auto outputs = nlohmann::json::parse(slurp(dir / "on" / "resolved_scenario.json")).at("outputs");
  EXPECT_EQ(outputs.at("trace"),
            nlohmann::json::parse(R"({"start_ms": 0.0, "end_ms": null, "bus_merge_gap_us": 10.0})"));
  EXPECT_EQ(outputs.at("vcd"), nlohmann::json::parse(R"({"start_ms": 100.0, "end_ms": null})"));

  Result malformed = run_rsoc(smoke + " --trace-window 5 --out x", dir);
  EXPECT_EQ(malformed.code, 2);
  EXPECT_NE(
      malformed.err.find("--trace-window: expected START_MS:END_MS (numbers; END_MS empty: to the end), "
                         "got \"5\""),
      std::string::npos)
      << malformed.err;
  Result backwards = run_rsoc(smoke + " --trace-window 20:10 --out y", dir);
  EXPECT_EQ(backwards.code, 2);
  EXPECT_NE(backwards.err.find("/outputs/trace/end_ms: end_ms (10.0) must be greater than start_ms (20.0)"),
            std::string::npos)
      << backwards.err;
  EXPECT_FALSE(fs::exists(dir / "x"));
  EXPECT_FALSE(fs::exists(dir / "y"));
}

TEST(Cli, GoldenSummaries) {
  // Small runs of the HSM and Cell references, and the fault experiment, against their committed summaries
  // (tests/golden/README.md).
  const fs::path dir = scratch("golden");
  const std::string golden = std::string(rsoc_test::kSourceDir) + "/tests/golden/";
  ASSERT_EQ(
      run_rsoc(
          "run " + kScenarios +
              "/hsm_rsa2048.json --set workload.hsm.clients=2 --set workload.hsm.signatures_per_client=3 "
              "--out h",
          dir)
          .code,
      0);
  EXPECT_EQ(slurp(dir / "h" / "summary.csv"), slurp(golden + "hsm_rsa2048.summary.csv"));
  ASSERT_EQ(run_rsoc("run " + kScenarios +
                         "/cell_rsa4096.json --set workload.apps.0.count=3 --set workload.apps.1.count=3 "
                         "--set workload.apps.0.duration_ms=200 --set workload.apps.1.duration_ms=20 --out c",
                     dir)
                .code,
            0);
  EXPECT_EQ(slurp(dir / "c" / "summary.csv"), slurp(golden + "cell_rsa4096.summary.csv"));
  // The fault experiment whole: its upsets, configuration errors, scrubs and recoveries are drawn from its
  // fault seed, so any change in a fault stream or a recovery moves its requests' times and decisions.
  Result f = run_rsoc("run " + kScenarios + "/faults_aes_des.json --out f", dir);
  ASSERT_EQ(f.code, 0) << f.err;
  EXPECT_EQ(slurp(dir / "f" / "summary.csv"), slurp(golden + "faults_aes_des.summary.csv"));
  EXPECT_NE(f.out.find("\nfaults: "), std::string::npos) << f.out;
}

// `rsoc verify des`: DES/3DES on the desrnd extension unit against OpenSSL.
TEST(Cli, VerifyDesAgreesOnRandomPairs) {
  const fs::path dir = scratch("verify");
  Result r = run_rsoc("verify des --pairs 20000", dir);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  for (const char* line :
       {"desrnd DES/3DES verification against OpenSSL", "SP 800-17 vectors: not checked (--vectors [FILE])\n",
        "pairs checked: 20000 of 20000 (seed 1)\n", "variants: 8 (DES encrypt, 1 round/instruction; ",
        "3DES decrypt, 2 rounds/instruction)\n", "blocks compared: 160000\n", "result: all agree\n"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  // Progress on stderr: a line per 5% (the library reports every 1024 pairs), ending with the total.
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 20) << r.err;
  EXPECT_EQ(r.err.rfind("rsoc: verify des: 1024 of 20000 pairs (5%)\n", 0), 0U) << r.err;
  EXPECT_NE(r.err.find("rsoc: verify des: 20000 of 20000 pairs (100%)\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("verify des:"), std::string::npos) << "progress leaked to stdout";

  Result h = run_rsoc("--help", dir);
  EXPECT_NE(h.out.find("verify des"), std::string::npos) << h.out;
  Result unknown = run_rsoc("verfy", dir);
  EXPECT_NE(unknown.err.find("schema, verify;"), std::string::npos) << unknown.err;
}

TEST(Cli, VerifyDesWithVectorsOneConfiguration) {
  const fs::path dir = scratch("verify_vectors");
  // Without a file, --vectors checks the build's copy of the tables (tests/data), wherever rsoc runs.
  Result r = run_rsoc("verify des --pairs 300 --seed 7 --vectors --rounds-per-instruction 2", dir);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("SP 800-17 vectors: 120 of 120 (480 blocks)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pairs checked: 300 of 300 (seed 7)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("variants: 4 (DES encrypt, 2 rounds/instruction; "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("1 round/instruction"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("blocks compared: 1200\n"), std::string::npos) << r.out;
  // A small run reports its progress once.
  EXPECT_EQ(r.err, "rsoc: verify des: 300 of 300 pairs (100%)\n");

  // A file given is the one checked: the first three rows of the tables.
  const std::string tables = std::string(rsoc_test::kTestDataDir) + "/des_sp800_17_tables.txt";
  std::ifstream in(tables);
  std::ofstream three(dir / "three.txt");
  std::string line;
  for (int rows = 0; rows < 3 && std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    three << line << "\n";
    ++rows;
  }
  three.close();
  Result f = run_rsoc("verify des --pairs 10 --rounds-per-instruction 1 --vectors three.txt", dir);
  ASSERT_EQ(f.code, 0) << f.out << f.err;
  EXPECT_NE(f.out.find("SP 800-17 vectors: 3 of 3 (12 blocks)\n"), std::string::npos) << f.out;
  Result last = run_rsoc("verify des --pairs 10 --rounds-per-instruction 1 --vectors", dir);
  ASSERT_EQ(last.code, 0) << last.out << last.err;
  EXPECT_NE(last.out.find("SP 800-17 vectors: 120 of 120 (480 blocks)\n"), std::string::npos) << last.out;

  // The help names the build's copy.
  Result help = run_rsoc("verify --help", dir);
  EXPECT_NE(help.out.find(tables), std::string::npos) << help.out;
}

TEST(Cli, VerifyDesProgressIsThrottledToFivePercentSteps) {
  const fs::path dir = scratch("verify_progress");
  Result r = run_rsoc("verify des --pairs 100000 --rounds-per-instruction 2", dir);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  // 98 reports from the library (every 1024 pairs, and the end); a line only when another 5% is done.
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 20) << r.err;
  EXPECT_EQ(r.err.rfind("rsoc: verify des: 5120 of 100000 pairs (5%)\n", 0), 0U) << r.err;
  EXPECT_NE(r.err.find("rsoc: verify des: 95232 of 100000 pairs (95%)\nrsoc: verify des: 100000 of 100000 "
                       "pairs (100%)\n"),
            std::string::npos)
      << r.err;
}

TEST(Cli, VerifyBadArgumentsExitTwo) {
  const fs::path dir = scratch("verify_bad");
  const std::pair<const char*, const char*> cases[] = {
      {"verify aes --pairs 10", "unknown algorithm \"aes\" (algorithms: des)"},
      {"verify --pairs 10", "verify needs an algorithm"},
      {"verify des des --pairs 10", "verify takes one algorithm"},
      {"verify des", "verify des needs --pairs N"},
      {"verify des --pairs 0", "--pairs 0: expected a whole number from 1 to 18446744073709551615"},
      {"verify des --pairs abc", "--pairs abc: expected a whole number from 1 to 18446744073709551615"},
      {"verify des --pairs -5", "--pairs -5: expected a whole number from 1 to 18446744073709551615"},
      {"verify des --pairs 99999999999999999999999",
       "--pairs 99999999999999999999999: expected a whole number from 1 to 18446744073709551615"},
      {"verify des --pairs 10 --seed 0x1",
       "--seed 0x1: expected a whole number from 0 to 18446744073709551615"},
      {"verify des --pairs 10 --rounds-per-instruction 3",
       "--rounds-per-instruction 3: expected 1, 2 or both"},
      {"verify des --pairs 10 --vectors no_such_file.txt",
       "--vectors: no_such_file.txt: cannot open the DES vectors file: No such file or directory"},
      {"verify des --pairs 10 --vectors .", "--vectors: .: cannot read the DES vectors file: Is a directory"},
      {"verify des --pairs 10 --bogus", "unrecognised option '--bogus'"},
  };
  for (const auto& [args, message] : cases) {
    Result r = run_rsoc(args, dir);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
  Result help = run_rsoc("verify --help", dir);
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--rounds-per-instruction"), std::string::npos) << help.out;
}

// `rsoc sensitivity`: the scenario at its base values and at each end of each assumption.
namespace {
const std::string kSensitivityHeader =
    "parameter,low,high,metric,at_low,at_base,at_high,swing_pct,at_low_beyond,at_base_beyond,at_high_beyond,"
    "rsoc_version,scenario_sha256,seed\n";

// The rows of a sensitivity.csv without the censored bounds and the provenance columns (the last six).
std::string sensitivity_rows(const fs::path& csv) {
  std::istringstream lines(slurp(csv));
  std::string line, out;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    for (int i = 0; i < 6; ++i) line.erase(line.rfind(','));
    out += line + "\n";
  }
  return out;
}
}  // namespace

TEST(Cli, SensitivityOfSoftwareToTheCpuClockAndOfACompensatedTradeOff) {
  // Software AES on smoke_aes: (20,000 + 64 * 3,000) cycles per request = 2.12 ms at 100 MHz, 4.24 ms at 50,
  // 1.06 ms at 200: swing (1.06 - 4.24) / 2.12 = -150 %. Four requests, each followed by 100 us of think
  // time: 4 / (4 * 2.22 ms) = 450.45 requests/s. The driver's cost does not touch software. Doubling the
  // clock together with every software cycle count keeps the calibrated latency.
  const fs::path dir = scratch("sensitivity_software");
  Result r =
      run_rsoc("sensitivity " + kSmoke +
                   " --set runtime.policy=software --vary platform.cpus.0.clock_mhz=50:200"
                   " --vary 'platform.cpus.0.clock_mhz=50:200,software.aes128.cycles_per_request=10000:40000,"
                   "software.aes128.cycles_per_block=1500:6000'"
                   " --vary runtime.driver.cycles_per_block=100:400"
                   " --metric aes128.software.latency_mean_ms --metric requests_per_s --jobs 2 --out s",
               dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string csv = slurp(dir / "s" / "sensitivity.csv");
  EXPECT_EQ(csv.rfind(kSensitivityHeader, 0), 0u) << csv;
  const std::string compound =
      "platform.cpus.0.clock_mhz+software.aes128.cycles_per_request+software.aes128.cycles_per_block,"
      "50+10000+1500,200+40000+6000,";
  EXPECT_EQ(
      sensitivity_rows(dir / "s" / "sensitivity.csv"),
      "platform.cpus.0.clock_mhz,50,200,aes128.software.latency_mean_ms,4.240000,2.120000,1.060000,-150.00\n"
      "platform.cpus.0.clock_mhz,50,200,requests_per_s,230.414747,450.450450,862.068966,140.23\n" +
          compound + "aes128.software.latency_mean_ms,2.120000,2.120000,2.120000,0.00\n" + compound +
          "requests_per_s,450.450450,450.450450,450.450450,0.00\n"
          "runtime.driver.cycles_per_block,100,400,aes128.software.latency_mean_ms,2.120000,2.120000,"
          "2.120000,0.00\n"
          "runtime.driver.cycles_per_block,100,400,requests_per_s,450.450450,450.450450,450.450450,0.00\n");
  // Provenance: the base point's scenario and seed, as in its sweep.csv row (point 0, no override).
  const std::string sweep = slurp(dir / "s" / "sweep.csv");
  EXPECT_EQ(sweep.rfind("point,status,error,platform.cpus.0.clock_mhz,software.aes128.cycles_per_request,"
                        "software.aes128.cycles_per_block,runtime.driver.cycles_per_block,requests,failed,"
                        "simulated_ms,requests_per_s,",
                        0),
            0u)
      << sweep;
  const std::string base_row = sweep.substr(sweep.find("\n0,ok,,,,,,") + 1);
  const std::string provenance =
      base_row.substr(base_row.find(",0.1.0,"), base_row.find('\n') - base_row.find(",0.1.0,"));
  std::istringstream rows(csv);
  std::string row;
  std::getline(rows, row);
  while (std::getline(rows, row)) EXPECT_EQ(row.substr(row.size() - provenance.size()), provenance) << row;
  EXPECT_EQ(std::count(sweep.begin(), sweep.end(), '\n'), 8);  // header, base, two ends of three assumptions
  // The aligned table on stdout.
  EXPECT_EQ(r.out.rfind("parameter  ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("  aes128.software.latency_mean_ms    4.240000    2.120000    1.060000    -150.00\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("rsoc: point 0000 (base values) ok;"), std::string::npos) << r.err;
}

TEST(Cli, SensitivityOfHardwareLatencyToTheDriverCost) {
  // Hardware AES on smoke_aes: the driver's cycles per block are CPU work in every request. The median
  // request finds the core cached; from 200 to 100 cycles per block it saves 100 * 64 cycles at 100 MHz (64
  // us), to 400 it pays 200 * 64 more (128 us).
  const fs::path dir = scratch("sensitivity_hardware");
  Result r =
      run_rsoc("sensitivity " + kSmoke +
                   " --vary runtime.driver.cycles_per_block=100:400 --metric aes128.hardware.latency_p50_ms"
                   " --out h",
               dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(
      sensitivity_rows(dir / "h" / "sensitivity.csv"),
      "runtime.driver.cycles_per_block,100,400,aes128.hardware.latency_p50_ms,0.124320,0.188320,0.316320,"
      "101.95\n");
}

TEST(Cli, SensitivityOfTheCrossover) {
  // The reference crossover (40 AES blocks) is the reconfiguration time over what hardware saves per block:
  // halving the CPU's copy loop (58 cycles per bitstream word instead of 117) halves it, doubling doubles it
  // (79 simulated, 80 estimated: the boundary falls within the kernel daemon's share). Software per byte
  // moves what hardware saves per 4 KiB block: 290 cycles a byte save 2.66 ms (150 / 2.66 = 56.4), 400
  // save 7.16 ms (21).
  const fs::path dir = scratch("sensitivity_crossover");
  Result r = run_rsoc("sensitivity " + kReference +
                          " --experiment crossover -f aes128 --max-blocks 100"
                          " --vary platform.config_port.cpu_copy_cycles_per_word=58:234"
                          " --vary software.aes128.cycles_per_byte=290:400 --metric aes128.crossover_blocks"
                          " --metric aes128.analytic_crossover_blocks --out x",
                      dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sensitivity_rows(dir / "x" / "sensitivity.csv"),
            "platform.config_port.cpu_copy_cycles_per_word,58,234,aes128.crossover_blocks,20,40,79,147.50\n"
            "platform.config_port.cpu_copy_cycles_per_word,58,234,aes128.analytic_crossover_blocks,20,40,80,"
            "150.00\n"
            "software.aes128.cycles_per_byte,290,400,aes128.crossover_blocks,56,40,21,-87.50\n"
            "software.aes128.cycles_per_byte,290,400,aes128.analytic_crossover_blocks,56,40,21,-87.50\n");
  EXPECT_TRUE(fs::exists(dir / "x" / "points" / "0000" / "crossover.csv"));
}

TEST(Cli, SensitivityErrorsComeFirstAndLeaveFoldersAlone) {
  const fs::path dir = scratch("sensitivity_errors");
  // A finished study and a folder of someone else's: neither may be touched by a command that is refused.
  ASSERT_EQ(run_rsoc("sensitivity " + kSmoke +
                         " --vary runtime.driver.cycles_per_block=100:400 --metric requests"
                         " --out done",
                     dir)
                .code,
            0);
  const std::string done = slurp(dir / "done" / "sensitivity.csv");
  fs::create_directories(dir / "mine");
  std::ofstream(dir / "mine" / "notes.txt") << "keep me";
  const std::string smoke = "sensitivity " + kSmoke;
  const std::pair<std::string, std::string> cases[] = {
      {smoke + " --out done", "rsoc: sensitivity needs at least one --vary path=LOW:HIGH\n"},
      {"sensitivity --vary a=1:2 --out done", "rsoc: sensitivity needs a scenario file\n"},
      {smoke + " --vary a=1:2", "rsoc: sensitivity needs --out DIR\n"},
      {smoke + " --vary platform.cpus.0.clock_mhz --out done",
       "rsoc: --vary platform.cpus.0.clock_mhz: expected path=LOW:HIGH (several inputs moved together: "
       "path=LOW:HIGH,...)\n"},
      {smoke + " --vary platform.cpus.0.clock_mhz=50 --out done",
       "rsoc: --vary platform.cpus.0.clock_mhz=50: expected LOW:HIGH after \"platform.cpus.0.clock_mhz=\", "
       "with "
       "one ':' outside JSON brackets and strings; found none\n"},
      {smoke + " --vary platform.cpus.0.clock_mhz=100:100 --out done",
       "rsoc: --vary platform.cpus.0.clock_mhz=100:100: LOW and HIGH are the same value (100); an assumption "
       "moves its input (a fixed value goes in --set)\n"},
      {smoke + " --vary platform.cpus.0.clok_mhz=50:200 --out done",
       "--vary platform.cpus.0.clok_mhz=50:200: smoke_aes.json: /platform/cpus/0/clok_mhz: unknown key "
       "\"clok_mhz\"; did you mean \"clock_mhz\"?\n"},
      {smoke + " --vary 'runtime.driver.cycles_per_block=100:400,platform.cpus.0.clock_mhz=0:200' --out done",
       "--vary runtime.driver.cycles_per_block=100:400,platform.cpus.0.clock_mhz=0:200, low end: "
       "smoke_aes.json: /platform/cpus/0/clock_mhz: 0 is out of range; expected a number (MHz) >= 0.001 and "
       "<= 100000\n"},
      {smoke + " --vary a=1:2 --set platform.cpus.0.clok_mhz=5 --out done",
       "--set platform.cpus.0.clok_mhz=5: /platform/cpus/0/clok_mhz: unknown key \"clok_mhz\"; did you mean "
       "\"clock_mhz\"?\n"},
      {smoke + " --vary platform.cpus.0.clock_mhz=50:200 --experiment sweep --out done",
       "rsoc: --experiment sweep: expected run or crossover\n"},
      {smoke + " --vary platform.cpus.0.clock_mhz=50:200 --max-blocks 5 --out done",
       "rsoc: --functionality, --max-blocks and --table go with --experiment crossover\n"},
      {smoke + " --vary platform.cpus.0.clock_mhz=50:200 --experiment crossover -f rsa --out done",
       "--functionality rsa: \"rsa\" is not one of \"aes128\", \"des\", \"3des\", \"modexp1024\", "
       "\"modexp2048\", \"modexp4096\", \"rsa2048_crt\", \"rsa4096_crt\", \"rsa4096_verify\"\n"},
      {smoke + " --vary platform.cpus.0.clock_mhz=50:200 --metric requests --metric requests --out done",
       "rsoc: --metric requests is given twice\n"},
      {smoke + " --vary platform.cpus.0.clock_mhz=50:200 --jobs 0 --out done",
       "rsoc: --jobs 0: expected a whole number from 1 to 1000000\n"},
      {smoke + " --vary platform.cpus.0.clock_mhz=50:200 --out mine",
       "rsoc: mine exists and is not an rsoc sweep folder (no sweep.json): not touched\n"},
  };
  for (const auto& [args, message] : cases) {
    Result r = run_rsoc(args, dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, message) << args;
    EXPECT_EQ(r.out, "") << args;
  }
  EXPECT_EQ(slurp(dir / "done" / "sensitivity.csv"), done);
  EXPECT_EQ(slurp(dir / "mine" / "notes.txt"), "keep me");
  EXPECT_FALSE(fs::exists(dir / "mine" / "sweep.json"));
  Result help = run_rsoc("sensitivity --help", dir);
  EXPECT_EQ(help.code, 0);
  for (const char* text : {"--vary", "--metric", "--experiment", "swing_pct", "compensation"})
    EXPECT_NE(help.out.find(text), std::string::npos) << text << "\n" << help.out;
  EXPECT_NE(run_rsoc("--help", dir).out.find("  sensitivity SCENARIO "), std::string::npos);
}

TEST(Cli, SensitivityUnknownMetricIsReportedAfterTheBasePointWithoutATable) {
  const fs::path dir = scratch("sensitivity_metric");
  const std::string study = "sensitivity " + kSmoke + " --vary runtime.driver.cycles_per_block=100:400";
  ASSERT_EQ(run_rsoc(study + " --metric requests --out m", dir).code, 0);
  ASSERT_TRUE(fs::exists(dir / "m" / "sensitivity.csv"));
  // Resumed with metrics the base point does not have: the earlier table goes, no new one comes, and only the
  // base point has run.
  Result r = run_rsoc(
      study + " --metric aes128.hardware.latency_ms --metric requests_per_second --resume --out m", dir);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(
      r.err.find("rsoc: --metric aes128.hardware.latency_ms: not a metric of the base point; nearest: "
                 "aes128.hardware.latency_p50_ms, aes128.hardware.latency_p99_ms, "
                 "aes128.hardware.latency_mean_ms\n"
                 "--metric requests_per_second: not a metric of the base point; nearest: requests_per_s, "
                 "requests, prefetches_useful\n"),
      std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(dir / "m" / "sensitivity.csv"));
  // A new study stops after its base point.
  Result fresh = run_rsoc(study + " --metric latency --out n", dir);
  EXPECT_EQ(fresh.code, 2) << fresh.err;
  EXPECT_TRUE(fs::exists(dir / "n" / "points" / "0000.json"));
  EXPECT_FALSE(fs::exists(dir / "n" / "points" / "0001.json"));
  EXPECT_FALSE(fs::exists(dir / "n" / "sensitivity.csv"));
  // Corrected, it resumes from the base point.
  Result fixed = run_rsoc(study + " --metric aes128.hardware.latency_mean_ms --resume --out n", dir);
  ASSERT_EQ(fixed.code, 0) << fixed.err;
  EXPECT_NE(fixed.err.find("(1 kept from before, 0 failed)"), std::string::npos) << fixed.err;
  EXPECT_EQ(
      sensitivity_rows(dir / "n" / "sensitivity.csv"),
      "runtime.driver.cycles_per_block,100,400,aes128.hardware.latency_mean_ms,38.524465,38.588465,38.716465,"
      "0.50\n");
}

TEST(Cli, SensitivityWithAFailingPointWritesNoTable) {
  const fs::path dir = scratch("sensitivity_failing");
  // A core that needs 100,000 cycles per block: one status poll is not enough, the default is.
  Result r =
      run_rsoc("sensitivity " + kSmoke +
                   " --set platform.cores.0.block_cycles=100000 --vary runtime.driver.max_polls=1:100000000"
                   " --metric requests --out f",
               dir);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("rsoc: no sensitivity.csv: 1 of 3 points did not succeed\npoint 0001 "
                       "(runtime.driver.max_polls=1) failed: 4 of 4 requests failed\n"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "f" / "sensitivity.csv"));
  EXPECT_NE(slurp(dir / "f" / "sweep.csv").find("\n1,failed,4 of 4 requests failed,1,"), std::string::npos);
  // A failing base point: nothing else runs.
  Result base = run_rsoc("sensitivity " + kSmoke +
                             " --set platform.cores.0.block_cycles=100000 --set runtime.driver.max_polls=1"
                             " --vary runtime.driver.max_polls=2:100000000 --out b",
                         dir);
  EXPECT_EQ(base.code, 1) << base.err;
  EXPECT_NE(base.err.find("rsoc: no sensitivity.csv: the base point 0000 (base) failed: 4 of 4 requests "
                          "failed\n"),
            std::string::npos)
      << base.err;
  EXPECT_FALSE(fs::exists(dir / "b" / "points" / "0001.json"));
}

TEST(Cli, SensitivityThroughGnuParallelAndMergeGivesTheSameTable) {
  // The threshold policy sends 64-block requests to hardware from a threshold of 1 block (and 64, the base),
  // to software from 100: a JSON value at each end, with commas inside.
  const fs::path dir = scratch("sensitivity_parallel");
  const std::string study = "sensitivity " + kSmoke +
                            " --set runtime.policy=threshold --set 'runtime.thresholds={\"aes128\":64}'"
                            " --vary 'runtime.thresholds={\"aes128\":1,\"des\":1}:{\"aes128\":100,\"des\":1}'"
                            " --vary runtime.driver.cycles_per_block=100:400";
  Result local = run_rsoc(study + " --out local", dir);
  ASSERT_EQ(local.code, 0) << local.err;
  Result emit = run_rsoc(study + " --emit parallel --out par", dir);
  ASSERT_EQ(emit.code, 0) << emit.err;
  EXPECT_FALSE(fs::exists(dir / "par" / "sensitivity.csv"));
  const std::string run_jobs =
      "cd '" + dir.string() + "' && parallel --will-cite --jobs 2 < par/jobs.txt > /dev/null";
  ASSERT_EQ(std::system(run_jobs.c_str()), 0);
  Result merged = run_rsoc("merge par", dir);
  ASSERT_EQ(merged.code, 0) << merged.err;
  EXPECT_EQ(slurp(dir / "par" / "sensitivity.csv"), slurp(dir / "local" / "sensitivity.csv"));
  EXPECT_EQ(merged.out, local.out);  // the table, printed by both
  EXPECT_EQ(merged.out.rfind("parameter  ", 0), 0u) << merged.out;
  // Without --metric, every metric of the base point, in its order; a figure a point does not have is empty
  // (no hardware request at the high end), and so is its swing.
  const std::string rows = sensitivity_rows(dir / "local" / "sensitivity.csv");
  const std::string thresholds =
      "runtime.thresholds,\"{\"\"aes128\"\":1,\"\"des\"\":1}\",\"{\"\"aes128\"\":100,\"\"des\"\":1}\",";
  EXPECT_EQ(rows.rfind(thresholds + "requests,4,4,4,0.00\n" + thresholds + "failed,0,0,0,\n" + thresholds +
                           "simulated_ms,154.753860,154.753860,8.880000,-94.26\n" + thresholds +
                           "requests_per_s,25.847497,25.847497,450.450450,1642.72\n" + thresholds +
                           "reconfigurations,1,1,0,-100.00\n" + thresholds +
                           "reconfigurations_optimal,1,1,0,-100.00\n" + thresholds + "prefetches,0,0,0,\n" +
                           thresholds + "prefetches_useful,0,0,0,\n" + thresholds +
                           "reconfiguration_hidden_ms,0,0,0,\n" + thresholds + "aes128.hardware.count,4,4,,\n",
                       0),
            0u)
      << rows;
  EXPECT_NE(
      rows.find("\nruntime.driver.cycles_per_block,100,400,aes128.hardware.latency_p50_ms,0.124320,0.188320,"
                "0.316320,101.95\n"),
      std::string::npos)
      << rows;
}

TEST(Cli, SensitivityRunsOnEveryShippedScenario) {
  // Each shipped scenario, made small, with its CPU clock halved and doubled: the request rate moves.
  const fs::path dir = scratch("sensitivity_shipped");
  const std::map<std::string, std::string> small{
      {"cell_rsa4096",
       " --set workload.apps.0.count=1 --set workload.apps.1.count=1 --set workload.apps.0.duration_ms=200"
       " --set workload.apps.1.duration_ms=20"},
      {"hsm_rsa2048", " --set workload.hsm.signatures_per_client=2"},
      // (its RTL cores take every word of the reference's 45 MB: 16 s a run as shipped)
      {"os_aes_des_rtl", " --set workload.apps.0.requests=4 --set workload.apps.1.requests=4"},
      {"desrnd_3des", " --set workload.apps.0.blocks=64 --set workload.apps.1.blocks=64"},
      {"desrnd_3des_baseline", " --set workload.apps.0.blocks=64 --set workload.apps.1.blocks=64"}};
  for (const auto& e : fs::directory_iterator(kScenarios)) {
    if (e.path().extension() != ".json") continue;
    const std::string name = e.path().stem().string();
    const double mhz =
        nlohmann::json::parse(slurp(e.path())).at("platform").at("cpus").at(0).at("clock_mhz").get<double>();
    char vary[96];
    std::snprintf(vary, sizeof vary, " --vary platform.cpus.0.clock_mhz=%g:%g", mhz / 2, mhz * 2);
    const auto it = small.find(name);
    Result r = run_rsoc("sensitivity " + e.path().string() + (it == small.end() ? "" : it->second) + vary +
                            " --metric requests_per_s --out " + name,
                        dir);
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    const std::string rows = sensitivity_rows(dir / name / "sensitivity.csv");
    ASSERT_EQ(std::count(rows.begin(), rows.end(), '\n'), 1) << name << ": " << rows;
    // Every value present; a faster CPU serves more requests per second.
    double at[3];
    std::istringstream cells(rows.substr(rows.find(",requests_per_s,") + 16));
    char comma;
    cells >> at[0] >> comma >> at[1] >> comma >> at[2];
    EXPECT_LT(at[0], at[1]) << name << ": " << rows;
    EXPECT_LT(at[1], at[2]) << name << ": " << rows;
  }
}

TEST(Cli, BurstTimingGivesWordTimingsResultsUnderPreemption) {
  // The reference workload (two apps of one priority sharing the CPU in 10 ms slices, a daemon that preempts
  // them, a low-priority load) with the PIO loop replayed, many cipher blocks a payload, and word by word:
  // every request's record the same (but for the scenario's hash, which the override changes).
  const fs::path dir = scratch("burst_word");
  const std::string shorter = " --set workload.apps.0.requests=8 --set workload.apps.1.requests=8 -q";
  ASSERT_EQ(run_rsoc("run" + shorter + " --out burst", dir).code, 0);
  ASSERT_EQ(run_rsoc("run" + shorter + " --set runtime.driver.pio_timing=word --out word", dir).code, 0);
  auto without_hash = [](std::string csv) {
    std::string out;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) {
      const std::size_t last = line.rfind(','), hash = line.rfind(',', last - 1);
      out += line.substr(0, hash) + line.substr(last) + "\n";
    }
    return out;
  };
  const std::string burst = without_hash(slurp(dir / "burst" / "requests.csv"));
  EXPECT_EQ(burst, without_hash(slurp(dir / "word" / "requests.csv")));
  EXPECT_NE(burst.find(",hardware,"), std::string::npos) << burst;
}
