// RTL cores through the command line (platform/rtl_build.h): the cache (a second load does not rebuild; a
// changed source, or a changed file a source includes, does), and each error of a build at its key: a
// Verilog syntax error with Verilator's file:line, a missing port and a port of the wrong width named, no
// verilator on PATH with how to install it; and a design that never becomes ready meeting the driver's
// watchdog like a hung core. Each test has a cache folder of its own (RSOC_RTL_CACHE).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.h"
#include "tests/test_paths.h"

namespace {

using namespace rsoc_cli_test;

// A copy of custom_crc32_rtl.json in `dir` whose core is `sources` (in dir/rtl) with top `top`.
void write_scenario(const fs::path& dir, const std::vector<std::string>& sources, const std::string& top) {
  std::ifstream in(kScenarios + "/custom_crc32_rtl.json");
  nlohmann::json s = nlohmann::json::parse(in);
  s["platform"]["cores"][0]["rtl"]["sources"] = nlohmann::json::array();
  for (const auto& f : sources) s["platform"]["cores"][0]["rtl"]["sources"].push_back("rtl/" + f);
  s["platform"]["cores"][0]["rtl"]["top"] = top;
  std::ofstream(dir / "scenario.json") << s.dump(2);
}

std::string crc_core() {
  return slurp(kScenarios + "/rtl/crc32_core.v");
}

// `text` as dir/rtl/crc32_core.v, beside the shipped file it includes.
void write_core(const fs::path& dir, const std::string& text) {
  write(dir / "rtl/crc32_core.v", text);
  write(dir / "rtl/crc32_word.vh", slurp(kScenarios + "/rtl/crc32_word.vh"));
}

// The CRC core behind a wrapper that includes a header of its own (a file the scenario does not list).
const char* kWrapper = R"(`include "words.vh"
module crc_top (
  input wire clk, input wire rst, input wire req_valid, input wire req_write, input wire [15:0] req_addr,
  input wire [31:0] req_wdata, output wire req_ready, output wire resp_valid, output wire [31:0] resp_rdata,
  output wire busy);
  crc32_core #(.WORDS(`RECORD_WORDS)) core (.*);
endmodule
)";

// `rsoc validate` of the scenario in `dir` with its own cache: its result, and whether it verilated.
struct Load {
  Result r;
  bool built;
};
Load validate(const fs::path& dir) {
  Result r = shell("RSOC_RTL_CACHE='" + (dir / "cache").string() + "' " + rsoc_test::kRsocBinary +
                       " validate scenario.json",
                   dir);
  return {r, r.err.find("rsoc: verilating crc_top") != std::string::npos ||
                 r.err.find("rsoc: verilating crc32_core") != std::string::npos};
}

TEST(CliRtl, ASecondLoadDoesNotRebuildAndAChangedSourceOrIncludeDoes) {
  const fs::path dir = scratch("rtl_cache");
  write_core(dir, crc_core());
  write(dir / "rtl/crc_top.v", kWrapper);
  write(dir / "rtl/words.vh", "`define RECORD_WORDS 16\n");
  write_scenario(dir, {"crc_top.v", "crc32_core.v"}, "crc_top");
  const Load first = validate(dir);
  EXPECT_EQ(first.r.code, 0) << first.r.err;
  EXPECT_TRUE(first.built) << first.r.err;
  const Load second = validate(dir);
  EXPECT_EQ(second.r.code, 0) << second.r.err;
  EXPECT_FALSE(second.built) << second.r.err;
  write(dir / "rtl/words.vh", "`define RECORD_WORDS 16  // the same, said again\n");
  const Load included = validate(dir);
  EXPECT_EQ(included.r.code, 0) << included.r.err;
  EXPECT_TRUE(included.built) << "a changed include must rebuild";
  write_core(dir, crc_core() + "// a comment\n");
  const Load source = validate(dir);
  EXPECT_TRUE(source.built) << "a changed source must rebuild";
  EXPECT_FALSE(validate(dir).built);
  fs::remove_all(dir);
}

