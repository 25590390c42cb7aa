// --format json: the summary a command prints on stdout as one JSON document, and nothing else there; its
// values agree with the result files.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.h"

namespace fs = std::filesystem;
using namespace rsoc_cli_test;

namespace {

// The rows of a CSV file as maps from column to cell.
std::vector<std::map<std::string, std::string>> csv_rows(const std::string& text) {
  std::vector<std::map<std::string, std::string>> rows;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  const auto split = [](const std::string& l) {
    std::vector<std::string> cells;
    std::stringstream ss(l);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (!l.empty() && l.back() == ',') cells.emplace_back();
    return cells;
  };
  std::getline(in, line);
  header = split(line);
  while (std::getline(in, line)) {
    const auto cells = split(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

// A number of a CSV cell, printed with `decimals`, agrees with the JSON's full value.
void expect_agrees(const nlohmann::json& value, const std::string& cell, int decimals,
                   const std::string& what) {
  ASSERT_TRUE(value.is_number()) << what;
  EXPECT_NEAR(value.get<double>(), std::stod(cell), 0.5 * std::pow(10.0, -decimals) + 1e-12) << what;
}

}  // namespace

TEST(CliFormat, RunSummaryAsJsonAgreesWithSummaryCsv) {
  const fs::path dir = scratch("format_run");
  // The reference with 8 requests per application: both decisions for both functionalities.
  const std::string run = "run --set workload.apps.0.requests=8 --set workload.apps.1.requests=8";
  Result text = run_rsoc(run + " --out t", dir);
  ASSERT_EQ(text.code, 0) << text.err;
  Result r = run_rsoc(run + " --format json --out j", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, text.err.substr(0, text.err.find("results in t")) + "results in j\n");
  const auto doc = nlohmann::json::parse(r.out);  // throws (fails the test) unless stdout is one document
  EXPECT_EQ(doc.at("command"), "run");
  EXPECT_EQ(doc.at("out"), "j");
  EXPECT_EQ(doc.at("requests"), 16);
  EXPECT_EQ(doc.at("failed"), 0);
  EXPECT_GT(doc.at("simulated_ms").get<double>(), 0);
  // The verdict, replacement and energy lines of the text summary, word for word.
  const std::string verdict = text.out.substr(text.out.rfind("busiest resource: "));
  EXPECT_EQ(doc.at("verdict").get<std::string>() + "\n" + doc.at("replacement").get<std::string>() + "\n" +
                doc.at("energy").get<std::string>() + "\n",
            verdict);
  const auto rows = csv_rows(slurp(dir / "j" / "summary.csv"));
  const auto& summary = doc.at("summary");
  ASSERT_EQ(summary.size(), rows.size());
  ASSERT_EQ(rows.size(), 4u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    const auto& json = summary[i];
    const std::string what = row.at("functionality") + " " + row.at("decision");
    EXPECT_EQ(json.at("functionality"), row.at("functionality"));
    EXPECT_EQ(json.at("decision"), row.at("decision"));
    for (const char* count : {"count", "failed", "blocks", "bytes", "reconfigurations"})
      EXPECT_EQ(json.at(count).get<std::uint64_t>(), std::stoull(row.at(count))) << what << " " << count;
    for (const char* ms : {"latency_mean_ms", "latency_p50_ms", "latency_p99_ms"})
      expect_agrees(json.at(ms), row.at(ms), 6, what + " " + ms);
    expect_agrees(json.at("throughput_kBps"), row.at("throughput_kBps"), 3, what);
    expect_agrees(json.at("energy_mean_uj"), row.at("energy_mean_uj"), 6, what);
  }
  // The same results whatever the format.
  EXPECT_EQ(slurp(dir / "j" / "summary.csv"), slurp(dir / "t" / "summary.csv"));
}

TEST(CliFormat, FailedRequestsStillGiveTheDocumentAndExitOne) {
  const fs::path dir = scratch("format_failed");
  Result r = run_rsoc("run " + kSmoke +
                          " --set runtime.driver.max_polls=1 --set platform.cores.0.block_cycles=100000 "
                          "--format json --out f",
                      dir);
  EXPECT_EQ(r.code, 1);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("requests"), 4);
  EXPECT_EQ(doc.at("failed"), 4);
}

TEST(CliFormat, CrossoverSummaryAsJson) {
  const fs::path dir = scratch("format_crossover");
  Result r = run_rsoc("crossover --max-blocks 45 -f aes128 -f des --format json --out x", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("command"), "crossover");
  EXPECT_EQ(doc.at("out"), "x");
  EXPECT_EQ(doc.at("max_blocks"), 45);
  EXPECT_EQ(doc.at("summary"), nlohmann::json::parse(R"([
      {"functionality": "aes128", "crossover_blocks": 40, "analytic_crossover_blocks": 40,
       "energy_crossover_blocks": 40, "searched_to_blocks": 45, "crossings": 1},
      {"functionality": "des", "crossover_blocks": null, "analytic_crossover_blocks": null,
       "energy_crossover_blocks": null, "searched_to_blocks": 45, "crossings": 0}])"))
      << r.out;
  const auto rows = csv_rows(slurp(dir / "x" / "crossover_summary.csv"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("crossover_blocks"), "40");
  EXPECT_EQ(rows[1].at("crossover_blocks"), "");
  EXPECT_EQ(rows[0].at("energy_crossover_blocks"), "40");
  EXPECT_EQ(rows[1].at("energy_crossover_blocks"), "");
  EXPECT_EQ(doc.at("experiments").get<std::uint64_t>(), 2u * 45u * 3u);
}

TEST(CliFormat, SweepsAsJson) {
  const fs::path dir = scratch("format_sweep");
  Result r = run_rsoc(
      "crossover -f aes128 --max-blocks 3 --param runtime.driver.cycles_per_block=100,200 "
      "--format json --out s",
      dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out), nlohmann::json::parse(R"({"command": "crossover", "out": "s",
      "points": 2, "kept": 0, "failed": 0, "missing": 0, "table": "s/sweep.csv"})"));
  Result emit = run_rsoc("sweep " + kSmoke +
                             " --param runtime.driver.cycles_per_block=100,200 --emit parallel "
                             "--format json --out e",
                         dir);
  ASSERT_EQ(emit.code, 0) << emit.err;
  const auto doc = nlohmann::json::parse(emit.out);
  EXPECT_EQ(doc.at("command"), "sweep");
  EXPECT_EQ(doc.at("file"), "e/jobs.txt");
  EXPECT_EQ(doc.at("to_run"), 2);
  ASSERT_EQ(doc.at("commands").size(), 2u);
  EXPECT_EQ(doc.at("commands")[0].get<std::string>().rfind("parallel --jobs ", 0), 0u);
  EXPECT_NE(
      doc.at("commands")[1].get<std::string>().find(" merge '" + fs::absolute(dir / "e").string() + "'"),
      std::string::npos);
}

TEST(CliFormat, AnUnknownFormatIsRefusedBeforeAnythingRuns) {
  const fs::path dir = scratch("format_refused");
  for (const std::string& args :
       {std::string("run --format xml --out x"), std::string("crossover --format xml --out x"),
        "sweep " + kSmoke + " --param runtime.driver.cycles_per_block=100,200 --format xml --out x",
        std::string("reproduce --system soc --format xml --out x")}) {
    Result r = run_rsoc(args, dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, "rsoc: --format xml: expected text or json\n") << args;
    EXPECT_EQ(r.out, "") << args;
  }
  EXPECT_FALSE(fs::exists(dir / "x"));
  for (const char* command : {"run", "crossover", "sweep", "sensitivity", "reproduce"})
    EXPECT_NE(run_rsoc(std::string(command) + " --help", dir).out.find("--format"), std::string::npos)
        << command;
}

TEST(CliFormat, SensitivityRowsAsJsonAgreeWithSensitivityCsv) {
  const fs::path dir = scratch("format_sensitivity");
  Result r =
      run_rsoc("sensitivity " + kSmoke +
                   " --vary runtime.driver.cycles_per_block=100:300 --metric requests_per_s --format json "
                   "--out s",
               dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("command"), "sensitivity");
  EXPECT_EQ(doc.at("points"), 3);
  EXPECT_EQ(doc.at("sensitivity_table"), "s/sensitivity.csv");
  const auto rows = csv_rows(slurp(dir / "s" / "sensitivity.csv"));
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(doc.at("sensitivity").size(), 1u);
  const auto& row = doc.at("sensitivity")[0];
  for (const char* text : {"parameter", "low", "high", "metric"}) EXPECT_EQ(row.at(text), rows[0].at(text));
  for (const char* value : {"at_low", "at_base", "at_high"})
    expect_agrees(row.at(value), rows[0].at(value), 6, value);
  expect_agrees(row.at("swing_pct"), rows[0].at("swing_pct"), 2, "swing_pct");
}

TEST(CliFormat, JsonNumbersAreShortDecimals) {
  // Means and ratios come out of binary arithmetic with noise in their last bits; the JSON results print
  // them rounded to 15 significant digits (3637.326236, not 3637.3262360000003).
  const fs::path dir = scratch("format_numbers");
  Result r = run_rsoc("run --format json --out x", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const std::string& text : {r.out, slurp(dir / "x" / "stats.json")}) {
    std::size_t checked = 0;
    for (std::size_t at = 0; (at = text.find_first_of("0123456789", at)) != std::string::npos;) {
      std::size_t end = text.find_first_not_of("0123456789.eE+-", at);
      if (end == std::string::npos) end = text.size();
      const std::string number = text.substr(at, end - at);
      at = end;
      if (number.find('.') == std::string::npos) continue;
      std::string mantissa;  // its digits, leading zeros dropped: the significant ones
      for (char c : number.substr(0, number.find_first_of("eE")))
        if (c >= '0' && c <= '9' && (c != '0' || !mantissa.empty())) mantissa += c;
      EXPECT_LE(mantissa.size(), 15u) << number;
      ++checked;
    }
    EXPECT_GT(checked, 10u);
  }
}
