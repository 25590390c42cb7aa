// write_file_atomically: a file is replaced whole or not at all.
#include "analysis/output_dir.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST(AtomicFile, ReplacesTheFileAndLeavesNoTemporary) {
  const fs::path dir = fs::temp_directory_path() / ("rsoc_atomic_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  rsoc::analysis::write_file_atomically(dir / "t.csv", "old\n");
  rsoc::analysis::write_file_atomically(dir / "t.csv", "new\n");
  EXPECT_EQ(slurp(dir / "t.csv"), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(AtomicFile, AFailedWriteLeavesNothing) {
  const fs::path dir = fs::temp_directory_path() / ("rsoc_atomic_none_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  EXPECT_THROW(rsoc::analysis::write_file_atomically(dir / "t.csv", "x"), rsoc::analysis::OutputDirError);
  EXPECT_FALSE(fs::exists(dir));
}

TEST(AtomicFile, AWriteCutShortKeepsThePreviousFile) {
  // A full disk, as a file size limit: writing past it fails (EFBIG, the signal ignored) as ENOSPC would.
  const fs::path dir = fs::temp_directory_path() / ("rsoc_atomic_full_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  rsoc::analysis::write_file_atomically(dir / "t.csv", "complete\n");
  std::signal(SIGXFSZ, SIG_IGN);
  const rlimit limit{4096, 4096};
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  EXPECT_THROW(rsoc::analysis::write_file_atomically(dir / "t.csv", std::string(1 << 20, 'x')),
               rsoc::analysis::OutputDirError);
  EXPECT_EQ(slurp(dir / "t.csv"), "complete\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // no temporary left
  fs::remove_all(dir);
}
