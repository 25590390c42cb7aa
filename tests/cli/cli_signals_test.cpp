// SIGINT and SIGTERM sent to a running rsoc — to the command, to one of the processes it started, or to its
// whole process group as Ctrl-C at a terminal does — stop it within a second or two with exit code 128 + the
// signal, no process of it left, no temporary folder left, and one line saying what was kept.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli/cli_test_support.h"
#include "tests/test_paths.h"

namespace fs = std::filesystem;
using namespace rsoc_cli_test;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// An rsoc started with fork and exec in a process group of its own, which holds every process it starts;
// stdout and stderr in stdout.txt and stderr.txt of `cwd`. What is left of the group at the end is killed.
class Running {
 public:
  Running(const std::vector<std::string>& args, const fs::path& cwd) {
    std::vector<std::string> words{rsoc_test::kRsocBinary};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const std::string out = (cwd / "stdout.txt").string(), err = (cwd / "stderr.txt").string();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      // As a command started at a terminal: the signals at their defaults, whoever started the tests (a shell
      // starts background jobs with SIGINT ignored, and rsoc keeps it so).
      ::signal(SIGINT, SIG_DFL);
      ::signal(SIGTERM, SIG_DFL);
      if (::chdir(cwd.c_str()) != 0) ::_exit(126);
      ::dup2(::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), STDOUT_FILENO);
      ::dup2(::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), STDERR_FILENO);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::setpgid(pid_, pid_);  // from here too: the group exists before the test signals it
  }
  ~Running() {
    ::kill(-pid_, SIGKILL);  // what is left of the group when a test failed
    if (!ended_) ::waitpid(pid_, nullptr, 0);
  }
  Running(const Running&) = delete;
  Running& operator=(const Running&) = delete;

  pid_t pid() const { return pid_; }
  // Waits up to `seconds` for rsoc to end: its status as waitpid gives it.
  std::optional<int> wait(double seconds) {
    const auto start = Clock::now();
    int status = 0;
    while (seconds_since(start) < seconds) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        ended_ = true;
        return status;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
  }

 private:
  pid_t pid_ = -1;
  bool ended_ = false;
};

// Fields of /proc/PID/stat after the command name: state is [0], the process group [2], user and system CPU
// time in clock ticks [11] and [12]. Empty when the process is gone.
std::vector<std::string> stat_fields(pid_t pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return {};
  std::istringstream rest(stat.substr(close + 2));
  std::vector<std::string> fields;
  for (std::string f; rest >> f;) fields.push_back(f);
  return fields;
}

double cpu_seconds(pid_t pid) {
  const auto f = stat_fields(pid);
  if (f.size() < 13) return 0;
  return static_cast<double>(std::stol(f[11]) + std::stol(f[12])) /
         static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// The live processes of process group `group` other than `except`.
std::vector<pid_t> group_members(pid_t group, pid_t except = 0) {
  std::vector<pid_t> out;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = std::stoi(name);
    const auto f = stat_fields(pid);
    if (pid != except && f.size() > 2 && f[0] != "Z" && std::stoi(f[2]) == group) out.push_back(pid);
  }
  return out;
}

// The arguments a process was started with.
std::vector<std::string> arguments(pid_t pid) {
  const std::string text = slurp("/proc/" + std::to_string(pid) + "/cmdline");
  std::vector<std::string> out;
  std::string word;
  for (char c : text) {
    if (c == '\0') {
      out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return out;
}

bool wait_until(const std::function<bool()>& ready, double seconds) {
  const auto start = Clock::now();
  while (seconds_since(start) < seconds) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// The children of `parent` (in its group), once `count` of them are running and each has computed for a
// while (started, elaborated and simulating).
std::vector<pid_t> busy_children(pid_t parent, std::size_t count) {
  std::vector<pid_t> children;
  wait_until(
      [&] {
        children = group_members(parent, parent);
        if (children.size() != count) return false;
        for (pid_t c : children)
          if (cpu_seconds(c) < 0.3) return false;
        return true;
      },
      60);
  return children;
}

// What rsoc leaves while it writes: temporary folders and files, anywhere below `dir`.
std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    for (const char* mark : {".partial-", ".old-", ".tmp-", ".copy"})
      if (name.find(mark) != std::string::npos) out.push_back(e.path().string());
  }
  return out;
}

std::string last_line(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text.substr(text.rfind('\n') + 1);  // the whole text when it has one line (npos + 1 is 0)
}

}  // namespace

