#include "tools/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "analysis/output_dir.h"
#include "platform/log.h"
#include "tools/child_process.h"

namespace rsoc::tools {

namespace logging = platform::logging;

std::string clock_text(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  return buf;
}

std::size_t terminal_columns() {
  struct winsize size {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TaskProgress::TaskProgress(std::size_t total, std::string what, std::string verb)
    : total_(total),
      what_(std::move(what)),
      verb_(std::move(verb)),
      line_(::isatty(STDERR_FILENO) && logging::level() == logging::Level::kNormal),
      start_(Clock::now()) {}

TaskProgress::~TaskProgress() {
  if (drawn_ > 0 && done_ != total_) std::cerr << "\n";
}

void TaskProgress::started(const std::string& name, const std::vector<std::string>& args,
                           const std::filesystem::path& log) {
  running_.emplace_back(name, Clock::now());
  if (line_) return draw();
  logging::note() << "rsoc: " << verb_ << " " << name << "\n";
  logging::detail() << "rsoc: " << name << ": " << analysis::shown_in(command_text(args)) << " (log "
                    << analysis::shown(log) << ")\n";
}

void TaskProgress::ended(const std::string& name, bool ok) {
  ++done_;
  failed_ += ok ? 0 : 1;
  const auto it =
      std::find_if(running_.begin(), running_.end(), [&](const auto& r) { return r.first == name; });
  double seconds = 0;
  if (it != running_.end()) {
    seconds = since(it->second);
    running_.erase(it);
  }
  if (line_) return draw();
  char took[32];
  std::snprintf(took, sizeof took, "%.2f s", seconds);
  logging::detail() << "rsoc: " << name << (ok ? " done" : " FAILED") << " in " << took << " (" << done_
                    << " of " << total_ << " " << what_ << ")\n";
}

void TaskProgress::draw() {
  std::string text = "rsoc: " + std::to_string(done_) + " of " + std::to_string(total_) + " " + what_ +
                     " done" + (failed_ ? ", " + std::to_string(failed_) + " failed" : "") + ", " +
                     clock_text(since(start_)) + " elapsed";
  if (!running_.empty()) {
    text += "; running ";
    for (std::size_t i = 0; i < running_.size(); ++i) text += (i ? ", " : "") + running_[i].first;
  }
  const std::size_t width =
      std::max<std::size_t>(terminal_columns(), 40) - 1;  // the last column would wrap on some terminals
  if (text.size() > width) text = text.substr(0, width - 3) + "...";
  const std::size_t length = text.size();
  if (length < drawn_) text += std::string(drawn_ - length, ' ');
  std::cerr << "\r" << text << (done_ == total_ ? "\n" : "") << std::flush;
  drawn_ = length;
}

}  // namespace rsoc::tools
