// `rsoc reproduce` on the desrnd system (14 experiments of a fraction of a second each): the same table
// whatever --jobs is, a progress line on a terminal, the level of its messages and its summary as JSON.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_test_support.h"
#include "tests/test_paths.h"

namespace fs = std::filesystem;
using namespace rsoc_cli_test;

namespace {

const std::string kDesrnd = "reproduce --system desrnd";

}  // namespace

TEST(CliReproduce, TheTableIsByteIdenticalWhateverTheJobs) {
  const fs::path dir = scratch("reproduce_jobs");
  Result one = run_rsoc(kDesrnd + " --jobs 1 --out one", dir);
  ASSERT_EQ(one.code, 0) << one.err;
  Result two = run_rsoc(kDesrnd + " -j 2 --out two", dir);
  ASSERT_EQ(two.code, 0) << two.err;
  const std::string table = slurp(dir / "one" / "reproduce.csv");
  EXPECT_EQ(table, slurp(dir / "two" / "reproduce.csv"));
  EXPECT_EQ(slurp(dir / "one" / "desrnd" / "coupling.csv"), slurp(dir / "two" / "desrnd" / "coupling.csv"));
  EXPECT_NE(table.find("\ndesrnd,speedup.des,calibrated,47,47.000,0.00\n"), std::string::npos) << table;
  EXPECT_EQ(one.out, two.out);
  const std::pair<std::string, std::string> refused[] = {
      {kDesrnd + " --jobs 0 --out x", "rsoc: --jobs 0: expected a whole number from 1 to 1000000\n"},
      {kDesrnd + " --jobs -2 --out x", "rsoc: --jobs -2: expected a whole number from 1 to 1000000\n"},
  };
  for (const auto& [args, message] : refused) {
    Result r = run_rsoc(args, dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, message) << args;
  }
  EXPECT_FALSE(fs::exists(dir / "x"));
}

TEST(CliReproduce, ProgressIsALineOnATerminalAndLinesOtherwise) {
  const fs::path dir = scratch("reproduce_progress");
  // `script` gives the command a terminal.
  const std::string on_tty = "cd '" + dir.string() + "' && script -qec \"" +
                             std::string(rsoc_test::kRsocBinary) + " " + kDesrnd +
                             " --jobs 1 --out a\" /dev/null > tty.txt";
  ASSERT_EQ(std::system(on_tty.c_str()), 0);
  const std::string tty = slurp(dir / "tty.txt");
  EXPECT_TRUE(has(tty, "\rrsoc: 0 of 14 experiments done, 0:00:0")) << tty;
  EXPECT_TRUE(has(tty, " elapsed; running desrnd baseline")) << tty;
  EXPECT_TRUE(has(tty, "\rrsoc: 1 of 14 experiments done, ")) << tty;
  EXPECT_TRUE(has(tty, "\rrsoc: 14 of 14 experiments done, ")) << tty;
  EXPECT_FALSE(has(tty, "rsoc: reproducing ")) << tty;
  // Not a terminal: a line per experiment started.
  Result plain = run_rsoc(kDesrnd + " --jobs 1 --out b", dir);
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(
      plain.err.rfind("rsoc: reproducing desrnd baseline\nrsoc: reproducing desrnd c_module.rpi=1\n", 0), 0u)
      << plain.err;
  EXPECT_FALSE(has(plain.err, "\r"));
  // Quiet: nothing; verbose: each experiment's command and log, when it ended, each file written.
  Result quiet = run_rsoc(kDesrnd + " --out c -q", dir);
  EXPECT_EQ(quiet.code, 0);
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, plain.out);
  Result verbose = run_rsoc(kDesrnd + " --jobs 1 --out d -v", dir);
  ASSERT_EQ(verbose.code, 0) << verbose.err;
  EXPECT_TRUE(has(verbose.err,
                  "rsoc: reproducing desrnd baseline\nrsoc: desrnd baseline: rsoc reproduce --run-experiment "
                  "desrnd/baseline --out d/desrnd/baseline --scenarios " +
                      kScenarios + " (log d/desrnd/baseline.log)\nrsoc: desrnd baseline done in "))
      << verbose.err;
  EXPECT_TRUE(has(verbose.err, " s (14 of 14 experiments)\n")) << verbose.err;
  EXPECT_TRUE(has(verbose.err, "\nrsoc: wrote d/reproduce.csv\n")) << verbose.err;
  EXPECT_TRUE(has(verbose.err, "\nrsoc: wrote d/desrnd/coupling.csv\n")) << verbose.err;
  // On a terminal, verbose lines rather than a line redrawn in place.
  const std::string verbose_tty = "cd '" + dir.string() + "' && script -qec \"" +
                                  std::string(rsoc_test::kRsocBinary) + " " + kDesrnd +
                                  " --jobs 1 --out e -v\" /dev/null > tty_v.txt";
  ASSERT_EQ(std::system(verbose_tty.c_str()), 0);
  EXPECT_FALSE(has(slurp(dir / "tty_v.txt"), "\rrsoc: ")) << slurp(dir / "tty_v.txt");
  // The experiments log at the normal level at least.
  EXPECT_EQ(
      slurp(dir / "c" / "desrnd" / "baseline.log").rfind("rsoc reproduce --run-experiment desrnd/baseline "),
      0u);
  EXPECT_TRUE(has(slurp(dir / "c" / "desrnd" / "baseline.log"), "\nrsoc: desrnd/baseline: 2 figures in "))
      << slurp(dir / "c" / "desrnd" / "baseline.log");
}