TEST(CliSignals, RunNoticesTheSignalInTheSimulationAndWritesNothing) {
  for (int signal : {SIGINT, SIGTERM}) {
    const std::string name = signal == SIGINT ? "SIGINT" : "SIGTERM";
    const fs::path dir = scratch("signal_run_" + name);
    // An earlier result in the folder stays as it was.
    ASSERT_EQ(run_rsoc("run " + kSmoke + " --out res", dir).code, 0);
    const std::string before = slurp(dir / "res" / "requests.csv");
    // The reference with 400 requests per application simulates for about a minute; elaboration takes
    // milliseconds: half a second of CPU time is inside the simulation.
    Running run({"run", "--set", "workload.apps.0.requests=400", "--set", "workload.apps.1.requests=400",
                 "--out", "res"},
                dir);
    ASSERT_TRUE(wait_until([&] { return cpu_seconds(run.pid()) >= 0.5; }, 30));
    const auto sent = Clock::now();
    ::kill(run.pid(), signal);
    const auto status = run.wait(20);
    ASSERT_TRUE(status) << name;
    EXPECT_LT(seconds_since(sent), 2.0) << name;
    ASSERT_TRUE(WIFEXITED(*status)) << name;
    EXPECT_EQ(WEXITSTATUS(*status), 128 + signal);
    EXPECT_EQ(slurp(dir / "stderr.txt"),
              "rsoc: running <embedded default: scenarios/os_aes_des.json>\n"
              "rsoc: interrupted by " +
                  name + ": nothing written, res left as it was\n");
    EXPECT_EQ(slurp(dir / "res" / "requests.csv"), before);
    EXPECT_EQ(temporaries(dir), std::vector<std::string>{});
  }
}

TEST(CliSignals, CrossoverNoticesTheSignalInTheSimulationAndWritesNothing) {
  const fs::path dir = scratch("signal_crossover");
  Running run({"crossover", "-f", "aes128", "--max-blocks", "2000", "--out", "xo"}, dir);
  ASSERT_TRUE(wait_until([&] { return cpu_seconds(run.pid()) >= 0.5; }, 30));
  const auto sent = Clock::now();
  ::kill(run.pid(), SIGTERM);
  const auto status = run.wait(20);
  ASSERT_TRUE(status);
  EXPECT_LT(seconds_since(sent), 2.0);
  ASSERT_TRUE(WIFEXITED(*status));
  EXPECT_EQ(WEXITSTATUS(*status), 143);
  EXPECT_EQ(slurp(dir / "stderr.txt"),
            "rsoc: crossover experiments on <embedded default: scenarios/os_aes_des.json>\n"
            "rsoc: interrupted by SIGTERM: nothing written, xo left as it was\n");
  EXPECT_FALSE(fs::exists(dir / "xo"));
  EXPECT_EQ(temporaries(dir), std::vector<std::string>{});
}

