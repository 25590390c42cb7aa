// Where the results of the `rsoc` command line go: files rsoc did not write are never deleted, an --out that
// cannot be written is named as the user gave it, and a write that fails (a full disk) fails the command with
// exit code 2, naming the file and the system's reason.
#include <gtest/gtest.h>
#include <unistd.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_test_support.h"
#include "tests/test_paths.h"

namespace fs = std::filesystem;
using namespace rsoc_cli_test;

namespace {

const std::string kRefused = "; move them away or choose another --out (nothing was changed)\n";
const std::string kRefusedOne = "; move it away or choose another --out (nothing was changed)\n";

// A command that writes `out`: how to run it, and what it prints before it writes.
struct Writer {
  std::string args;    // without --out
  std::string before;  // its lines on stderr before the folder is made
};

const std::vector<Writer>& writers() {
  static const std::vector<Writer> all = {
      {"run " + kSmoke, "rsoc: running " + kSmoke + "\n"},
      {"crossover " + kSmoke + " -f aes128 --max-blocks 2",
       "rsoc: crossover experiments on " + kSmoke + "\n"},
      {"reproduce --system soc", ""},
      {"sweep " + kSmoke + " --param runtime.driver.cycles_per_block=100,200", ""},
      {"sensitivity " + kSmoke + " --vary runtime.driver.cycles_per_block=100:400", ""},
  };
  return all;
}

// rsoc run as a user who may not write into folders of root (as root, setpriv to nobody).
Result as_user(const std::string& args, const fs::path& cwd) {
  const std::string user = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  return shell(user + rsoc_test::kRsocBinary + " " + args, cwd);
}

// Runs `script` (sh) in `cwd`/disk, a tmpfs of `size` (such as "64k") mounted in a mount namespace of its
// own, which ends with the script. Before its end the script lists what is left on the disk into files.txt.
Result on_small_disk(const std::string& size, const std::string& script, const fs::path& cwd) {
  fs::create_directories(cwd / "disk");
  const std::string unshare = ::geteuid() == 0 ? "unshare -m" : "unshare -rm";
  const std::string inner = "mount -t tmpfs -o size=" + size + " tmpfs disk && cd disk && " + script +
                            "; rc=$?; find . -mindepth 1 | sort > ../files.txt; exit $rc";
  return shell(unshare + " sh -c '" + inner + "'", cwd);
}

// Why no small tmpfs can be mounted here (a chroot, an unprivileged container), or nothing when one can.
std::optional<std::string> no_small_disk(const fs::path& cwd) {
  Result probe = on_small_disk("64k", "true", cwd);
  if (probe.code == 0) return std::nullopt;
  std::string why = probe.err.empty() ? "exit " + std::to_string(probe.code) : probe.err;
  while (!why.empty() && why.back() == '\n') why.pop_back();
  return why;
}

// The same under a file size limit (RLIMIT_FSIZE, `ulimit -f` in KiB): no privilege needed.
Result with_file_size_limit(const std::string& kib, const std::string& script, const fs::path& cwd) {
  fs::remove_all(cwd / "limited");
  fs::create_directories(cwd / "limited");
  return shell("(cd limited && bash -c 'ulimit -f " + kib + "; " + script +
                   "'; rc=$?; find . -mindepth 1 | sort > ../files.txt; exit $rc)",
               cwd);
}

// A command that could not write its results (`script`, run by one of the two above) failed with exit 2 and
// `message`, and left nothing that looks complete (`absent`) and no temporary file or folder.
void expect_failed_cleanly(const Result& r, const std::string& script, const std::string& message,
                           std::vector<std::string> absent, const fs::path& dir) {
  EXPECT_EQ(r.code, 2) << script << "\n" << r.err;
  EXPECT_EQ(r.err, message) << script;
  const std::string files = slurp(dir / "files.txt");
  absent.insert(absent.end(), {".partial-", ".tmp-", ".copy"});
  for (const auto& left : absent)
    EXPECT_EQ(files.find(left), std::string::npos) << script << "\n" << left << " in\n" << files;
}

}  // namespace