TEST(CliRtl, AVerilogSyntaxErrorIsReportedWithVerilatorsFileAndLine) {
  const fs::path dir = scratch("rtl_syntax");
  write_core(dir, "module crc32_core (input wire clk;\nendmodule\n");
  write_scenario(dir, {"crc32_core.v"}, "crc32_core");
  const Load l = validate(dir);
  EXPECT_EQ(l.r.code, 2);
  EXPECT_NE(l.r.err.find("/platform/cores/0/rtl: verilator could not build crc32_core:"), std::string::npos)
      << l.r.err;
  EXPECT_NE(l.r.err.find("%Error: " + (dir / "rtl/crc32_core.v").string() + ":1:34: syntax error"),
            std::string::npos)
      << l.r.err;
  fs::remove_all(dir);
}

TEST(CliRtl, AMissingPortAndAPortOfTheWrongWidthAreNamed) {
  const fs::path dir = scratch("rtl_ports");
  std::string core = crc_core();
  const std::string busy = ",\n  output wire        busy\n";
  const auto at = core.find(busy);
  ASSERT_NE(at, std::string::npos);
  write_core(dir, std::string(core).replace(at, busy.size(), "\n"));
  write_scenario(dir, {"crc32_core.v"}, "crc32_core");
  Load l = validate(dir);
  EXPECT_EQ(l.r.code, 2);
  EXPECT_NE(
      l.r.err.find("/platform/cores/0/rtl/top: the top module crc32_core has no port `busy` (output, 1 bit)"),
      std::string::npos)
      << l.r.err;
  std::string narrow = crc_core();
  const std::string addr = "input  wire [15:0] req_addr";
  narrow.replace(narrow.find(addr), addr.size(), "input  wire [11:0] req_addr");
  write_core(dir, narrow);
  l = validate(dir);
  EXPECT_NE(l.r.err.find("/platform/cores/0/rtl/top: port `req_addr` of crc32_core is input, 12 bits; the "
                         "register port's is input, 16 bits"),
            std::string::npos)
      << l.r.err;
  write_scenario(dir, {"crc32_core.v"}, "no_such_module");
  l = validate(dir);
  EXPECT_NE(l.r.err.find("/platform/cores/0/rtl/top: verilator could not build no_such_module"),
            std::string::npos)
      << l.r.err;
  fs::remove_all(dir);
}