TEST(CliSignals, SweepStopsWhicheverProcessGetsTheSignalAndKeepsTheFinishedPoints) {
  // Point 0 takes a fraction of a second, points 1 and 2 about half a minute each, two at a time: the signal
  // comes while 1 and 2 run. Sent to the sweep, to the point process of point 1, to the whole process group
  // (Ctrl-C at a terminal); and SIGKILL to the sweep, which its points outlive by moments.
  struct Case {
    std::string name;
    std::string command;
    int signal;
  };
  const Case cases[] = {{"sweep", "sweep", SIGTERM},
                        {"point", "sweep", SIGINT},
                        {"group", "sweep", SIGINT},
                        {"sweep", "sensitivity", SIGTERM},
                        {"killed", "sweep", SIGKILL}};
  for (const auto& c : cases) {
    const std::string what = c.command + " (" + c.name + ")";
    const fs::path dir = scratch("signal_" + c.command + "_" + c.name);
    std::vector<std::string> args{c.command, kReference, "--set", "workload.apps.1.requests=1",
                                  "--jobs",  "2",        "--out", "s"};
    if (c.command == "sweep") {
      args.insert(args.end(), {"--param", "workload.apps.0.requests=1,400,400"});
    } else {  // the base point has the scenario's 20 requests
      args.insert(args.end(), {"--vary", "workload.apps.0.requests=400:401", "--metric", "requests"});
    }
    Running sweep(args, dir);
    ASSERT_TRUE(wait_until([&] { return fs::exists(dir / "s" / "points" / "0000.json"); }, 60)) << what;
    const std::vector<pid_t> children = busy_children(sweep.pid(), 2);
    ASSERT_EQ(children.size(), 2u) << what;
    const auto sent = Clock::now();
    if (c.name == "point") {
      for (pid_t child : children)
        if (arguments(child).back() == "1") ::kill(child, c.signal);
    } else if (c.name == "group") {
      ::kill(-sweep.pid(), c.signal);
    } else {
      ::kill(sweep.pid(), c.signal);
    }
    const auto status = sweep.wait(20);
    ASSERT_TRUE(status) << what;
    // No process of the sweep is left: the point processes ended with it (after SIGKILL, once the kernel told
    // them).
    EXPECT_TRUE(wait_until([&] { return group_members(sweep.pid()).empty(); }, 5)) << what;
    EXPECT_LT(seconds_since(sent), 5.0) << what;
    if (c.signal == SIGKILL) {
      EXPECT_TRUE(WIFSIGNALED(*status)) << what;
    } else {
      ASSERT_TRUE(WIFEXITED(*status)) << what;
      EXPECT_EQ(WEXITSTATUS(*status), 128 + c.signal) << what;
      EXPECT_EQ(last_line(slurp(dir / "stderr.txt")),
                std::string("rsoc: interrupted by ") + (c.signal == SIGINT ? "SIGINT" : "SIGTERM") +
                    ": 1 of 3 points finished, kept in s: the same command with --resume runs the other 2")
          << what;
    }
    if (c.name == "point") {
      EXPECT_EQ(last_line(slurp(dir / "s" / "logs" / "0001.log")),
                "rsoc: interrupted by SIGINT: point 1 not recorded: it runs again when the sweep is resumed");
    }
    EXPECT_EQ(temporaries(dir), std::vector<std::string>{}) << what;
    // The finished point is intact; the stopped ones have no outcome, so that --resume runs them.
    EXPECT_NE(slurp(dir / "s" / "points" / "0000.json").find("\"status\": \"ok\""), std::string::npos)
        << what;
    EXPECT_TRUE(fs::exists(dir / "s" / "points" / "0000" / "requests.csv")) << what;
    EXPECT_FALSE(fs::exists(dir / "s" / "points" / "0001.json")) << what;
    EXPECT_FALSE(fs::exists(dir / "s" / "points" / "0002.json")) << what;
  }
}

TEST(CliSignals, ReproduceStopsWhicheverProcessGetsTheSignalAndWritesNothing) {
  for (const bool to_child : {false, true}) {
    const std::string what = to_child ? "an experiment" : "reproduce";
    const fs::path dir = scratch(std::string("signal_reproduce_") + (to_child ? "child" : "parent"));
    Running reproduce({"reproduce", "--out", "rep"}, dir);
    const std::vector<pid_t> children = busy_children(reproduce.pid(), 2);
    ASSERT_EQ(children.size(), 2u) << what;
    const int signal = to_child ? SIGTERM : SIGINT;
    const auto sent = Clock::now();
    ::kill(to_child ? children.front() : reproduce.pid(), signal);
    const auto status = reproduce.wait(20);
    ASSERT_TRUE(status) << what;
    EXPECT_LT(seconds_since(sent), 5.0) << what;
    EXPECT_TRUE(group_members(reproduce.pid()).empty()) << what;
    ASSERT_TRUE(WIFEXITED(*status)) << what;
    EXPECT_EQ(WEXITSTATUS(*status), 128 + signal) << what;
    EXPECT_EQ(last_line(slurp(dir / "stderr.txt")), std::string("rsoc: interrupted by ") +
                                                        (to_child ? "SIGTERM" : "SIGINT") +
                                                        ": nothing written, rep left as it was")
        << what;
    EXPECT_FALSE(fs::exists(dir / "rep")) << what;
    EXPECT_EQ(temporaries(dir), std::vector<std::string>{}) << what;
  }
}
