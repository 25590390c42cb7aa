// `rsoc list` (the shipped scenarios with the first sentence of their descriptions) and `rsoc show` (the
// resolved scenario, without simulating): what they print, and what they refuse with the messages of run and
// validate.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.h"

namespace fs = std::filesystem;
using namespace rsoc_cli_test;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Columns of a UTF-8 line: its code points.
std::size_t columns(const std::string& line) {
  return static_cast<std::size_t>(std::count_if(
      line.begin(), line.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

TEST(CliList, ListsEveryShippedScenarioSortedWithTheFirstSentenceOfItsDescription) {
  const fs::path dir = scratch("list_shipped");
  Result r = run_rsoc("list", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "rsoc: scenarios in " + kScenarios + "\n");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(kScenarios))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), names.size()) << r.out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].rfind(names[i] + "  ", 0), 0u) << lines[i];
    EXPECT_LE(columns(lines[i]), 100u) << lines[i];
  }
  // Names in a column as wide as the longest (desrnd_3des_baseline), then the first sentence, whole when it
  // fits, else cut at a word.
  EXPECT_NE(r.out.find(
                "\nsmoke_fmc_des         FMC smoke test: a 180 MHz CPU reaches a static DES/3DES core in the "
                "FPGA...\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(
      r.out.find("\nos_aes_des            Reference: OS-managed AES-128 and DES on a reconfigurable SoC "
                 "(the...\n"),
      std::string::npos)
      << r.out;
  // The same list from the folder named with --scenarios; -q leaves stderr empty.
  Result same = run_rsoc("list --scenarios " + kScenarios + " -q", dir);
  EXPECT_EQ(same.code, 0);
  EXPECT_EQ(same.out, r.out);
  EXPECT_EQ(same.err, "");
}

TEST(CliList, AFileThatCannotBeReadIsListedWithItsReasonAndExitsTwo) {
  const fs::path dir = scratch("list_broken");
  const fs::path s = dir / "sc";
  fs::create_directories(s / "folder.json");  // not a file: not listed
  write(s / "notes.md", "not a scenario");
  write(s / "b_short.json", R"({"description": "Short.  Second sentence.\nThird."})");
  write(s / "a_broken.json", "{\n  \"description\": \"x\",\n  oops\n}\n");
  write(s / "c_none.json", "{}");
  write(s / "d_number.json", R"({"description": 5})");
  write(s / "e_array.json", "[]");
  write(
      s / "f_long.json",
      R"({"description": "Version 2.3 of a long description whose first sentence goes on and on with words )"
      R"(until it is far wider than any terminal could show on one line. Then more."})");
  write(s / "g_unicode.json", R"({"description": "Latencies of 1 µs – 2 µs, exactly."})");
  Result r = run_rsoc("list --scenarios sc", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(
      r.out,
      "a_broken   (cannot be read: line 3, column 3: malformed JSON: syntax error while parsing object key "
      "- invalid literal; last read: '\"x\",<U+000A>  o'; expected string literal)\n"
      "b_short    Short.\n"
      "c_none     (no description)\n"
      "d_number   (cannot be read: /description: expected a string)\n"
      "e_array    (cannot be read: expected a JSON object (a scenario))\n"
      "f_long     Version 2.3 of a long description whose first sentence goes on and on with words...\n"
      "g_unicode  Latencies of 1 µs – 2 µs, exactly.\n");
  // Each problem on stderr too, as validate reports it (also when quiet).
  const std::string problems =
      "sc/a_broken.json:3:3: malformed JSON: syntax error while parsing object key - invalid literal; last "
      "read: '\"x\",<U+000A>  o'; expected string literal\n"
      "sc/d_number.json: /description: expected a string\n"
      "sc/e_array.json: expected a JSON object (a scenario)\n";
  EXPECT_EQ(r.err, "rsoc: scenarios in sc\n" + problems);
  Result quiet = run_rsoc("list --scenarios sc --quiet", dir);
  EXPECT_EQ(quiet.code, 2);
  EXPECT_EQ(quiet.out, r.out);
  EXPECT_EQ(quiet.err, problems);
}

