// sensitivity.csv and its aligned table: the swing, empty cells, provenance (plain C++: no simulation).
#include "analysis/sensitivity_table.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using rsoc::analysis::SensitivityRow;

TEST(SensitivityTable, SwingIsTheMoveFromLowToHighOverTheBase) {
  EXPECT_DOUBLE_EQ(*rsoc::analysis::swing_pct({"p", "50", "200", "m", 4.24, 2.12, 1.06}), -150.0);
  EXPECT_DOUBLE_EQ(*rsoc::analysis::swing_pct({"p", "1", "2", "m", 20, 40, 80}), 150.0);
  EXPECT_FALSE(rsoc::analysis::swing_pct({"p", "1", "2", "m", 0, 0, 1}));  // no base to compare with
  EXPECT_FALSE(rsoc::analysis::swing_pct({"p", "1", "2", "m", std::nullopt, 40, 80}));
}

TEST(SensitivityTable, CsvHasARowPerAssumptionAndMetricWithTheBaseProvenance) {
  const auto path =
      std::filesystem::temp_directory_path() / ("rsoc_sensitivity_table_" + std::to_string(::getpid()));
  const std::vector<SensitivityRow> rows{
      {"platform.cpus.0.clock_mhz", "50", "200", "aes128.software.latency_mean_ms", 4.24, 2.12, 1.06},
      {"a+b", "1+[1,2]", "2+[3]", "aes128.crossover_blocks", std::nullopt, 40, 80, 200},
      {"a+b", "1+[1,2]", "2+[3]", "failed", 0, 0, 0}};
  rsoc::analysis::write_sensitivity_csv(path.string(), rows, {"0.1.0", "abc", 7});
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "parameter,low,high,metric,at_low,at_base,at_high,swing_pct,at_low_beyond,at_base_beyond,"
            "at_high_beyond,rsoc_version,scenario_sha256,seed\n"
            "platform.cpus.0.clock_mhz,50,200,aes128.software.latency_mean_ms,4.240000,2.120000,1.060000,"
            "-150.00,,,,0.1.0,abc,7\n"
            "a+b,\"1+[1,2]\",2+[3],aes128.crossover_blocks,,40,80,,200,,,0.1.0,abc,7\n"
            "a+b,\"1+[1,2]\",2+[3],failed,0,0,0,,,,,0.1.0,abc,7\n");
  std::filesystem::remove(path);
}

TEST(SensitivityTable, TextIsAlignedWithDashesForMissingValues) {
  const std::vector<SensitivityRow> rows{{"clock", "50", "200", "latency_ms", 4.24, 2.12, 1.06},
                                         {"copy+remainder", "1+2", "3+4", "x", std::nullopt, 40, 80},
                                         {"b", "1", "2", "f.crossover_blocks", std::nullopt, 40, 80, 200}};
  EXPECT_EQ(rsoc::analysis::sensitivity_text(rows),
            "parameter       low  high  metric                at_low   at_base   at_high  swing_pct\n"
            "clock           50   200   latency_ms          4.240000  2.120000  1.060000    -150.00\n"
            "copy+remainder  1+2  3+4   x                          -        40        80          -\n"
            "b               1    2     f.crossover_blocks     > 200        40        80          -\n");
}
