// The build compiles to the same objects wherever the tree is checked out, so that the compiler cache shares
// them between clones (CMakeLists.txt: the compiler cache): the source and build folders are named only by the
// few files that need them (their own definitions, or tests/test_paths.h's one generated file), never by a
// definition given to a whole target, and the unity batches include their sources by their path in the tree.
// Read from this build's compile_commands.json. And the compiler cache is an accelerator only: one that cannot
// work is left out when the build is configured.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <system_error>

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

TEST(Build, ACompilerCacheThatCannotWorkIsLeftOutWithAWarning) {
  if (std::system("command -v ccache >/dev/null") != 0) GTEST_SKIP() << "ccache is not installed";
  const fs::path dir = fs::temp_directory_path() / ("rsoc_build_cache_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Its folder cannot be made: every compile through it would fail.
  const std::string configure = "cd '" + dir.string() + "' && CCACHE_DIR=/proc/rsoc-no-such-folder cmake -S '" +
                                rsoc_test::kSourceDir +
                                "' -B build -DRSOC_BUILD_TESTS=OFF -DRSOC_BUILD_BENCHMARKS=OFF >out.txt 2>err.txt";
  ASSERT_EQ(std::system(configure.c_str()), 0) << text_of(dir / "err.txt");
  EXPECT_NE(text_of(dir / "err.txt").find("ccache cannot compile here"), std::string::npos)
      << text_of(dir / "err.txt");
  const std::string rules = text_of(dir / "build" / "platform" / "CMakeFiles" / "rsoc_platform.dir" / "build.make");
  EXPECT_NE(rules.find("rsoc_platform"), std::string::npos);  // (the rules were written)
  EXPECT_EQ(rules.find("CCACHE_BASEDIR"), std::string::npos);  // (the launcher's settings)
  std::error_code ec;
  fs::remove_all(dir, ec);
}