TEST(CliOutput, AResultListsItsFilesAndARerunNeverDeletesFilesRsocDidNotWrite) {
  const fs::path dir = scratch("foreign_files");
  const std::string run = "run " + kSmoke + " --out res";
  ASSERT_EQ(run_rsoc(run, dir).code, 0);
  EXPECT_EQ(slurp(dir / "res" / ".rsoc-files"),
            "breakdown.csv\nhost.json\nrequests.csv\nresolved_scenario.json\nstats.json\nsummary.csv\n");
  const std::string before = slurp(dir / "res" / "requests.csv");
  fs::create_directories(dir / "res" / "figs");
  std::ofstream(dir / "res" / "figs" / "latency.png") << "a figure";
  std::ofstream(dir / "res" / "notes.txt") << "my notes";
  const std::string other = "run " + kSmoke + " --set runtime.driver.cycles_per_block=300 --out res";
  Result r = run_rsoc(other, dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "rsoc: running " + kSmoke +
                       "\nrsoc: res holds files rsoc did not write: figs/ and notes.txt" + kRefused);
  EXPECT_EQ(slurp(dir / "res" / "requests.csv"), before);
  EXPECT_EQ(slurp(dir / "res" / "figs" / "latency.png"), "a figure");
  EXPECT_EQ(slurp(dir / "res" / "notes.txt"), "my notes");
  // Moved away, the earlier result is replaced.
  fs::remove_all(dir / "res" / "figs");
  fs::remove(dir / "res" / "notes.txt");
  ASSERT_EQ(run_rsoc(other, dir).code, 0);
  EXPECT_NE(slurp(dir / "res" / "requests.csv"), before);

  // A figure drawn into a crossover result.
  ASSERT_EQ(run_rsoc("crossover " + kSmoke + " -f aes128 --max-blocks 2 --out xo", dir).code, 0);
  std::ofstream(dir / "xo" / "crossover_aes128.png") << "a figure";
  Result xo = run_rsoc("crossover " + kSmoke + " -f aes128 --max-blocks 3 --out xo", dir);
  EXPECT_EQ(xo.code, 2);
  EXPECT_EQ(xo.err, "rsoc: crossover experiments on " + kSmoke +
                        "\nrsoc: xo holds a file rsoc did not write: crossover_aes128.png" + kRefusedOne);
  EXPECT_TRUE(fs::exists(dir / "xo" / "crossover_aes128.png"));

  // A result written before results listed their files: what rsoc writes is known by name.
  fs::create_directories(dir / "old");
  for (const char* f : {"resolved_scenario.json", "requests.csv", "summary.csv", "draft.md"})
    std::ofstream(dir / "old" / f) << "x";
  Result old = run_rsoc("run " + kSmoke + " --out old", dir);
  EXPECT_EQ(old.code, 2);
  EXPECT_EQ(old.err,
            "rsoc: running " + kSmoke + "\nrsoc: old holds a file rsoc did not write: draft.md" + kRefusedOne);
  fs::remove(dir / "old" / "draft.md");
  EXPECT_EQ(run_rsoc("run " + kSmoke + " --out old", dir).code, 0);
  EXPECT_TRUE(fs::exists(dir / "old" / ".rsoc-files"));
}

TEST(CliOutput, AReRunReplacesTheFiguresPlotDrewFromThePreviousResultsAndSaysSo) {
  // tools/plot.py lists what it draws into a folder (.rsoc-plots, as tests/plot checks): those figures go with
  // the results they show; a file it did not list still stops the re-run.
  const fs::path dir = scratch("drawn_figures");
  const std::string xo = "crossover " + kSmoke + " -f aes128 --max-blocks 2 --out xo";
  ASSERT_EQ(run_rsoc(xo, dir).code, 0);
  std::ofstream(dir / "xo" / "crossover_aes128_latency.png") << "a figure";
  std::ofstream(dir / "xo" / "crossover_aes128_latency.svg") << "a figure";
  fs::create_directories(dir / "xo" / "figs");
  std::ofstream(dir / "xo" / "figs" / "heat.png") << "a figure";
  std::ofstream(dir / "xo" / ".rsoc-plots")
      << "# drawn by: tools/plot.py crossover xo\ncrossover_aes128_latency.png\ncrossover_aes128_latency.svg\n";
  std::ofstream(dir / "xo" / "figs" / ".rsoc-plots") << "# drawn by: tools/plot.py heatmap x --out xo/figs\nheat.png\n";
  Result again = run_rsoc(xo, dir);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("rsoc: xo: the 3 figures drawn from the previous results went with them (tools/plot.py "
                           "crossover xo; tools/plot.py heatmap x --out xo/figs); draw them again\n"),
            std::string::npos)
      << again.err;
  EXPECT_FALSE(fs::exists(dir / "xo" / "crossover_aes128_latency.png"));
  EXPECT_FALSE(fs::exists(dir / "xo" / "figs"));
  EXPECT_TRUE(fs::exists(dir / "xo" / "crossover.csv"));
  // A file the list does not name (a note, or a figure listed but edited away from the list) is the user's.
  std::ofstream(dir / "xo" / "crossover_aes128_latency.png") << "a figure";
  std::ofstream(dir / "xo" / ".rsoc-plots") << "# drawn by: tools/plot.py crossover xo\ncrossover_des_latency.png\n";
  Result refused = run_rsoc(xo, dir);
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find("xo holds a file rsoc did not write: crossover_aes128_latency.png" + kRefusedOne),
            std::string::npos)
      << refused.err;
}

