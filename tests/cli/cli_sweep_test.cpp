// Sweeps that must not be trusted blindly: a grid too large to run is refused before it wraps around, an
// input swept twice is refused, and a resumed sweep keeps a point's recorded outcome only when it is that
// point's, unchanged, with its results still there — anything else runs again, and the table comes out as a
// fresh sweep's.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli/cli_test_support.h"

namespace fs = std::filesystem;
using namespace rsoc_cli_test;

TEST(CliSweep, AGridOfMoreThanAMillionPointsIsRefusedWithoutWrappingAround) {
  const fs::path dir = scratch("sweep_grid_size");
  // 4 x 5 x 5581 x 8681 x 49477 x 384773 = 2^64 + 4: a product in 64 bits would run it as 4 points.
  Result r = run_rsoc("sweep " + kSmoke +
                          " --param a=1:4:1 --param b=1:5:1 --param c=1:5581:1 --param d=1:8681:1"
                          " --param e=1:49477:1 --param f=1:384773:1 --out s",
                      dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(
      r.err,
      "rsoc: the grid of --param a (4 values) x --param b (5 values) x --param c (5581 values) x --param d "
      "(8681 values) x --param e (49477 values) x --param f (384773 values) has 18446744073709551620 "
      "points; a sweep has at most 1000000\n");
  // Just past the bound, also for a job list.
  r = run_rsoc(
      "crossover --param runtime.driver.cycles_per_block=1:1000:1"
      " --param runtime.driver.cycles_per_request=0:1000:1 --emit slurm --out s",
      dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(
      r.err,
      "rsoc: the grid of --param runtime.driver.cycles_per_block (1000 values) x --param "
      "runtime.driver.cycles_per_request (1001 values) has 1001000 points; a sweep has at most 1000000\n");
  EXPECT_FALSE(fs::exists(dir / "s"));
}

TEST(CliSweep, AnInputSweptByTwoParamsIsRefused) {
  const fs::path dir = scratch("sweep_twice");
  Result r =
      run_rsoc("sweep " + kSmoke +
                   " --param runtime.driver.cycles_per_block=1,2 --param /runtime/driver/cycles_per_block=3"
                   " --out s",
               dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "rsoc: --param /runtime/driver/cycles_per_block sweeps the same input as --param "
            "runtime.driver.cycles_per_block; give its values in one --param\n");
  EXPECT_FALSE(fs::exists(dir / "s"));
}

namespace {

void replace_in(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = slurp(file);
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not in " << file;
  text.replace(at, from.size(), to);
  std::ofstream(file, std::ios::trunc) << text;
}

}  // namespace

TEST(CliSweep, ResumeRunsAgainEveryPointWhoseRecordedOutcomeDoesNotCheckOut) {
  const fs::path dir = scratch("sweep_outcomes");
  const std::string sweep =
      "sweep " + kSmoke + " --param runtime.driver.cycles_per_block=100:600:100 --jobs 2 --out s";
  ASSERT_EQ(run_rsoc(sweep, dir).code, 0);
  const std::string fresh = slurp(dir / "s" / "sweep.csv");
  const fs::path points = dir / "s" / "points";
  const std::string kept = slurp(points / "0000.json");
  // Another sweep (another scenario) with the same grid: its outcomes are not this sweep's.
  ASSERT_EQ(
      run_rsoc("sweep " + kSmoke +
                   " --set workload.apps.0.requests=2 --param runtime.driver.cycles_per_block=100:600:100"
                   " --emit parallel --out other",
               dir)
          .code,
      0);
  ASSERT_EQ(run_rsoc("point other 5", dir).code, 0);

  fs::copy_file(points / "0000.json", points / "0001.json", fs::copy_options::overwrite_existing);
  replace_in(points / "0002.json", "\"requests\",\n      4.0", "\"requests\",\n      5.0");  // edited
  fs::remove_all(points / "0003");
  std::ofstream(points / "0004" / "summary.csv", std::ios::app) << "aes128,hardware,1\n";
  fs::copy_file(dir / "other" / "points" / "0005.json", points / "0005.json",
                fs::copy_options::overwrite_existing);

  // Merging lists them as missing, with the reason.
  Result merged = run_rsoc("merge s", dir);
  EXPECT_EQ(merged.code, 1);
  EXPECT_EQ(merged.err, "rsoc: s/sweep.csv (5 points missing)\n");
  const std::string table = slurp(dir / "s" / "sweep.csv");
  EXPECT_NE(table.find("\n0,ok,,100,"), std::string::npos) << table;
  EXPECT_NE(
      table.find("\n1,missing,recorded outcome not kept: points/0001.json is the outcome of point 0000,"),
      std::string::npos)
      << table;

  Result resumed = run_rsoc(sweep + " --resume", dir);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  for (const std::string line : {
           "rsoc: point 0001 runs again: points/0001.json is the outcome of point 0000\n",
           "rsoc: point 0002 runs again: points/0002.json was changed after it was written (its "
           "outcome_sha256 "
           "does not match)\n",
           "rsoc: point 0003 runs again: its result folder points/0003 is gone\n",
           "rsoc: point 0004 runs again: points/0004/summary.csv was changed after the point ran\n",
           "rsoc: point 0005 runs again: points/0005.json is the outcome of a point of another sweep\n",
           "rsoc: sweep of 6 points (5 to run), 2 at a time\n",
           "(1 kept from before, 0 failed)",
       })
    EXPECT_NE(resumed.err.find(line), std::string::npos) << line << "\n" << resumed.err;
  EXPECT_EQ(resumed.err.find("point 0000 runs again"), std::string::npos) << resumed.err;
  EXPECT_EQ(slurp(points / "0000.json"), kept);  // not run again
  EXPECT_EQ(slurp(dir / "s" / "sweep.csv"), fresh);
  // Now every outcome checks out: nothing runs.
  Result again = run_rsoc(sweep + " --resume", dir);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("(6 kept from before, 0 failed)"), std::string::npos) << again.err;
  EXPECT_EQ(slurp(dir / "s" / "sweep.csv"), fresh);
}

TEST(CliSweep, PrintsItsTableOnStdoutWithCensoredCrossoversAndFailedPoints) {
  const fs::path dir = scratch("sweep_table_text");
  Result r = run_rsoc("sweep " + kSmoke + " --param platform.cpus.0.clock_mhz=50,100 --out s", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(
      r.out.substr(0, r.out.find('\n')),
      "point  platform.cpus.0.clock_mhz  requests  failed  requests_per_s  aes128.hardware.latency_mean_ms");
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3) << r.out;
  // A crossover beyond the search: "> N".
  Result x = run_rsoc(
      "crossover " + kSmoke + " --param platform.cpus.0.clock_mhz=50,100 --max-blocks 20 --out x", dir);
  ASSERT_EQ(x.code, 0) << x.err;
  EXPECT_EQ(x.out,
            "point  platform.cpus.0.clock_mhz  aes128.crossover_blocks\n"
            "    0                         50                     > 20\n"
            "    1                        100                     > 20\n");
  // A point that failed: its status and error.
  Result f = run_rsoc("sweep " + kSmoke +
                          " --set platform.cores.0.block_cycles=100000 --param "
                          "runtime.driver.max_polls=100000000,1 --out f",
                      dir);
  EXPECT_EQ(f.code, 1) << f.err;
  EXPECT_NE(f.out.find("  status  error\n"), std::string::npos) << f.out;
  EXPECT_NE(f.out.find("  failed  4 of 4 requests failed\n"), std::string::npos) << f.out;
  EXPECT_NE(f.out.find("  ok      \n"), std::string::npos) << f.out;
}

TEST(CliSweep, ASensitivityOfACrossoverBeyondTheSearchSaysSo) {
  // The AES crossover (40 blocks) searched to 30 only: censored at every end, "> 30" in the table and the
  // bound in sensitivity.csv's *_beyond columns; --metric names it although no point has a value of it.
  const fs::path dir = scratch("sensitivity_censored");
  Result r = run_rsoc(
      "sensitivity " + kScenarios +
          "/os_aes_des.json --experiment crossover -f aes128 --max-blocks 30 "
          "--table 0 --vary platform.cpus.0.clock_mhz=50:400 --metric aes128.crossover_blocks --out s",
      dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(
      r.out,
      "parameter                  low  high  metric                   at_low  at_base  at_high  swing_pct\n"
      "platform.cpus.0.clock_mhz  50   400   aes128.crossover_blocks    > 30     > 30     > 30          -\n");
  EXPECT_NE(slurp(dir / "s" / "sensitivity.csv")
                .find("\nplatform.cpus.0.clock_mhz,50,400,aes128.crossover_blocks,,,,,30,30,30,"),
            std::string::npos);
}

TEST(CliSweep, ASensitivityListsTheSearchBoundsOnlyWhenNamed) {
  // The bound a crossover was searched to stands beside it (*_beyond), not as a metric of its own: by default
  // the table holds the crossovers, and --metric still names the bound.
  const fs::path dir = scratch("sensitivity_bounds");
  const std::string study = "sensitivity " + kScenarios +
                            "/os_aes_des.json --experiment crossover -f aes128 --max-blocks 30 --table 0 "
                            "--vary platform.cpus.0.clock_mhz=50:400 ";
  Result all = run_rsoc(study + "--out all", dir);
  ASSERT_EQ(all.code, 0) << all.err;
  const std::string csv = slurp(dir / "all" / "sensitivity.csv");
  EXPECT_NE(csv.find(",aes128.crossover_blocks,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",aes128.analytic_crossover_blocks,"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("searched_to_blocks"), std::string::npos) << csv;
  Result named = run_rsoc(study + "--metric aes128.searched_to_blocks --out named", dir);
  ASSERT_EQ(named.code, 0) << named.err;
  EXPECT_NE(slurp(dir / "named" / "sensitivity.csv")
                .find("\nplatform.cpus.0.clock_mhz,50,400,aes128.searched_to_blocks,30,30,30,0.00,,,,"),
            std::string::npos)
      << slurp(dir / "named" / "sensitivity.csv");
  // Censored at the base, found at an end: the metric is still a row (the energy crossover, 100 blocks at 50
  // MHz with a slow copy loop).
  Result end = run_rsoc(
      "sensitivity " + kScenarios +
          "/os_aes_des.json --experiment crossover -f aes128 --max-blocks 100 --table 0 "
          "--vary platform.cpus.0.clock_mhz=50:400 --set platform.config_port.cpu_copy_cycles_per_word=300 "
          "--out end",
      dir);
  ASSERT_EQ(end.code, 0) << end.err;
  EXPECT_NE(end.out.find("aes128.energy_crossover_blocks       100    > 100    > 100          -"),
            std::string::npos)
      << end.out;
}
