// How much the `rsoc` command line says on stderr: -q/--quiet (errors only), -v/--verbose (each result file,
// each child process's command, timings), the default between, RSOC_LOG with the flags taking precedence;
// errors always printed; stdout the same at every level.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "tests/cli/cli_test_support.h"
#include "tests/test_paths.h"

namespace fs = std::filesystem;
using namespace rsoc_cli_test;

namespace {

// `rsoc ARGS` with RSOC_LOG=`level` in its environment.
Result rsoc_with(const std::string& level, const std::string& args, const fs::path& dir) {
  return shell("RSOC_LOG='" + level + "' " + std::string(rsoc_test::kRsocBinary) + " " + args, dir);
}

}  // namespace

TEST(CliLog, QuietNormalAndVerboseRunsPrintTheSameResults) {
  const fs::path dir = scratch("log_levels");
  const std::string run = "run " + kSmoke + " --out ";
  Result normal = run_rsoc(run + "n", dir);
  ASSERT_EQ(normal.code, 0) << normal.err;
  EXPECT_EQ(normal.err, "rsoc: running " + kSmoke +
                            "\nrsoc: 4 requests (0 failed), 154.754 ms simulated; results in n\n");
  for (const char* flag : {"-q", "--quiet"}) {
    Result quiet = run_rsoc(run + "q " + flag, dir);
    EXPECT_EQ(quiet.code, 0);
    EXPECT_EQ(quiet.err, "") << flag;
    EXPECT_EQ(quiet.out, normal.out) << flag;
  }
  // Before the command as after it.
  Result before = run_rsoc("-q " + run + "b", dir);
  EXPECT_EQ(before.code, 0);
  EXPECT_EQ(before.err, "");
  for (const char* flag : {"-v", "--verbose"}) {
    Result verbose = run_rsoc(run + "v " + flag, dir);
    ASSERT_EQ(verbose.code, 0) << verbose.err;
    EXPECT_EQ(verbose.out, normal.out);
    EXPECT_EQ(verbose.err.rfind("rsoc: running " + kSmoke + "\nrsoc: " + kSmoke + ": sha256 ", 0), 0u)
        << verbose.err;
    EXPECT_TRUE(has(verbose.err, ", seed 1\n")) << verbose.err;
    for (const char* file : {"breakdown.csv", "host.json", "requests.csv", "resolved_scenario.json",
                             "stats.json", "summary.csv"})
      EXPECT_TRUE(has(verbose.err, "\nrsoc: wrote v/" + std::string(file) + "\n")) << file << verbose.err;
    EXPECT_TRUE(has(verbose.err, "\nrsoc: 4 requests (0 failed), 154.754 ms simulated; results in v\n"));
    EXPECT_TRUE(has(verbose.err, " s wall time\n")) << verbose.err;
  }
  EXPECT_FALSE(has(normal.err, "rsoc: wrote"));
}

TEST(CliLog, RsocLogSetsTheLevelAndTheFlagsTakePrecedence) {
  const fs::path dir = scratch("log_environment");
  const std::string run = "run " + kSmoke + " --out ";
  EXPECT_EQ(rsoc_with("quiet", run + "a", dir).err, "");
  EXPECT_TRUE(has(rsoc_with("verbose", run + "b", dir).err, "\nrsoc: wrote b/summary.csv\n"));
  EXPECT_EQ(
      rsoc_with("normal", run + "c", dir).err,
      "rsoc: running " + kSmoke + "\nrsoc: 4 requests (0 failed), 154.754 ms simulated; results in c\n");
  EXPECT_TRUE(has(rsoc_with("quiet", run + "d -v", dir).err, "\nrsoc: wrote d/summary.csv\n"));
  EXPECT_EQ(rsoc_with("verbose", "-q " + run + "e", dir).err, "");
  EXPECT_EQ(rsoc_with("", run + "f", dir).err.rfind("rsoc: running ", 0), 0u);  // empty: as if unset
  // A value it does not know is refused before anything runs, whatever the flags.
  for (const std::string& args : {run + "x", run + "x -q", std::string("validate ") + kSmoke}) {
    Result bad = rsoc_with("loud", args, dir);
    EXPECT_EQ(bad.code, 2) << args;
    EXPECT_EQ(bad.err, "rsoc: RSOC_LOG=loud: expected quiet, normal or verbose\n") << args;
    EXPECT_EQ(bad.out, "") << args;
  }
  EXPECT_FALSE(fs::exists(dir / "x"));
  // The two flags together.
  for (const std::string& args : {run + "x -q -v", "-v " + run + "x --quiet", "-q -v " + run + "x"}) {
    Result both = run_rsoc(args, dir);
    EXPECT_EQ(both.code, 2) << args;
    EXPECT_EQ(both.err, "rsoc: -q/--quiet and -v/--verbose go against each other: give one\n") << args;
  }
  EXPECT_FALSE(fs::exists(dir / "x"));
}