TEST(CliOutput, ASweepReRunReplacesTheHeatmapPlotDrewFromIt) {
  const fs::path dir = scratch("drawn_sweep");
  const std::string sweep = "sweep " + kSmoke + " --param runtime.driver.cycles_per_block=100,200 --out s";
  ASSERT_EQ(run_rsoc(sweep, dir).code, 0);
  std::ofstream(dir / "s" / "heatmap.png") << "a figure";
  std::ofstream(dir / "s" / ".rsoc-plots") << "# drawn by: tools/plot.py heatmap s/sweep.csv\nheatmap.png\n";
  Result again = run_rsoc(sweep, dir);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("rsoc: s: the figure drawn from the previous results went with them (tools/plot.py "
                           "heatmap s/sweep.csv); draw it again\n"),
            std::string::npos)
      << again.err;
  EXPECT_FALSE(fs::exists(dir / "s" / "heatmap.png"));
  EXPECT_TRUE(fs::exists(dir / "s" / "sweep.csv"));
}

TEST(CliOutput, AReproductionKeepsFiguresDrawnIntoItsSystemFolders) {
  const fs::path dir = scratch("foreign_reproduce");
  ASSERT_EQ(run_rsoc("reproduce --system soc --out rep", dir).code, 0);
  EXPECT_NE(slurp(dir / "rep" / ".rsoc-files").find("\nsoc/crossover/crossover.csv\n"), std::string::npos);
  std::ofstream(dir / "rep" / "soc" / "crossover" / "crossover_aes128.svg") << "a figure";
  Result r = run_rsoc("reproduce --system soc --out rep", dir);  // refused before anything runs
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "rsoc: rep holds a file rsoc did not write: soc/crossover/crossover_aes128.svg" + kRefusedOne);
  EXPECT_TRUE(fs::exists(dir / "rep" / "soc" / "crossover" / "crossover_aes128.svg"));
}

TEST(CliOutput, ASweepIsReplacedOnlyWithoutFilesRsocDidNotWrite) {
  const fs::path dir = scratch("foreign_sweep");
  const std::string sweep = "sweep " + kSmoke + " --param runtime.driver.cycles_per_block=100,200";
  ASSERT_EQ(run_rsoc(sweep + " --out s", dir).code, 0);
  std::ofstream(dir / "s" / "heatmap.png") << "a figure";
  std::ofstream(dir / "s" / "points" / "0001" / "requests.png") << "a figure";
  Result r = run_rsoc(sweep + ",300 --out s", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "rsoc: s holds files rsoc did not write: heatmap.png and points/0001/requests.png" + kRefused);
  EXPECT_TRUE(fs::exists(dir / "s" / "points" / "0001.json"));
  // Resuming the same sweep keeps everything.
  Result resumed = run_rsoc(sweep + " --resume --out s", dir);
  EXPECT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_TRUE(fs::exists(dir / "s" / "heatmap.png"));
  EXPECT_TRUE(fs::exists(dir / "s" / "points" / "0001" / "requests.png"));
  // Moved away, the sweep is replaced.
  fs::remove(dir / "s" / "heatmap.png");
  fs::remove(dir / "s" / "points" / "0001" / "requests.png");
  EXPECT_EQ(run_rsoc(sweep + ",300 --out s", dir).code, 0);
  EXPECT_TRUE(fs::exists(dir / "s" / "points" / "0002.json"));
}

