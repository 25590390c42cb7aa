// What `rsoc run` says about energy, and what it writes (section energy; scenarios/README.md, "Energy").
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "platform/session.h"
#include "tests/cli/cli_test_support.h"

namespace {

namespace fs = std::filesystem;
using rsoc_cli_test::kSmoke;
using rsoc_cli_test::Result;
using rsoc_cli_test::scratch;
using rsoc_cli_test::slurp;

Result run(const std::string& args, const std::filesystem::path& dir) {
  return rsoc_cli_test::run_rsoc(args, dir);
}

// The column `name` of a CSV file's rows (a plain CSV: no quoted commas in the rows read here).
std::vector<std::string> csv_column(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::istringstream h(line); std::getline(h, line, ',');) header.push_back(line);
  const auto at = std::find(header.begin(), header.end(), name) - header.begin();
  std::vector<std::string> column;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (line.back() == ',') cells.emplace_back();
    column.push_back(static_cast<std::size_t>(at) < cells.size() ? cells[at] : "<missing>");
  }
  return column;
}

}  // namespace

TEST(Cli, ARunWithAnEnergyModelSaysWhatItSpentAndEveryRequestItsShare) {
  const std::string energy =
      R"('energy={"baseline_mw": 100, "cpus": {"cpu": {"active_mw": 150, "idle_mw": 60}},
                  "buses": {"plb": {"pj_per_word": 100}},
                  "memories": {"ddr": {"read_nj_per_word": 3, "write_nj_per_word": 2.5}},
                  "config_port": {"nj_per_word": 0.5}, "slots": {"slot0": {"static_mw": 15}},
                  "cores": {"aes_core": {"pj_per_cycle": 1500}}}')";
  const fs::path dir = scratch("energy_line");
  const Result r = run("run " + kSmoke + " --set " + energy + " --out e", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto stats =
      nlohmann::json::parse(slurp(dir / "e" / "stats.json")).at("resources").at("energy").at("stats");
  const double total = stats.at("total_mj").at("value").get<double>();
  const double idle = stats.at("floor_mj").at("value").get<double>();
  double requests_uj = 0;
  const auto cells = csv_column(slurp(dir / "e" / "requests.csv"), "energy_uj");
  ASSERT_EQ(cells.size(), 4u);
  for (const std::string& c : cells) requests_uj += std::stod(c);
  // One application: the requests spent everything the components did.
  EXPECT_NEAR(requests_uj * 1e-3, total - idle, 1e-6);
  char mean[64];
  const double end_ms =
      nlohmann::json::parse(slurp(dir / "e" / "stats.json")).at("simulated_ms").get<double>();
  std::snprintf(mean, sizeof mean, "%.4g mW", total / end_ms * 1e3);  // below 10 W
  const std::string line = "\nenergy: " + ::rsoc::platform::energy_text(total) + " (mean " + mean +
                           "): " + ::rsoc::platform::energy_text(idle) + " with nothing busy, " +
                           ::rsoc::platform::energy_text(total - idle) + " working, of which the requests " +
                           ::rsoc::platform::energy_text(requests_uj * 1e-3) + "\n";
  EXPECT_NE(r.out.find(line), std::string::npos) << r.out << "expected: " << line;
  const auto mean_uj = csv_column(slurp(dir / "e" / "summary.csv"), "energy_mean_uj");
  ASSERT_EQ(mean_uj.size(), 1u);
  EXPECT_NEAR(std::stod(mean_uj[0]), requests_uj / 4, 1e-5);
  // Without the section: the columns stay, empty; no line.
  const Result off = run("run " + kSmoke + " --out o", dir);
  ASSERT_EQ(off.code, 0) << off.err;
  EXPECT_EQ(off.out.find("energy:"), std::string::npos) << off.out;
  EXPECT_EQ(csv_column(slurp(dir / "o" / "requests.csv"), "energy_uj"), std::vector<std::string>(4, ""));
  EXPECT_EQ(csv_column(slurp(dir / "o" / "summary.csv"), "energy_mean_uj"), std::vector<std::string>{""});
}

TEST(Cli, EnergiesAreWrittenInTheUnitThatSuitsThem) {
  EXPECT_EQ(::rsoc::platform::energy_text(164314.2), "164.3 J");
  EXPECT_EQ(::rsoc::platform::energy_text(14.68024), "14.68 mJ");
  EXPECT_EQ(::rsoc::platform::energy_text(0.0036950164), "3.695 µJ");
  EXPECT_EQ(::rsoc::platform::energy_text(0), "0 mJ");
}
