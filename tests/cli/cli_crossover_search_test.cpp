// The crossover search (platform/crossover.h): galloping and bisection give the exhaustive table's answer on
// every shipped scenario, with a number of simulated block counts that grows with the logarithm of the
// crossover; a crossover beyond the search is censored ("> N"); several crossings are said.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "tests/cli/cli_test_support.h"

using namespace rsoc_cli_test;

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::stringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

// The rows of a CSV file (no quoted cells in these files), as column -> text.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& file) {
  std::stringstream in(slurp(file));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split(line);
    auto& row = rows.emplace_back();
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = i < cells.size() ? cells[i] : "";
  }
  return rows;
}

// Per functionality: the first block count of crossover.csv at which hardware with reconfiguration is faster
// (and, with energy, cheaper) than software: the exhaustive answer.
std::map<std::string, std::pair<std::string, std::string>> exhaustive(const fs::path& crossover_csv) {
  std::map<std::string, std::pair<std::string, std::string>> first;
  for (const auto& r : read_csv(crossover_csv)) {
    auto& [time, energy] = first[r.at("functionality")];
    if (time.empty() && std::stod(r.at("hw_cold_ms")) < std::stod(r.at("sw_ms"))) time = r.at("blocks");
    if (energy.empty() && !r.at("sw_uj").empty() && std::stod(r.at("hw_cold_uj")) < std::stod(r.at("sw_uj")))
      energy = r.at("blocks");
  }
  return first;
}

}  // namespace

TEST(CrossoverSearch, GivesTheExhaustiveTablesAnswerOnEveryShippedScenario) {
  // Each scenario with a functionality in software and hardware, searched (no table) and tabulated to the
  // same bound. The Cell and modexp tables stop early (4096-bit exponentiations take long to simulate);
  // smoke_aes's table runs to 6,000 blocks, where its crossover is (5,606); os_aes_des_iss's to 45 (its
  // crossovers are below; every block count is a new length, whose code the ISS runs); os_aes_des_rtl's to
  // 100 (its crossovers, 40 and 80, are below; its RTL cores take every cipher block word by word). Not
  // faults_aes_des: its times are the injected faults each block count happens to draw, which depend on what
  // ran before it (the table and the search draw different faults: scenarios/README.md).
  const std::map<std::string, std::uint64_t> bound{{"cell_rsa4096", 40},
                                                   {"smoke_modexp", 20},
                                                   {"smoke_aes", 6000},
                                                   {"os_aes_des_iss", 45},
                                                   {"os_aes_des_rtl", 100}};
  const std::set<std::string> skipped{"faults_aes_des", "hsm_rsa2048", "smoke_fmc_des"};
  const fs::path dir = scratch("crossover_search");
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(kScenarios)) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().stem().string();
    if (skipped.count(name)) continue;
    const std::string n = std::to_string(bound.count(name) ? bound.at(name) : 200);
    const std::string scenario = entry.path().string();
    Result table =
        run_rsoc("crossover " + scenario + " --max-blocks " + n + " --table " + n + " --out t_" + name, dir);
    ASSERT_EQ(table.code, 0) << name << ": " << table.err;
    Result search =
        run_rsoc("crossover " + scenario + " --max-blocks " + n + " --table 0 --out s_" + name, dir);
    ASSERT_EQ(search.code, 0) << name << ": " << search.err;
    const auto expected = exhaustive(dir / ("t_" + name) / "crossover.csv");
    const auto rows = read_csv(dir / ("s_" + name) / "crossover_summary.csv");
    ASSERT_EQ(rows.size(), expected.size()) << name;
    for (const auto& r : rows) {
      const auto& [time, energy] = expected.at(r.at("functionality"));
      EXPECT_EQ(r.at("crossover_blocks"), time) << name << " " << r.at("functionality");
      EXPECT_EQ(r.at("energy_crossover_blocks"), energy) << name << " " << r.at("functionality");
      EXPECT_EQ(r.at("searched_to_blocks"), n) << name;
      ++compared;
    }
    // The table's own summary is the exhaustive answer too.
    for (const auto& r : read_csv(dir / ("t_" + name) / "crossover_summary.csv"))
      EXPECT_EQ(r.at("crossover_blocks"), expected.at(r.at("functionality")).first) << name;
  }
  EXPECT_GE(compared, 15);
}

