// What the `rsoc` command line refuses before anything runs, with the message a user sees: counts out of
// their range (a negative one is not wrapped around), and scenario problems named after the flag that set
// the value — --set, --seed, --param, --trace-window, --vcd-window — rather than the scenario file.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "tests/cli/cli_test_support.h"

namespace fs = std::filesystem;
using namespace rsoc_cli_test;

namespace {

void expect_refused(const std::pair<std::string, std::string>* begin,
                    const std::pair<std::string, std::string>* end, const fs::path& dir) {
  for (auto it = begin; it != end; ++it) {
    const auto& [args, message] = *it;
    Result r = run_rsoc(args, dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, message) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_FALSE(fs::exists(dir / "x")) << args;
  }
}

}  // namespace

TEST(CliInput, CountsAreRefusedOutsideTheirRangeWithTheRange) {
  const fs::path dir = scratch("counts");
  ASSERT_EQ(
      run_rsoc("sweep " + kSmoke + " --param runtime.driver.cycles_per_block=100,200 --emit parallel --out s",
               dir)
          .code,
      0);
  const std::string sweep = "sweep " + kSmoke + " --param runtime.driver.cycles_per_block=100,200";
  const std::string sensitivity = "sensitivity " + kSmoke + " --vary runtime.driver.cycles_per_block=100:400";
  const std::string max64 = "18446744073709551615";
  const std::pair<std::string, std::string> cases[] = {
      {sweep + " --jobs -1 --out x", "rsoc: --jobs -1: expected a whole number from 1 to 1000000\n"},
      {sweep + " --jobs 0 --out x", "rsoc: --jobs 0: expected a whole number from 1 to 1000000\n"},
      {sweep + " --jobs 1000001 --out x",
       "rsoc: --jobs 1000001: expected a whole number from 1 to 1000000\n"},
      {sweep + " --jobs 2x --out x", "rsoc: --jobs 2x: expected a whole number from 1 to 1000000\n"},
      {sensitivity + " --jobs -1 --out x", "rsoc: --jobs -1: expected a whole number from 1 to 1000000\n"},
      {"crossover --param runtime.driver.cycles_per_block=100,200 --jobs -3 --out x",
       "rsoc: --jobs -3: expected a whole number from 1 to 1000000\n"},
      {"crossover --max-blocks -1 --out x",
       "rsoc: --max-blocks -1: expected a whole number from 1 to 1000000000\n"},
      {"crossover --max-blocks 0 --out x",
       "rsoc: --max-blocks 0: expected a whole number from 1 to 1000000000\n"},
      {"crossover --max-blocks 1000000001 --out x",
       "rsoc: --max-blocks 1000000001: expected a whole number from 1 to 1000000000\n"},
      {"crossover --table 100001 --out x",
       "rsoc: --table 100001: expected a whole number from 0 to 100000\n"},
      {"crossover --table -1 --out x", "rsoc: --table -1: expected a whole number from 0 to 100000\n"},
      {sensitivity + " --experiment crossover --max-blocks -1 --out x",
       "rsoc: --max-blocks -1: expected a whole number from 1 to 1000000000\n"},
      {"verify des --pairs -1", "rsoc: --pairs -1: expected a whole number from 1 to " + max64 + "\n"},
      {"verify des --pairs 18446744073709551616",
       "rsoc: --pairs 18446744073709551616: expected a whole number from 1 to " + max64 + "\n"},
      {"verify des --pairs 5 --seed -1",
       "rsoc: --seed -1: expected a whole number from 0 to " + max64 + "\n"},
      // A scenario's seed: the schema's range, named after the flag.
      {"run --seed -1 --out x",
       "--seed -1: /seed: -1 is out of range; expected an integer >= 0 and <= 9007199254740991\n"},
      {sweep + " --seed -1 --out x",
       "--seed -1: /seed: -1 is out of range; expected an integer >= 0 and <= 9007199254740991\n"},
      {"point s -1",
       "rsoc: point index -1: expected a whole number from 0 to 1 (the sweep in s has 2 points)\n"},
      {"point s 2", "rsoc: point 2 does not exist: the sweep in s has 2 points (0..1)\n"},
  };
  expect_refused(std::begin(cases), std::end(cases), dir);
  EXPECT_TRUE(fs::is_empty(dir / "s" / "points"));
}

