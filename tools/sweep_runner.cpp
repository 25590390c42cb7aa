#include "tools/sweep_runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

extern char** environ;

namespace rsoc::tools {

namespace fs = std::filesystem;

std::filesystem::path self_executable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw platform::SweepError("cannot find the rsoc executable (/proc/self/exe): " + ec.message());
  return self;
}

namespace {

// Starts `rsoc point DIR INDEX` with stdout and stderr in `log`; returns its pid.
pid_t start_point(const fs::path& exe, const fs::path& dir, std::size_t index, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  const std::string exe_s = exe.string(), dir_s = dir.string(), index_s = std::to_string(index);
  std::vector<char*> argv{const_cast<char*>(exe_s.c_str()), const_cast<char*>("point"),
                          const_cast<char*>(dir_s.c_str()), const_cast<char*>(index_s.c_str()), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe_s.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw platform::SweepError("cannot start " + exe_s + " point: " + std::strerror(rc));
  return pid;
}

std::string clock_text(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  return buf;
}

class Progress {
 public:
  Progress(std::size_t total) : total_(total), tty_(::isatty(STDERR_FILENO)), start_(now()) {}
  void point_done(const std::string& name, const std::string& values, bool ok, std::size_t done,
                  std::size_t failed) {
    const double elapsed = now() - start_;
    const double eta = done ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done) : 0;
    if (tty_) {
      constexpr int kWidth = 30;
      const int filled = static_cast<int>(kWidth * done / std::max<std::size_t>(total_, 1));
      std::cerr << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << done
                << "/" << total_ << " points, " << failed << " failed, ETA " << clock_text(eta) << "   "
                << std::flush;
      if (done == total_) std::cerr << "\n";
    } else {
      std::cerr << "rsoc: point " << name << " (" << values << ") " << (ok ? "ok" : "FAILED") << "; " << done
                << "/" << total_ << " done, " << failed << " failed, ETA " << clock_text(eta) << "\n";
    }
  }

 private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  std::size_t total_;
  bool tty_;
  double start_;
};

std::string values_text(const platform::SweepSpec& spec, std::size_t index) {
  const auto values = platform::point_values(spec, index);
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + spec.parameters[i].path + "=" + values[i];
  return out;
}

}  // namespace

SweepRun run_points(const platform::SweepSpec& spec, const fs::path& dir, unsigned jobs) {
  const fs::path exe = self_executable(), abs_dir = fs::absolute(dir);
  std::vector<std::size_t> todo;
  SweepRun result;
  for (std::size_t i = 0; i < platform::point_count(spec); ++i) {
    if (platform::point_finished(spec, dir, i)) {
      ++result.skipped;
    } else {
      todo.push_back(i);
    }
  }
  Progress progress(todo.size());
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && running.size() < std::max(jobs, 1u)) {
      const std::size_t index = todo[next++];
      const fs::path log = abs_dir / "logs" / (platform::point_name(spec, index) + ".log");
      running[start_point(exe, abs_dir, index, log)] = index;
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) throw platform::SweepError(std::string("waiting for sweep points: ") + std::strerror(errno));
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const std::size_t index = it->second;
    running.erase(it);
    ++result.run;
    // The point's outcome file says what happened; a process that ended without writing one failed, and is
    // recorded so.
    if (!platform::point_finished(spec, dir, index)) {
      const std::string log = "see logs/" + platform::point_name(spec, index) + ".log";
      platform::record_point_failure(
          dir, index,
          WIFSIGNALED(status)
              ? "point process killed by signal " + std::to_string(WTERMSIG(status)) + "; " + log
              : "point process exited with " + std::to_string(WEXITSTATUS(status)) +
                    " without recording an outcome; " + log);
    }
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) ++result.failed;
    progress.point_done(platform::point_name(spec, index), values_text(spec, index), ok, result.run,
                        result.failed);
  }
  return result;
}

}  // namespace rsoc::tools