TEST(CliLog, ErrorsArePrintedWhenQuiet) {
  const fs::path dir = scratch("log_errors");
  Result scenario = run_rsoc("run --set platform.cpus.0.clock_mhz=0 --out x -q", dir);
  EXPECT_EQ(scenario.code, 2);
  EXPECT_EQ(scenario.err,
            "--set platform.cpus.0.clock_mhz=0: /platform/cpus/0/clock_mhz: 0 is out of range; expected a "
            "number (MHz) >= 0.001 and <= 100000\n");
  Result usage = run_rsoc("-q sweep", dir);
  EXPECT_EQ(usage.code, 2);
  EXPECT_EQ(usage.err, "rsoc: sweep needs a scenario file\n");
  // Failed requests fail the run: its last line says so even when quiet.
  Result failed =
      run_rsoc("run " + kSmoke +
                   " --set runtime.driver.max_polls=1 --set platform.cores.0.block_cycles=100000 --out f -q",
               dir);
  EXPECT_EQ(failed.code, 1);
  EXPECT_EQ(failed.err, "rsoc: 4 requests (4 failed), 154.082 ms simulated; results in f\n");
  Result invalid = run_rsoc("validate " + kBroken + "/several_errors.json " + kSmoke + " -q", dir);
  EXPECT_EQ(invalid.code, 2);
  EXPECT_EQ(invalid.out, kSmoke + ": ok\n");
  EXPECT_TRUE(has(invalid.err, "several_errors.json: /platform/cpus/0/clock_mhz: -5 is out of range"))
      << invalid.err;
}

TEST(CliLog, SweepsSayEachPointsCommandWhenVerboseAndOnlyFailuresWhenQuiet) {
  const fs::path dir = scratch("log_sweep");
  const std::string sweep = "sweep " + kSmoke + " --set platform.cores.0.block_cycles=100000" +
                            " --param runtime.driver.max_polls=100000000,1 --jobs 1 --out ";
  Result quiet = run_rsoc(sweep + "q -q", dir);
  EXPECT_EQ(quiet.code, 1);
  EXPECT_EQ(quiet.err,
            "rsoc: point 0001 (runtime.driver.max_polls=1) failed: 4 of 4 requests failed\n"
            "rsoc: 2 points (0 kept from before, 1 failed); table in q/sweep.csv\n");
  EXPECT_EQ(quiet.out.substr(0, 6), "point ");  // the table, whatever the level
  Result verbose = run_rsoc(sweep + "v -v", dir);
  EXPECT_EQ(verbose.code, 1);
  const std::string abs = fs::absolute(dir / "v").string();
  EXPECT_TRUE(has(verbose.err, "\nrsoc: point 0000: rsoc point " + abs + " 0 (log v/logs/0000.log)\n"))
      << verbose.err;
  EXPECT_TRUE(has(verbose.err, "\nrsoc: point 0001 (runtime.driver.max_polls=1) FAILED in ")) << verbose.err;
  EXPECT_TRUE(has(verbose.err, "\nrsoc: wrote v/sweep.csv\n")) << verbose.err;
  // A point's log holds its messages at rsoc's level, never quieter than normal: it is all that is kept.
  EXPECT_EQ(slurp(dir / "q" / "logs" / "0000.log"),
            "rsoc point " + fs::absolute(dir / "q").string() + " 0\nrsoc: point 0 ok\n");
  EXPECT_TRUE(has(slurp(dir / "v" / "logs" / "0000.log"), "\nrsoc: point 0 ok\nrsoc: ")) << "verbose";
  EXPECT_TRUE(has(slurp(dir / "v" / "logs" / "0000.log"), " s wall time\n"));
  Result env = rsoc_with("quiet", sweep + "e", dir);
  EXPECT_EQ(slurp(dir / "e" / "logs" / "0000.log"),
            "rsoc point " + fs::absolute(dir / "e").string() + " 0\nrsoc: point 0 ok\n");
}

TEST(CliLog, VerifyFollowsTheLevel) {
  const fs::path dir = scratch("log_verify");
  Result normal = run_rsoc("verify des --pairs 2048", dir);
  ASSERT_EQ(normal.code, 0);
  EXPECT_TRUE(has(normal.err, "rsoc: verify des: 2048 of 2048 pairs (100%)\n")) << normal.err;
  Result quiet = run_rsoc("verify des --pairs 2048 -q", dir);
  EXPECT_EQ(quiet.code, 0);
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, normal.out);
  Result verbose = run_rsoc("verify des --pairs 2048 --verbose", dir);
  EXPECT_TRUE(has(verbose.err, " s wall time\n")) << verbose.err;
}

TEST(CliLog, EveryCommandTakesTheFlags) {
  const fs::path dir = scratch("log_help");
  for (const char* command : {"run", "crossover", "sweep", "sensitivity", "reproduce", "validate", "verify",
                              "show", "list", "schema", "point", "merge"}) {
    Result help = run_rsoc(std::string(command) + " --help", dir);
    EXPECT_EQ(help.code, 0) << command;
    EXPECT_TRUE(has(help.out, "-q [ --quiet ]")) << command << help.out;
    EXPECT_TRUE(has(help.out, "-v [ --verbose ]")) << command << help.out;
  }
  Result top = run_rsoc("--help", dir);
  EXPECT_TRUE(has(top.out, "RSOC_LOG=quiet|normal|verbose")) << top.out;
  // sensitivity's assumptions are --vary alone: -v is verbose there too.
  Result vary =
      run_rsoc("sensitivity " + kSmoke + " -v runtime.driver.cycles_per_block=100:300 --out x", dir);
  EXPECT_EQ(vary.code, 2);
  EXPECT_EQ(vary.err.rfind("rsoc: sensitivity needs at least one --vary path=LOW:HIGH\nrsoc: ", 0), 0u)
      << vary.err;
  EXPECT_TRUE(has(vary.err, " s wall time\n")) << vary.err;
}
