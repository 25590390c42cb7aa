#include "tools/sweep_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "platform/log.h"
#include "tools/child_process.h"
#include "tools/progress.h"

namespace rsoc::tools {

namespace fs = std::filesystem;
namespace logging = platform::logging;

namespace {

// "1.23 s": a wall time in verbose messages.
std::string seconds_text(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", seconds);
  return buf;
}

// How a sweep says how far it is: a bar redrawn in place on a terminal, a line per point otherwise or when
// verbose (the details would break a bar), nothing but the points that failed when quiet.
class Progress {
 public:
  Progress(std::size_t total)
      : total_(total),
        tty_(::isatty(STDERR_FILENO) && logging::level() == logging::Level::kNormal),
        start_(now()) {}
  // A bar left unfinished (the sweep was stopped) ends its line, so that the next message has its own.
  ~Progress() {
    if (tty_ && drawn_ && drawn_ != total_) std::cerr << "\n";
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void point_done(const std::string& name, const std::string& values, bool ok, const std::string& error,
                  double seconds, std::size_t done, std::size_t failed) {
    const double elapsed = now() - start_;
    const double eta = done ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done) : 0;
    if (!logging::notes()) {
      if (!ok) std::cerr << "rsoc: point " << name << " (" << values << ") failed: " << error << "\n";
    } else if (tty_) {
      constexpr int kWidth = 30;
      const int filled = static_cast<int>(kWidth * done / std::max<std::size_t>(total_, 1));
      std::cerr << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << done
                << "/" << total_ << " points, " << failed << " failed, ETA " << clock_text(eta) << "   "
                << std::flush;
      if (done == total_) std::cerr << "\n";
      drawn_ = done;
    } else {
      std::cerr << "rsoc: point " << name << " (" << values << ") " << (ok ? "ok" : "FAILED");
      if (logging::details()) std::cerr << " in " << seconds_text(seconds);
      std::cerr << "; " << done << "/" << total_ << " done, " << failed << " failed, ETA " << clock_text(eta)
                << "\n";
    }
  }

 private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  std::size_t total_;
  bool tty_;
  double start_;
  std::size_t drawn_ = 0;  // the points done when the bar was last drawn
};

std::string values_text(const platform::SweepSpec& spec, std::size_t index) {
  std::string out;
  for (const auto& assignment : platform::point_overrides(spec, index))
    out += (out.empty() ? "" : ", ") + assignment;
  return out.empty() ? "base values" : out;
}

// The last line a point process printed ("" when its log is empty or cannot be read).
std::string last_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

}  // namespace

SweepRun run_points(const platform::SweepSpec& spec, const fs::path& dir, unsigned jobs, std::size_t first,
                    std::size_t last) {
  const fs::path abs_dir = fs::absolute(dir);
  std::vector<std::size_t> todo;
  SweepRun result;
  for (std::size_t i = first; i < std::min(last, platform::point_count(spec)); ++i) {
    if (platform::point_finished(spec, dir, i)) {
      ++result.skipped;
    } else {
      todo.push_back(i);
    }
  }
  Progress progress(todo.size());
  ChildPool pool(jobs);
  std::map<std::size_t, std::chrono::steady_clock::time_point> started;
  std::size_t next = 0;
  while (next < todo.size() || !pool.empty()) {
    while (next < todo.size() && pool.has_room()) {
      const std::size_t index = todo[next++];
      const std::vector<std::string> args{"point", abs_dir.string(), std::to_string(index)};
      const fs::path log = dir / "logs" / (platform::point_name(spec, index) + ".log");
      logging::detail() << "rsoc: point " << platform::point_name(spec, index) << ": " << command_text(args)
                        << " (log " << log.string() << ")\n";
      started[index] = std::chrono::steady_clock::now();
      pool.start(index, args, log);
    }
    const auto [index, status] = pool.wait();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started[index]).count();
    ++result.run;
    // The point's outcome file says what happened. A point process that could not record one because of the
    // sweep itself (it exited with 2: the folder cannot be written, a full disk) stops the sweep; any other
    // that ended without one failed, and is recorded so.
    if (!platform::point_finished(spec, dir, index)) {
      const std::string log = "logs/" + platform::point_name(spec, index) + ".log";
      if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
        std::string said = last_line(dir / log);
        if (said.rfind("rsoc: ", 0) == 0) said.erase(0, 6);
        // The point was given the folder's absolute path: named as the user gave it.
        for (auto at = said.find(abs_dir.string()); at != std::string::npos;
             at = said.find(abs_dir.string(), at + dir.string().size()))
          said.replace(at, abs_dir.string().size(), dir.string());
        throw platform::SweepError(
            "point " + platform::point_name(spec, index) +
            " could not run: " + (said.empty() ? "it exited with 2 and its log " + log + " is empty" : said));
      }
      platform::record_point_failure(
          dir, index,
          WIFSIGNALED(status)
              ? "point process killed by signal " + std::to_string(WTERMSIG(status)) + "; see " + log
              : "point process exited with " + std::to_string(WEXITSTATUS(status)) +
                    " without recording an outcome; see " + log);
    }
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) ++result.failed;
    const std::string error = ok ? "" : platform::read_point(spec, dir, index).error;
    progress.point_done(platform::point_name(spec, index), values_text(spec, index), ok, error, seconds,
                        result.run, result.failed);
  }
  return result;
}

}  // namespace rsoc::tools