TEST(CliList, RefusesAFolderWithoutScenariosAndArguments) {
  const fs::path dir = scratch("list_refused");
  fs::create_directories(dir / "empty");
  const std::pair<std::string, std::string> cases[] = {
      {"list --scenarios nowhere", "rsoc: --scenarios nowhere: cannot list: No such file or directory\n"},
      {"list --scenarios empty", "rsoc: --scenarios empty: no scenario files (*.json)\n"},
      {"list " + kSmoke, "rsoc: list takes no scenario (--scenarios DIR names a folder)\n"},
  };
  for (const auto& [args, message] : cases) {
    Result r = run_rsoc(args, dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, message) << args;
    EXPECT_EQ(r.out, "") << args;
  }
}

TEST(CliShow, PrintsTheResolvedScenarioARunWouldWriteWithoutSimulating) {
  const fs::path dir = scratch("show");
  const std::string flags = " --set platform.config_port.cpu_copy_cycles_per_word=60 --seed 7";
  Result shown = run_rsoc("show " + kSmoke + flags, dir);
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_EQ(shown.err, "");
  EXPECT_FALSE(fs::exists(dir / "rsoc-out"));  // nothing simulated, nothing written
  ASSERT_EQ(run_rsoc("run " + kSmoke + flags + " --out r", dir).code, 0);
  EXPECT_EQ(shown.out, slurp(dir / "r" / "resolved_scenario.json"));
  const auto doc = nlohmann::json::parse(shown.out);
  EXPECT_EQ(doc.at("seed"), 7);
  EXPECT_EQ(doc.at("platform").at("config_port").at("cpu_copy_cycles_per_word"), 60);
  // Without a scenario: the embedded reference experiment, as run uses it.
  Result reference = run_rsoc("show", dir);
  ASSERT_EQ(reference.code, 0) << reference.err;
  EXPECT_EQ(nlohmann::json::parse(reference.out).at("description").get<std::string>().rfind("Reference: ", 0),
            0u);
  // Verbose: what identifies it.
  Result verbose = run_rsoc("show " + kSmoke + " -v", dir);
  EXPECT_NE(verbose.err.find("rsoc: " + kSmoke + ": sha256 "), std::string::npos) << verbose.err;
  EXPECT_EQ(verbose.out, run_rsoc("show " + kSmoke, dir).out);
}

TEST(CliShow, RefusesWhatRunAndValidateRefuseWithTheSameMessages) {
  const fs::path dir = scratch("show_refused");
  const std::string several = kBroken + "/several_errors.json";
  Result validate = run_rsoc("validate " + several, dir);
  ASSERT_EQ(validate.code, 2);
  Result broken = run_rsoc("show " + several, dir);
  EXPECT_EQ(broken.code, 2);
  EXPECT_EQ(broken.out, "");
  EXPECT_EQ(broken.err, validate.err);
  const std::pair<std::string, std::string> cases[] = {
      {"show --set platform.cpus.0.clok_mhz=50",
       "--set platform.cpus.0.clok_mhz=50: /platform/cpus/0/clok_mhz: unknown key \"clok_mhz\"; did you mean "
       "\"clock_mhz\"?\n"},
      {"show --seed -1",
       "--seed -1: /seed: -1 is out of range; expected an integer >= 0 and <= 9007199254740991\n"},
      {"show missing.json", "missing.json: cannot open: No such file or directory\n"},
      {"show " + kSmoke + " " + kSmoke, "rsoc: show takes one scenario, got 2\n"},
      {"show --out x", "rsoc: unrecognised option '--out'\n"},
  };
  for (const auto& [args, message] : cases) {
    Result r = run_rsoc(args, dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, message) << args;
    EXPECT_EQ(r.out, "") << args;
    // run says the same.
    if (args.rfind("show --s", 0) == 0) {
      EXPECT_EQ(run_rsoc("run" + args.substr(4) + " --out x", dir).err, message);
    }
  }
  EXPECT_FALSE(fs::exists(dir / "x"));
}

TEST(CliShow, HelpSaysWhatItPrints) {
  const fs::path dir = scratch("show_help");
  Result show = run_rsoc("show --help", dir);
  EXPECT_EQ(show.code, 0);
  EXPECT_NE(show.out.find("resolved_scenario.json"), std::string::npos) << show.out;
  Result list = run_rsoc("list --help", dir);
  EXPECT_EQ(list.code, 0);
  EXPECT_NE(list.out.find("--scenarios"), std::string::npos) << list.out;
  Result top = run_rsoc("--help", dir);
  for (const char* line : {"\n  show [SCENARIO]  ", "\n  list  "})
    EXPECT_NE(top.out.find(line), std::string::npos) << line << "\n" << top.out;
}
