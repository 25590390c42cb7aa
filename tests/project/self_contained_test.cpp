// The repository stands on its own: no project file refers to a folder beside the source tree or to a
// reference document outside it (forbidden() spells the two mentions; this file assembles them so as not to
// contain them). The published systems are described in their scenario mds, the test vectors are in
// tests/data. The files checked are those `git ls-files` lists when the source tree is a git checkout, else
// every file under it (build trees and .git left out).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_paths.h"

namespace fs = std::filesystem;

namespace {

// The mentions looked for, assembled so that this file does not contain them itself.
const std::vector<std::string>& forbidden() {
  static const std::vector<std::string> words{std::string("..") + "/shared",
                                              std::string("REFERENCE") + ".md"};
  return words;
}

// Runs a shell command and returns its standard output, or nothing when it exits with an error.
std::optional<std::string> output_of(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  return ::pclose(pipe) == 0 ? std::optional<std::string>(out) : std::nullopt;
}

std::string quoted(const fs::path& p) {
  std::string q = "'";
  for (char c : p.string()) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The files of `root`, relative to it: git's tracked files when `root` is the top of a git checkout, else a
// walk of the tree that skips .git and build trees (folders holding a CMakeCache.txt).
std::vector<fs::path> project_files(const fs::path& root, bool* from_git = nullptr) {
  std::vector<fs::path> files;
  const auto top = output_of("git -C " + quoted(root) + " rev-parse --show-toplevel 2>/dev/null");
  std::error_code ec;
  if (top && fs::equivalent(fs::path(top->substr(0, top->find('\n'))), root, ec)) {
    if (const auto listed = output_of("git -C " + quoted(root) + " ls-files -z 2>/dev/null")) {
      std::istringstream in(*listed);
      for (std::string name; std::getline(in, name, '\0');)
        if (!name.empty()) files.emplace_back(name);
      if (from_git != nullptr) *from_git = true;
      return files;
    }
  }
  if (from_git != nullptr) *from_git = false;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& p = it->path();
    if (it->is_directory() && (p.filename() == ".git" || fs::exists(p / "CMakeCache.txt"))) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(fs::relative(p, root));
  }
  return files;
}

// One line per mention: `file:line: mentions WORD`.
std::vector<std::string> mentions(const fs::path& root, const std::vector<fs::path>& files) {
  std::vector<std::string> found;
  for (const fs::path& file : files) {
    std::ifstream in(root / file, std::ios::binary);
    if (!in) continue;  // tracked but deleted in the working tree
    std::string line;
    for (int number = 1; std::getline(in, line); ++number)
      for (const std::string& word : forbidden())
        if (line.find(word) != std::string::npos)
          found.push_back(file.string() + ":" + std::to_string(number) + ": mentions " + word);
  }
  return found;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& line : lines) s += line + "\n";
  return s;
}

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("rsoc_self_contained_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

}  // namespace

TEST(SelfContained, NoProjectFileRefersOutsideTheRepository) {
  const fs::path root(rsoc_test::kSourceDir);
  const std::vector<fs::path> files = project_files(root);
  // The listing really is the project's (a listing that came back empty would check nothing).
  ASSERT_GT(files.size(), 100U);
  for (const char* expected :
       {"CMakeLists.txt", "README.md", "tests/data/README.md", "scenarios/os_aes_des.md"})
    EXPECT_TRUE(std::find(files.begin(), files.end(), fs::path(expected)) != files.end())
        << expected << " is not in the listing";
  const std::vector<std::string> found = mentions(root, files);
  EXPECT_TRUE(found.empty()) << "files that depend on material outside the repository (describe it in the "
                                "scenario mds, copy test data into tests/data):\n"
                             << joined(found);
}

TEST(SelfContained, TheScanNamesEveryFileAndLineThatMentionsEitherWord) {
  const fs::path dir = scratch("walk");
  write(dir / "README.md", "See " + forbidden()[1] + " section 2.\n");
  write(dir / "src" / "a.cpp", "// fine\n#define DIR \"" + forbidden()[0] + "/reference\"\n");
  write(dir / "src" / "clean.h", "// shared reference, REFERENCE, ../share\n");
  write(dir / ".ci" / "run", "cd " + forbidden()[0] + "\n");
  write(dir / ".git" / "config", forbidden()[0] + "\n");
  write(dir / "build" / "CMakeCache.txt", "");
  write(dir / "build" / "generated.txt", forbidden()[1] + "\n");
  bool from_git = true;
  const std::vector<fs::path> files = project_files(dir, &from_git);
  EXPECT_FALSE(from_git);
  EXPECT_EQ(files.size(), 4U);
  std::vector<std::string> found = mentions(dir, files);
  std::sort(found.begin(), found.end());
  EXPECT_EQ(joined(found), ".ci/run:1: mentions " + forbidden()[0] + "\nREADME.md:1: mentions " +
                               forbidden()[1] + "\nsrc/a.cpp:2: mentions " + forbidden()[0] + "\n");
  fs::remove_all(dir);
}

TEST(SelfContained, InAGitCheckoutOnlyTrackedFilesAreChecked) {
  const fs::path dir = scratch("git");
  if (!output_of("git -C " + quoted(dir) + " init -q 2>/dev/null")) GTEST_SKIP() << "no git";
  write(dir / "tracked.md", forbidden()[0] + "\n");
  write(dir / "untracked.md", forbidden()[1] + "\n");
  ASSERT_TRUE(output_of("git -C " + quoted(dir) + " add tracked.md"));
  bool from_git = false;
  const std::vector<fs::path> files = project_files(dir, &from_git);
  EXPECT_TRUE(from_git);
  EXPECT_EQ(joined(mentions(dir, files)), "tracked.md:1: mentions " + forbidden()[0] + "\n");
  fs::remove_all(dir);
}