TEST(CrossoverSearch, SimulatesANumberOfBlockCountsThatGrowsWithTheLogarithm) {
  // smoke_aes crosses at 5,606 blocks: the table would simulate 5,606 block counts; the search simulates
  // about 2 log2(5606) (galloping to 8,192, then bisection between 4,096 and 8,192), a few hundred thousand
  // blocks in all instead of 15.7 million.
  const fs::path dir = scratch("crossover_log");
  Result r = run_rsoc("crossover " + kSmoke + " --table 0 --out x", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("aes128                     5606"), std::string::npos) << r.out;
  const auto rows = read_csv(dir / "x" / "crossover.csv");
  EXPECT_LE(rows.size(), static_cast<std::size_t>(2 * std::log2(5606.0) + 4));
  const auto summary = read_csv(dir / "x" / "crossover_summary.csv");
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0].at("crossover_blocks"), "5606");
  EXPECT_EQ(summary[0].at("searched_to_blocks"), "1000000");
  // With the default table, the same answer, and every block count up to 200 for plots.
  Result with_table = run_rsoc("crossover " + kSmoke + " --out t", dir);
  ASSERT_EQ(with_table.code, 0) << with_table.err;
  EXPECT_EQ(read_csv(dir / "t" / "crossover_summary.csv")[0].at("crossover_blocks"), "5606");
  std::set<std::uint64_t> blocks;
  for (const auto& row : read_csv(dir / "t" / "crossover.csv")) blocks.insert(std::stoull(row.at("blocks")));
  for (std::uint64_t n = 1; n <= 200; ++n) EXPECT_TRUE(blocks.count(n)) << n;
}

TEST(CrossoverSearch, TheCrossoverFoundDoesNotDependOnTheTable) {
  // A DMA-fed port on a 2 MHz bus: the core gains a hair per block on software, and the daemon's share of a
  // long request makes the gap waver about zero near 6,000 blocks. The gallop visits the powers of two above
  // the table whatever its length, so the bisection's bracket, and the block count it finds, are the same.
  const fs::path dir = scratch("crossover_table");
  const std::string base =
      "crossover --set 'platform.dmas=[{\"name\":\"dma\",\"bus\":\"plb\",\"base\":\"0x40100000\"}]' "
      "--set platform.config_port.feed=dma --set platform.config_port.dma=dma --set energy=null "
      "--set platform.buses.0.clock_mhz=2 -f aes128 ";
  std::string found[2];
  const char* tables[2] = {"0", "200"};
  for (int i = 0; i < 2; ++i) {
    Result r = run_rsoc(base + "--table " + tables[i] + " --out t" + tables[i], dir);
    ASSERT_EQ(r.code, 0) << r.err;
    found[i] =
        read_csv(dir / ("t" + std::string(tables[i])) / "crossover_summary.csv")[0].at("crossover_blocks");
  }
  EXPECT_EQ(found[0], found[1]);
  EXPECT_GT(std::stoull(found[0]), 4096u);
}

TEST(CrossoverSearch, ACrossoverBeyondTheSearchIsCensoredAtItsBound) {
  // desrnd_3des's static cores: hardware never beats the CPU's DES instruction; the gap between them grows
  // with the blocks, so the search stops after four block counts and says "> N" everywhere.
  const fs::path dir = scratch("crossover_censored");
  const std::string scenario = kScenarios + "/desrnd_3des.json";
  Result r = run_rsoc("crossover " + scenario + " -f des --table 0 --out x", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "functionality  crossover_blocks  analytic_crossover_blocks  energy_crossover_blocks\n"
            "des                   > 1000000                  > 1000000                > 1000000\n");
  EXPECT_EQ(read_csv(dir / "x" / "crossover.csv").size(), 4u);
  const auto summary = read_csv(dir / "x" / "crossover_summary.csv")[0];
  EXPECT_EQ(summary.at("crossover_blocks"), "");
  EXPECT_EQ(summary.at("searched_to_blocks"), "1000000");
  // A bound of its own: the table to 30 and nothing beyond.
  Result small =
      run_rsoc("crossover " + scenario + " -f des --max-blocks 30 --table 30 --format json --out y", dir);
  ASSERT_EQ(small.code, 0) << small.err;
  EXPECT_NE(small.out.find("\"crossover_blocks\": null,"), std::string::npos) << small.out;
  EXPECT_NE(small.out.find("\"searched_to_blocks\": 30,"), std::string::npos) << small.out;
  // A request holds at most 1 GiB: 4 KiB blocks are searched to 262,144.
  Result big = run_rsoc("crossover -f aes128 --table 0 --set platform.buses.0.clock_mhz=1 --out z", dir);
  ASSERT_EQ(big.code, 0) << big.err;
  EXPECT_NE(big.out.find("aes128                 > 262144"), std::string::npos) << big.out;
}

TEST(CrossoverSearch, SaysWhenSoftwareAndHardwareCrossMoreThanOnce) {
  // The fault experiment: upsets and failed configurations make some block counts slower in hardware.
  const fs::path dir = scratch("crossover_crossings");
  Result r = run_rsoc(
      "crossover " + kScenarios + "/faults_aes_des.json -f aes128 --max-blocks 100 --table 100 --out x", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto summary = read_csv(dir / "x" / "crossover_summary.csv")[0];
  const unsigned crossings = static_cast<unsigned>(std::stoul(summary.at("crossings")));
  EXPECT_GT(crossings, 1u);
  EXPECT_NE(
      r.out.find("aes128: software and hardware with reconfiguration cross " + std::to_string(crossings) +
                 " times among the block counts simulated; the crossover is the first\n"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(summary.at("crossover_blocks"), exhaustive(dir / "x" / "crossover.csv").at("aes128").first);
}