TEST(CliReproduce, SummaryAsJsonAgreesWithTheTable) {
  const fs::path dir = scratch("reproduce_json");
  Result r = run_rsoc(kDesrnd + " --format json --out j", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("command"), "reproduce");
  EXPECT_EQ(doc.at("out"), "j");
  EXPECT_EQ(doc.at("systems"), nlohmann::json::parse(R"(["desrnd"])"));
  std::istringstream csv(slurp(dir / "j" / "reproduce.csv"));
  std::string line;
  std::getline(csv, line);
  std::size_t i = 0;
  const auto& figures = doc.at("figures");
  while (std::getline(csv, line)) {
    ASSERT_LT(i, figures.size());
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (line.back() == ',') cells.emplace_back();
    ASSERT_EQ(cells.size(), 6u) << line;
    const auto& f = figures[i++];
    EXPECT_EQ(f.at("system"), cells[0]);
    EXPECT_EQ(f.at("figure"), cells[1]);
    EXPECT_EQ(f.at("kind"), cells[2]);
    if (cells[3].empty()) {
      EXPECT_TRUE(f.at("published").is_null()) << line;
    } else {
      EXPECT_EQ(f.at("published").get<double>(), std::stod(cells[3])) << line;
    }
    EXPECT_NEAR(f.at("simulated").get<double>(), std::stod(cells[4]), 0.0005 + 1e-12) << line;
    if (cells[5].empty()) {
      EXPECT_TRUE(f.at("error_pct").is_null()) << line;
    } else {
      EXPECT_NEAR(f.at("error_pct").get<double>(), std::stod(cells[5]), 0.005 + 1e-12) << line;
    }
  }
  EXPECT_EQ(i, figures.size());
  EXPECT_GT(i, 10u);
}

TEST(CliReproduce, SystemsByTheirScenariosNamesAndASummaryAtTheEnd) {
  const fs::path dir = scratch("reproduce_names");
  Result r = run_rsoc("reproduce --system desrnd_3des --out rep", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  // The table, then what it comes to: every kind counted, the calibrated ones' worst error.
  EXPECT_NE(r.out.find("\n\n30 figures: 2 calibrated, 26 predicted, 2 derived\n"
                       "desrnd: 30 figures: 2 calibrated, 26 predicted, 2 derived\n"
                       "  calibrated: worst error 0.00 % (speedup.des): the fit\n"
                       "  predicted with a published value: 2, worst first:\n"
                       "    speedup.des.iss: 47 published, 17.038 simulated, -63.75 %\n"
                       "    speedup.3des.iss: 92 published, 34.370 simulated, -62.64 %\n"),
            std::string::npos)
      << r.out;
  Result help = run_rsoc("reproduce --help", dir);
  for (const char* name : {"soc", "(os_aes_des)", "hsm (hsm_rsa2048)", "cell (cell_rsa4096)", "desrnd (desrnd_3des)"})
    EXPECT_NE(help.out.find(name), std::string::npos) << help.out;
  const std::pair<std::string, std::string> refused[] = {
      {"reproduce --system os_aes --out x",
       "rsoc: --system os_aes: not a reference system (known: soc (os_aes_des), hsm (hsm_rsa2048), cell "
       "(cell_rsa4096), desrnd (desrnd_3des))\n"},
      {"reproduce --system desrnd --system desrnd_3des.json --out x",
       "rsoc: --system desrnd_3des.json: desrnd is given twice\n"},
  };
  for (const auto& [args, message] : refused) {
    Result bad = run_rsoc(args, dir);
    EXPECT_EQ(bad.code, 2) << args;
    EXPECT_EQ(bad.err, message) << args;
  }
}