TEST(CliRtl, WithoutVerilatorTheErrorSaysHowToInstallIt) {
  const fs::path dir = scratch("rtl_none");
  write_core(dir, crc_core());
  write_scenario(dir, {"crc32_core.v"}, "crc32_core");
  const Result r = shell("PATH=/nonexistent RSOC_RTL_CACHE='" + (dir / "cache").string() + "' " +
                             rsoc_test::kRsocBinary + " validate scenario.json",
                         dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/platform/cores/0/rtl: verilator is not installed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sudo apt-get install verilator"), std::string::npos) << r.err;
  const Result missing =
      shell("RSOC_RTL_CACHE='" + (dir / "cache").string() + "' " + rsoc_test::kRsocBinary +
                " validate scenario.json --set 'platform.cores.0.rtl.sources=[\"rtl/gone.v\"]'",
            dir);
  EXPECT_NE(missing.err.find("/platform/cores/0/rtl/sources/0: no source file"), std::string::npos)
      << missing.err;
  fs::remove_all(dir);
}

// The design hangs (stays busy, never ready) on a record whose first word has bit 1 set: the record rsoc
// measures the design with at load has it clear; among a request's 64 random records one has it.
TEST(CliRtl, ADesignThatNeverBecomesReadyMeetsTheDriversWatchdog) {
  const fs::path dir = scratch("rtl_hang");
  std::string core = crc_core();
  const std::string done = "running <= 1'b0; valid <= 1'b1;";
  ASSERT_NE(core.find(done), std::string::npos);
  core.replace(core.find(done), done.size(), "running <= block[0][1]; valid <= 1'b1;");
  write_core(dir, core);
  write_scenario(dir, {"crc32_core.v"}, "crc32_core");
  const Result r = shell("RSOC_RTL_CACHE='" + (dir / "cache").string() + "' " + rsoc_test::kRsocBinary +
                             " run scenario.json --out out -q --set runtime.policy=hardware"
                             " --set runtime.recovery.watchdog_cycles=100000 --set workload.apps.0.requests=1"
                             " --set 'workload.apps.0.blocks_list=[64]'",
                         dir);
  EXPECT_EQ(r.code, 1) << r.err;  // a run with a failed request
  EXPECT_NE(r.err.find("1 requests (1 failed)"), std::string::npos) << r.err;
  const std::string requests = slurp(dir / "out/requests.csv");
  EXPECT_NE(requests.find("did not finish within the watchdog's 100000 CPU cycles"), std::string::npos)
      << requests;
  fs::remove_all(dir);
}

// The stream design stops taking words (in_ready low for good) after a record whose first word has bit 1 set
// (the probe's has it clear): the DMA engine stalls on the core, and the driver's watchdog fails the request.
TEST(CliRtl, AStreamPortThatStopsTakingWordsMeetsTheDriversWatchdog) {
  const fs::path dir = scratch("rtl_stream_hang");
  std::string core = slurp(kScenarios + "/rtl/crc32_stream_core.v");
  const std::string ready = "assign in_ready  = !pending || out_ready;";
  ASSERT_NE(core.find(ready), std::string::npos);
  core.replace(core.find(ready), ready.size(),
               "reg stuck = 1'b0, first = 1'b1;\n"
               "  always @(posedge clk) if (in_valid && in_ready) begin\n"
               "    if (first && in_data[1]) stuck <= 1'b1;\n"
               "    first <= in_last;\n"
               "  end\n"
               "  assign in_ready = (!pending || out_ready) && !stuck;");
  write(dir / "rtl/crc32_stream_core.v", core);
  write(dir / "rtl/crc32_word.vh", slurp(kScenarios + "/rtl/crc32_word.vh"));
  fs::copy_file(kScenarios + "/custom_crc32_dma_rtl.json", dir / "scenario.json");
  const Result r = shell("RSOC_RTL_CACHE='" + (dir / "cache").string() + "' " + rsoc_test::kRsocBinary +
                             " run scenario.json --out out -q --set runtime.policy=hardware"
                             " --set runtime.recovery.watchdog_cycles=100000 --set workload.apps.0.requests=1"
                             " --set 'workload.apps.0.blocks_list=[64]'",
                         dir);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("1 requests (1 failed)"), std::string::npos) << r.err;
  const std::string requests = slurp(dir / "out/requests.csv");
  EXPECT_NE(requests.find("to 0x80001800 did not end within the watchdog's 1 ms"), std::string::npos)
      << requests;
  fs::remove_all(dir);
}

// The lines of a crossover.csv without its last three columns, which name the run (rsoc_version,
// scenario_sha256, seed).
std::vector<std::string> times_of(const fs::path& csv) {
  std::stringstream in(slurp(csv));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    std::size_t end = line.size();
    for (int i = 0; i < 3 && end != std::string::npos && end > 0; ++i) end = line.rfind(',', end - 1);
    lines.push_back(line.substr(0, end));
  }
  return lines;
}

// The stream CRC design against the behavioural custom stream core given what rsoc measures from the design
// (RtlScenario.TheCrcStreamCoreIsMeasuredThroughItsStreamPort): every block count's times are the same.
TEST(CliRtl, TheStreamCoreAndItsMeasuredModelGiveTheSameTimes) {
  const fs::path dir = scratch("rtl_stream_model");
  const std::string scenario = kScenarios + "/custom_crc32_dma_rtl.json";
  const Result rtl = run_rsoc("crossover " + scenario + " --max-blocks 300 --table 300 --out rtl", dir);
  ASSERT_EQ(rtl.code, 0) << rtl.err;
  const Result model =
      run_rsoc("crossover " + scenario +
                   " --set platform.cores.0.rtl=null --set platform.cores.0.block_cycles=17"
                   " --set platform.cores.0.initiation_interval_cycles=16"
                   " --set platform.cores.0.setup_cycles=1 --max-blocks 300 --table 300 --out model",
               dir);
  ASSERT_EQ(model.code, 0) << model.err;
  const auto a = times_of(dir / "rtl/crossover.csv"), b = times_of(dir / "model/crossover.csv");
  ASSERT_GT(a.size(), 300u);
  EXPECT_EQ(a, b);
  fs::remove_all(dir);
}

}  // namespace