TEST(CliInput, ScenarioProblemsAreNamedAfterTheFlagThatSetTheValue) {
  const fs::path dir = scratch("sources");
  const std::string range =
      ": /platform/cpus/0/clock_mhz: 0 is out of range; expected a number (MHz) >= 0.001 and <= 100000\n";
  const std::pair<std::string, std::string> cases[] = {
      {"run --set platform.cpus.0.clock_mhz=0 --out x", "--set platform.cpus.0.clock_mhz=0" + range},
      {"crossover " + kSmoke + " --set platform.cpus.0.clock_mhz=0 --out x",
       "--set platform.cpus.0.clock_mhz=0" + range},
      {"validate " + kSmoke + " --set platform.cpus.0.clock_mhz=0",
       "--set platform.cpus.0.clock_mhz=0" + range},
      // A problem of the file itself stays the file's.
      {"validate " + kBroken + "/out_of_range.json --set platform.buses.0.clock_mhz=50",
       kBroken + "/out_of_range.json" + range},
      {"run " + kSmoke + " --trace-window 20:10 --out x",
       "--trace-window 20:10: /outputs/trace/end_ms: end_ms (10.0) must be greater than start_ms (20.0)\n"},
      {"run " + kSmoke + " --vcd-window 5:1 --out x",
       "--vcd-window 5:1: /outputs/vcd/end_ms: end_ms (1.0) must be greater than start_ms (5.0)\n"},
      // Every value of every --param, before any point runs and before a job list is written.
      {"sweep " + kSmoke +
           " --param platform.cpus.0.clock_mhz=100,-5,200,0 --param platform.cpus.0.clok_mhz=1,2 --out x",
       "--param platform.cpus.0.clock_mhz=-5: /platform/cpus/0/clock_mhz: -5 is out of range; expected a "
       "number (MHz) "
       ">= 0.001 and <= 100000\n"
       "--param platform.cpus.0.clock_mhz=0" +
           range +
           "--param platform.cpus.0.clok_mhz=1: /platform/cpus/0/clok_mhz: unknown key \"clok_mhz\"; did you "
           "mean "
           "\"clock_mhz\"?\n"},
      {"sweep " + kSmoke + " --param platform.cpus.0.clock_mhz=0:100:50 --emit parallel --out x",
       "--param platform.cpus.0.clock_mhz=0" + range},
      {"crossover --param platform.cpus.0.clock_mhz=100,0 --emit slurm --out x",
       "--param platform.cpus.0.clock_mhz=0" + range},
  };
  expect_refused(std::begin(cases), std::end(cases), dir);
}

// A value that is neither JSON nor UTF-8 text is refused where it is given: no JSON output could hold it.
TEST(CliInput, AValueThatIsNotUtf8IsRefusedNamedAfterItsFlag) {
  const fs::path dir = scratch("utf8_value");
  const std::pair<std::string, std::string> cases[] = {
      {"validate " + kSmoke + " --set 'description=\xff'",
       "--set description=\\xff: malformed override: not UTF-8 text (byte 0xff at offset 12)\n"},
      {"run " + kSmoke + " --set 'description=caf\xe9' --out x",
       "--set description=caf\\xe9: malformed override: not UTF-8 text (byte 0xe9 at offset 15)\n"},
      {"sweep " + kSmoke + " --param 'description=a,\xff' --out x",
       "--param description=\\xff: malformed override: not UTF-8 text (byte 0xff at offset 12)\n"},
  };
  expect_refused(std::begin(cases), std::end(cases), dir);
}

// A scenario file whose name is not UTF-8 runs and sweeps: JSON outputs name it with \xHH for each byte that
// is not UTF-8.
TEST(CliInput, AScenarioFileWhoseNameIsNotUtf8RunsAndSweeps) {
  const fs::path dir = scratch("utf8_name");
  fs::copy_file(kSmoke, dir / "smoke\xff.json");
  Result r = run_rsoc("run 'smoke\xff.json' --set workload.apps.0.requests=1 --out res", dir);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(slurp(dir / "res" / "host.json").find("\"smoke\\\\xff.json\""), std::string::npos);
  for (const std::string resume : {"", " --resume"}) {
    r = run_rsoc(
        "sweep 'smoke\xff.json' --set workload.apps.0.requests=1 --param seed=1,2 --jobs 1 --out sw" + resume,
        dir);
    EXPECT_EQ(r.code, 0) << resume << r.err;
  }
  EXPECT_NE(slurp(dir / "sw" / "sweep.json").find("\"scenario_name\": \"smoke\\\\xff.json\""),
            std::string::npos);
}

