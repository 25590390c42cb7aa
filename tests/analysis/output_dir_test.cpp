// Output folders and files: a file is replaced whole or not at all (write_file_atomically), every write is
// checked (OutputFile), a result folder lists what rsoc wrote and keeps what it did not.
#include "analysis/output_dir.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/output_file.h"
#include "analysis/request_log.h"
#include "analysis/trace_events.h"

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

// OutputFile: every write checked; the first failure kept with the system's reason.
TEST(OutputFile, AFullDeviceFailsCloseWithTheFileAndTheReason) {
  rsoc::analysis::OutputFile out("/dev/full");
  out << std::string(1 << 20, 'x');  // more than the buffer: written through, and refused
  try {
    out.close();
    FAIL() << "no error";
  } catch (const rsoc::analysis::OutputDirError& e) {
    EXPECT_STREQ(e.what(), "/dev/full: cannot write: No space left on device");
  }
  // A small write waits in the buffer: close() writes it, and fails.
  try {
    rsoc::analysis::write_text_file("/dev/full", "{}\n");
    FAIL() << "no error";
  } catch (const rsoc::analysis::OutputDirError& e) {
    EXPECT_STREQ(e.what(), "/dev/full: cannot write: No space left on device");
  }
}

TEST(OutputFile, TheStreamedTablesAndTheTraceFailAtTheirEnd) {
  const rsoc::analysis::Provenance provenance{"0", "sha", 1};
  rsoc::runtime::RequestRecord record;
  record.functionality = "aes128";
  record.decision = "software";
  rsoc::analysis::RequestLog log(provenance);
  log.open_csv("/dev/full");
  log.add(record);
  EXPECT_THROW(log.close_csv(), rsoc::analysis::OutputDirError);
  EXPECT_THROW(log.write_summary("/dev/full"), rsoc::analysis::OutputDirError);
  rsoc::analysis::BreakdownLog breakdown(provenance);
  breakdown.open_csv("/dev/full");
  breakdown.add(record);
  EXPECT_THROW(breakdown.close_csv(), rsoc::analysis::OutputDirError);
  rsoc::analysis::TraceEventWriter trace("/dev/full", {}, {}, 0, provenance);
  EXPECT_THROW(trace.finish(), rsoc::analysis::OutputDirError);
}

namespace {
fs::path fresh(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("rsoc_outdir_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
}  // namespace

TEST(OutputDir, MessagesNameTheDestinationNotTheTemporaryFolder) {
  const fs::path dir = fresh("shown");
  rsoc::analysis::OutputDir out(dir / "res");
  fs::create_directory(out.file("table.csv"));  // a folder where the file goes: it cannot be opened
  try {
    rsoc::analysis::OutputFile file(out.file("table.csv"));
    FAIL() << "no error";
  } catch (const rsoc::analysis::OutputDirError& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "res" / "table.csv").string() + ": cannot write: Is a directory");
  }
  EXPECT_EQ(rsoc::analysis::shown_in("log of " + out.file("x").string()),
            "log of " + (dir / "res" / "x").string());
}

TEST(OutputDir, CommitRefusesFilesThatCameIntoTheDestinationMeanwhile) {
  const fs::path dir = fresh("meanwhile");
  {
    rsoc::analysis::OutputDir first(dir / "res");
    rsoc::analysis::write_text_file(first.file("a.csv"), "first\n");
    first.commit();
  }
  EXPECT_EQ(slurp(dir / "res" / rsoc::analysis::kManifestName), "a.csv\n");
  rsoc::analysis::OutputDir second(dir / "res");
  rsoc::analysis::write_text_file(second.file("a.csv"), "second\n");
  std::ofstream(dir / "res" / "figure.png") << "drawn while the second result was written";
  try {
    second.commit();
    FAIL() << "no error";
  } catch (const rsoc::analysis::OutputDirError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        (dir / "res").string() +
            " holds a file rsoc did not write: figure.png; move it away or choose another --out (nothing "
            "was changed)");
  }
  EXPECT_EQ(slurp(dir / "res" / "a.csv"), "first\n");
  EXPECT_TRUE(fs::exists(dir / "res" / "figure.png"));
}

TEST(OutputDir, ForeignEntriesAreWhatTheManifestDoesNotList) {
  const fs::path dir = fresh("foreign");
  {
    rsoc::analysis::OutputDir out(dir / "res");
    fs::create_directories(out.file("soc/crossover"));
    fs::create_directories(out.file("empty"));
    rsoc::analysis::write_text_file(out.file("soc/crossover/crossover.csv"), "x\n");
    rsoc::analysis::write_text_file(out.file("reproduce.csv"), "x\n");
    out.commit();
  }
  EXPECT_EQ(slurp(dir / "res" / rsoc::analysis::kManifestName),
            "empty/\nreproduce.csv\nsoc/crossover/crossover.csv\n");
  EXPECT_EQ(rsoc::analysis::foreign_entries(dir / "res"), std::vector<std::string>{});
  fs::create_directories(dir / "res" / "figs");
  for (const char* f : {"figs/a.png", "soc/crossover/b.png", "empty/c.txt", "notes.txt"})
    std::ofstream(dir / "res" / f) << "x";
  EXPECT_EQ(rsoc::analysis::foreign_entries(dir / "res"),
            (std::vector<std::string>{"empty/c.txt", "figs/", "notes.txt", "soc/crossover/b.png"}));
}

TEST(OutputDir, TemporaryNames) {
  for (const char* name : {".res.partial-42", ".res.old-7", "sweep.csv.tmp-123", "0001.json.tmp-9"})
    EXPECT_TRUE(rsoc::analysis::is_temporary_name(name)) << name;
  for (const char* name :
       {"res.partial-42", ".res.partial-", ".res.partial-4x", "notes.tmp", "points", ".tmp-3"})
    EXPECT_FALSE(rsoc::analysis::is_temporary_name(name)) << name;
}
