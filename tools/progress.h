#pragma once
// How a command that runs child processes says how far it is, on stderr at the level of platform/log.h.
// TaskProgress (used by `rsoc reproduce`): on a terminal, at the normal level, one line redrawn in place —
// tasks done of the total, the time elapsed, the tasks running; otherwise a line per task started and, when
// verbose, its command and a line when it ends with its wall time; nothing when quiet.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace rsoc::tools {

// "0:01:05": a duration in whole seconds, for progress lines.
std::string clock_text(double seconds);
// The width of the terminal on stderr in columns (80 when it does not say).
std::size_t terminal_columns();

class TaskProgress {
 public:
  // `what`: the tasks, plural ("experiments"); `verb`: the line of a task started ("reproducing").
  TaskProgress(std::size_t total, std::string what, std::string verb);
  ~TaskProgress();  // a line left unfinished (the command was stopped) is ended
  TaskProgress(const TaskProgress&) = delete;
  TaskProgress& operator=(const TaskProgress&) = delete;

  void started(const std::string& name, const std::vector<std::string>& args,
               const std::filesystem::path& log);
  void ended(const std::string& name, bool ok);

 private:
  using Clock = std::chrono::steady_clock;
  void draw();
  std::size_t total_, done_ = 0, failed_ = 0;
  std::string what_, verb_;
  bool line_;  // the line redrawn in place
  Clock::time_point start_;
  std::vector<std::pair<std::string, Clock::time_point>> running_;  // in the order they started
  std::size_t drawn_ = 0;                                           // the length of the line last drawn
};

}  // namespace rsoc::tools
