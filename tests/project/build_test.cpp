// The build compiles to the same objects wherever the tree is checked out, so that the compiler cache shares
// them between clones (CMakeLists.txt: the compiler cache): the source and build folders are named only by the
// few files that need them (their own definitions, or tests/test_paths.h's one generated file), never by a
// definition given to a whole target, and the unity batches include their sources by their path in the tree.
// Read from this build's compile_commands.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "tests/test_paths.h"

namespace fs = std::filesystem;

namespace {

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool names_the_tree(const std::string& text) {
  return text.find(rsoc_test::kSourceDir) != std::string::npos ||
         text.find(rsoc_test::kBuildDir) != std::string::npos;
}

}  // namespace

TEST(Build, OnlyTheFilesThatNeedThePathsDependOnWhereTheTreeIs) {
  const fs::path commands = fs::path(rsoc_test::kBuildDir) / "compile_commands.json";
  ASSERT_TRUE(fs::is_regular_file(commands)) << commands;
  const auto all = nlohmann::json::parse(text_of(commands));
  const std::set<std::string> allowed{"platform/reproduce.cpp", "platform/scenario_sections.cpp",
                                      "tools/command_verify.cpp"};
  std::set<std::string> defining;
  int batches = 0;
  for (const auto& entry : all) {
    const std::string file = entry.at("file").get<std::string>();
    std::istringstream words(entry.at("command").get<std::string>());
    for (std::string word; words >> word;)
      if (word.rfind("-D", 0) == 0 && names_the_tree(word))
        defining.insert(fs::relative(file, rsoc_test::kSourceDir).generic_string());
    if (fs::path(file).parent_path().filename() == "unity") {
      ++batches;
      EXPECT_FALSE(names_the_tree(text_of(file))) << file << " names its sources by absolute paths";
    }
  }
  for (const auto& f : defining) EXPECT_TRUE(allowed.count(f)) << f << " has a definition naming a folder";
  EXPECT_EQ(defining, allowed);
  // (a build with RSOC_UNITY_BUILD=OFF has no batches)
  if (batches > 0) {
    EXPECT_GE(batches, 20);
  }
}