TEST(CliOutput, AnOutThatCannotBeWrittenIsNamedAsGivenAndExitsTwo) {
  const fs::path dir = scratch("unwritable");
  std::ofstream(dir / "f") << "a file";
  fs::create_directories(dir / "ro");
  fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                  fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const std::pair<std::string, std::string> outs[] = {
      {"f", "rsoc: f: is a file, not a folder; choose another --out\n"},
      {"f/res", "rsoc: f/res: cannot write: Not a directory\n"},
      {"ro/res", "rsoc: ro/res: cannot write: Permission denied\n"},
  };
  for (const auto& w : writers())
    for (const auto& [out, message] : outs) {
      const std::string args = w.args + " --out " + out;
      Result r = as_user(args, dir);
      EXPECT_EQ(r.code, 2) << args;
      EXPECT_EQ(r.err, w.before + message) << args;
      EXPECT_EQ(r.out, "") << args;
    }
  EXPECT_EQ(slurp(dir / "f"), "a file");
  EXPECT_TRUE(fs::is_empty(dir / "ro"));
  // A sweep prepared for a cluster, in a folder this user cannot write: its points and its table.
  ASSERT_EQ(
      run_rsoc("sweep " + kSmoke + " --param runtime.driver.cycles_per_block=100,200 --emit parallel --out s",
               dir)
          .code,
      0);
  fs::permissions(dir / "s", fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  fs::permissions(dir / "s" / "points",
                  fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  const std::pair<std::string, std::string> sweeps[] = {
      {"point s 0", "rsoc: s/points/0000: cannot write: Permission denied\n"},
      {"merge s", "rsoc: s/sweep.csv: cannot write: Permission denied\n"},
      {"point f 0", "rsoc: f: not a sweep folder (no sweep.json)\n"},
      {"merge f", "rsoc: f: not a sweep folder (no sweep.json)\n"},
  };
  for (const auto& [args, message] : sweeps) {
    Result r = as_user(args, dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, message) << args;
  }
  EXPECT_TRUE(fs::is_empty(dir / "s" / "points"));
  fs::permissions(dir / "s", fs::perms::owner_write, fs::perm_options::add);
  fs::permissions(dir / "s" / "points", fs::perms::owner_write, fs::perm_options::add);
}

TEST(CliOutput, AFullDiskFailsEveryCommandWithTheFileAndTheReason) {
  // Each command on a tmpfs too small for its results. The files written late — streamed tables, the VCD
  // that SystemC writes, the sweep's points — are the ones that do not fit. Where no tmpfs can be mounted
  // (a chroot, an unprivileged container), skipped with the reason: the file size limit below covers the
  // same paths without privilege.
  const fs::path dir = scratch("full_disk");
  if (const auto why = no_small_disk(dir)) GTEST_SKIP() << "no small tmpfs can be mounted here: " << *why;
  const std::string rsoc_binary = rsoc_test::kRsocBinary;
  const std::string many = kSmoke + " --set workload.apps.0.requests=1000";
  struct Case {
    std::string size, script, message;
    std::vector<std::string> absent;  // on the disk after it (beside temporary files)
  };
  const std::vector<std::string> point{"./s/points/0000/", "./s/points/0000.json"};
  const Case cases[] = {
      {"64k",
       rsoc_binary + " run " + many + " --out res",
       "rsoc: running " + kSmoke + "\nrsoc: res/requests.csv: cannot write: No space left on device\n",
       {"./res"}},
      {"32k",
       rsoc_binary + " run " + kSmoke + " --vcd --out res",
       "rsoc: running " + kSmoke + "\nrsoc: res/timeline.vcd: cannot write: No space left on device\n",
       {"./res"}},
      {"8k",
       rsoc_binary + " crossover " + kSmoke + " -f aes128 --max-blocks 60 --out xo",
       "rsoc: crossover experiments on " + kSmoke +
           "\nrsoc: xo/crossover.csv: cannot write: No space left on device\n",
       {"./xo"}},
      {"16k",
       rsoc_binary + " sweep " + many + " --param runtime.driver.cycles_per_block=100,200 --jobs 1 --out s",
       "rsoc: sweep of 2 points (2 to run), 1 at a time\n"
       "rsoc: point 0000 could not run: s/points/0000/requests.csv: cannot write: No space left on device; 0 "
       "of 2 "
       "points finished, kept in s: the same command with --resume runs the other 2\n",
       point},
      {"16k",
       rsoc_binary + " sensitivity " + many +
           " --vary runtime.driver.cycles_per_block=100:400 --jobs 1 --out s",
       "rsoc: sweep of 3 points (3 to run), 1 at a time\n"
       "rsoc: point 0000 could not run: s/points/0000/requests.csv: cannot write: No space left on device; 0 "
       "of 3 "
       "points finished, kept in s: the same command with --resume runs the other 3\n",
       point},
      // A point and the merge of a sweep prepared for a cluster, once the disk has filled up.
      {"1m",
       rsoc_binary + " sweep " + kSmoke +
           " --param runtime.driver.cycles_per_block=100,200 --emit parallel --out s " +
           ">/dev/null 2>&1 && (head -c 2000000 /dev/zero > fill 2>/dev/null; true) && " + rsoc_binary +
           " point s 0",
       "rsoc: s/points/0000/resolved_scenario.json: cannot write: No space left on device\n", point},
      {"1m",
       rsoc_binary + " sweep " + kSmoke +
           " --param runtime.driver.cycles_per_block=100,200 --emit parallel --out s " +
           ">/dev/null 2>&1 && " + rsoc_binary + " point s 0 2>/dev/null && " + rsoc_binary +
           " point s 1 2>/dev/null" + " && (head -c 2000000 /dev/zero > fill 2>/dev/null; true) && " +
           rsoc_binary + " merge s",
       "rsoc: s/sweep.csv: cannot write: No space left on device\n",
       {"./s/sweep.csv"}},
  };
  for (const auto& c : cases)
    expect_failed_cleanly(on_small_disk(c.size, c.script, dir), c.script, c.message, c.absent, dir);
  // A reproduction: an experiment that cannot write stops it with its message and the same code (the
  // system's two experiments each fail so, as far as they run before the reproduction stops).
  Result rep = on_small_disk("16k", rsoc_binary + " reproduce --system soc --out rep", dir);
  EXPECT_EQ(rep.code, 2) << rep.err;
  EXPECT_NE(rep.err.find("rsoc: reproduction failed; soc "), std::string::npos) << rep.err;
  int failed = 0;
  for (const std::string experiment : {"crossover", "iss"}) {
    if (rep.err.find("soc " + experiment + " exited with 2:") == std::string::npos) continue;
    ++failed;
    EXPECT_NE(rep.err.find("soc " + experiment + " exited with 2:\nrsoc reproduce --run-experiment soc/" +
                           experiment + " --out rep/soc/" + experiment + " --scenarios "),
              std::string::npos)
        << rep.err;
    // Whichever of its files the disk had no room for (the scenario it resolved, its table).
    const std::size_t at = rep.err.find("\nrsoc: rep/soc/" + experiment + "/");
    ASSERT_NE(at, std::string::npos) << rep.err;
    const std::string line = rep.err.substr(at + 1, rep.err.find('\n', at + 1) - at - 1);
    const std::string full = ": cannot write: No space left on device";
    EXPECT_TRUE(line.size() > full.size() && line.compare(line.size() - full.size(), full.size(), full) == 0)
        << line;
  }
  EXPECT_GE(failed, 1) << rep.err;
  EXPECT_EQ(slurp(dir / "files.txt"), "");
}

TEST(CliOutput, AFileSizeLimitFailsEveryCommandWithTheFileAndTheReason) {
  // RLIMIT_FSIZE (ulimit -f) fails a write as a full disk does, with EFBIG, and needs no privilege: each
  // command names the file it could not write and leaves nothing that looks complete.
  const fs::path dir = scratch("file_size_limit");
  const std::string rsoc_binary = rsoc_test::kRsocBinary;
  const std::string many = kSmoke + " --set workload.apps.0.requests=1000";
  struct Case {
    std::string kib, script, message;
    std::vector<std::string> absent;
  };
  const Case cases[] = {
      {"16", rsoc_binary + " run " + many + " --out res",
       "rsoc: running " + kSmoke + "\nrsoc: res/requests.csv: cannot write: File too large\n", {"./res"}},
      {"16", rsoc_binary + " run " + kSmoke + " --vcd --out res",
       "rsoc: running " + kSmoke + "\nrsoc: res/timeline.vcd: cannot write: File too large\n", {"./res"}},
      {"8", rsoc_binary + " crossover " + kSmoke + " -f aes128 --max-blocks 60 --out xo",
       "rsoc: crossover experiments on " + kSmoke + "\nrsoc: xo/crossover.csv: cannot write: File too large\n",
       {"./xo"}},
      {"16", rsoc_binary + " sweep " + many + " --param runtime.driver.cycles_per_block=100,200 --jobs 1 --out s",
       "rsoc: sweep of 2 points (2 to run), 1 at a time\n"
       "rsoc: point 0000 could not run: s/points/0000/requests.csv: cannot write: File too large; 0 of 2 points "
       "finished, kept in s: the same command with --resume runs the other 2\n",
       {"./s/points/0000/", "./s/points/0000.json"}},
  };
  for (const auto& c : cases)
    expect_failed_cleanly(with_file_size_limit(c.kib, c.script, dir), c.script, c.message, c.absent, dir);
}

TEST(CliOutput, StandardOutputThatCannotBeWrittenFailsTheCommand) {
  const fs::path dir = scratch("full_stdout");
  const std::string cmd = "cd '" + dir.string() + "' && " + rsoc_test::kRsocBinary + " run " + kSmoke +
                          " --out res >/dev/full 2>stderr.txt";
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_EQ(slurp(dir / "stderr.txt"),
            "rsoc: running " + kSmoke +
                "\nrsoc: 4 requests (0 failed), 154.754 ms simulated; results in res\n"
                "rsoc: standard output: cannot write: No space left on device\n");
}