TEST(CliInput, ElementsOfANamedArrayAreAddressedByTheirName) {
  // platform.buses.plb is platform.buses.0 in --set, --param and --vary; an unknown name is refused with the
  // names there are (or the nearest).
  const fs::path dir = scratch("named_elements");
  Result by_name = run_rsoc("show --set platform.buses.plb.clock_mhz=25", dir);
  Result by_index = run_rsoc("show --set platform.buses.0.clock_mhz=25", dir);
  ASSERT_EQ(by_name.code, 0) << by_name.err;
  EXPECT_EQ(by_name.out, by_index.out);
  EXPECT_NE(by_name.out.find("\"clock_mhz\": 25.0"), std::string::npos);
  Result sweep = run_rsoc("sweep " + kSmoke + " --param platform.buses.plb.clock_mhz=25,50 --out s", dir);
  EXPECT_EQ(sweep.code, 0) << sweep.err;
  EXPECT_NE(slurp(dir / "s" / "sweep.csv").find("\n1,ok,,50,"), std::string::npos) << slurp(dir / "s" / "sweep.csv");
  EXPECT_NE(slurp(dir / "s" / "points" / "0001" / "resolved_scenario.json").find("\"clock_mhz\": 50.0"),
            std::string::npos);
  // The same input by name and by index is one input swept twice.
  Result twice =
      run_rsoc("sweep " + kSmoke +
                   " --param platform.buses.plb.clock_mhz=25 --param platform.buses.0.clock_mhz=50 "
                   "--out t",
               dir);
  EXPECT_EQ(twice.code, 2);
  EXPECT_EQ(twice.err,
            "rsoc: --param platform.buses.0.clock_mhz sweeps the same input as --param platform.buses.plb.clock_mhz "
            "(/platform/buses/0/clock_mhz); give its values in one --param\n");
  Result vary = run_rsoc("sensitivity " + kSmoke +
                             " --vary platform.cpus.cpu.clock_mhz=50:200 --metric requests "
                             "--out v",
                         dir);
  EXPECT_EQ(vary.code, 0) << vary.err;
  const std::pair<std::string, std::string> cases[] = {
      {"show --set platform.buses.plbb.clock_mhz=25",
       "--set platform.buses.plbb.clock_mhz=25: /platform/buses/plbb: no element named \"plbb\"; did you mean "
       "\"plb\"?\n"},
      {"show --set platform.buses.xyzzy.clock_mhz=25",
       "--set platform.buses.xyzzy.clock_mhz=25: /platform/buses/xyzzy: no element named \"xyzzy\" (the names: "
       "\"plb\"; or an index: 0, 1, ..., or - to append)\n"},
      {"sweep " + kSmoke + " --param platform.buses.plbb.clock_mhz=25 --out x",
       "--param platform.buses.plbb.clock_mhz=25: /platform/buses/plbb: no element named \"plbb\"; did you mean "
       "\"plb\"?\n"},
  };
  for (const auto& [args, message] : cases) {
    Result r = run_rsoc(args, dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, message) << args;
  }
}

TEST(CliInput, WhatTheUserGaveIsQuotedCutToABoundedLength) {
  // A name, a path or an override of 100,000 characters gives a message of a line, not 100 KB.
  const fs::path dir = scratch("long_text");
  const std::string longest(100000, 'a');
  for (const std::string& args :
       {"validate --set workload.apps.0.functionality=" + longest + " " + kSmoke,
        "show --set platform." + longest + "=1", "crossover -f " + longest, "run " + kSmoke + " --out " + longest,
        "validate " + longest + ".json", "sweep " + kSmoke + " --param " + longest + "=1 --out x"}) {
    Result r = run_rsoc(args, dir);
    EXPECT_EQ(r.code, 2) << args.substr(0, 40);
    EXPECT_LT(r.err.size(), 2000u) << r.err.substr(0, 3000);
    EXPECT_NE(r.err.find("aaa...aaa"), std::string::npos) << r.err.substr(0, 2000);
  }
}

TEST(CliInput, SuggestionsAndRangesSayWhatWasMeant) {
  // A name cut short is suggested whole ("aes" is "aes128", not "des", one letter away); a range of two parts
  // says what a range is.
  const fs::path dir = scratch("suggestions");
  const std::pair<std::string, std::string> cases[] = {
      {"crossover -f aes --out x",
       "--functionality aes: \"aes\" is not one of \"aes128\", \"des\", \"3des\", \"modexp1024\", \"modexp2048\", "
       "\"modexp4096\", \"rsa2048_crt\", \"rsa4096_crt\", \"rsa4096_verify\"; did you mean \"aes128\"?\n"},
      {"sweep " + kSmoke + " --param platform.slots.0.count=1:4 --out x",
       "rsoc: --param platform.slots.0.count=1:4: a range is start:stop:step (1:4:1 for every whole number from 1 "
       "to 4); a list of values is v1,v2,...\n"},
  };
  for (const auto& [args, message] : cases) {
    Result r = run_rsoc(args + " -q", dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, message) << args;
  }
}
