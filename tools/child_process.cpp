#include "tools/child_process.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "analysis/output_dir.h"
#include "platform/interrupt.h"
#include "platform/log.h"

namespace rsoc::tools {

namespace fs = std::filesystem;

namespace {

// The signal (SIGINT, SIGTERM) that ended a child rsoc, or 0: it died of it, or exited with 128 + it.
int interruption_of(int status) {
  for (int signal : {SIGINT, SIGTERM})
    if ((WIFSIGNALED(status) && WTERMSIG(status) == signal) ||
        (WIFEXITED(status) && WEXITSTATUS(status) == 128 + signal))
      return signal;
  return 0;
}

// Waits for `pid` until `deadline`, then kills it.
void reap(pid_t pid, std::chrono::steady_clock::time_point deadline) {
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

fs::path self_executable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the rsoc executable (/proc/self/exe): " + ec.message());
  return self;
}

std::string ending(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "exited with " + std::to_string(WEXITSTATUS(status));
}

std::string command_text(const std::vector<std::string>& args) {
  std::string command = "rsoc";
  for (const auto& a : args) command += " " + a;
  return command;
}

ChildPool::~ChildPool() {
  stop_all(SIGTERM);
}

void ChildPool::start(std::size_t id, const std::vector<std::string>& args, const fs::path& log) {
  const std::string exe = self_executable().string();
  std::vector<std::string> words{exe};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  // Its environment: rsoc's, with RSOC_LOG at rsoc's level or normal.
  const std::string level =
      std::string("RSOC_LOG=") +
      platform::logging::name(std::max(platform::logging::level(), platform::logging::Level::kNormal));
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "RSOC_LOG=", 9) != 0) environment.emplace_back(*e);
  environment.push_back(level);
  std::vector<char*> envp;
  for (auto& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  // The log begins with what runs (written here, so that a log that cannot be written stops rsoc with the
  // reason, rather than losing what the child says).
  const std::string command = command_text(args) + "\n";
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0 || ::write(log_fd, command.data(), command.size()) != static_cast<ssize_t>(command.size())) {
    const int error = errno;
    if (log_fd >= 0) ::close(log_fd);
    throw analysis::write_error(log, std::strerror(error));
  }

  // Signals wait until the child is watched; the child takes the default ones until rsoc runs in it.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {  // the child: async-signal-safe calls only, until exec
    // rsoc's handlers go (exec would reset them anyway); a signal rsoc was started ignoring stays ignored.
    for (int signal : {SIGINT, SIGTERM}) {
      struct sigaction action {};
      ::sigaction(signal, nullptr, &action);
      if (action.sa_handler == SIG_IGN) continue;
      action.sa_handler = SIG_DFL;
      ::sigaction(signal, &action, nullptr);
    }
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(128 + SIGTERM);  // rsoc died before the line above
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  const int fork_errno = errno;
  if (pid > 0) {
    platform::watch_child(pid);
    running_[pid] = id;
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ::close(log_fd);
  if (pid < 0) throw std::runtime_error("cannot start " + exe + ": " + std::strerror(fork_errno));
}

ChildPool::Ended ChildPool::wait() {
  for (;;) {
    if (const int signal = platform::interrupt_signal()) {
      stop_all(signal);
      throw platform::Interrupted(signal);
    }
    // An interrupt is passed on to the children by the handler, so this returns when they end. The child is
    // forgotten before it is reaped: the handler never signals a pid that another process may have taken.
    siginfo_t info{};
    if (::waitid(P_ALL, 0, &info, WEXITED | WNOWAIT) != 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waiting for a child process: ") + std::strerror(errno));
    }
    const pid_t pid = info.si_pid;
    platform::forget_child(pid);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    const auto it = running_.find(pid);
    if (it == running_.end()) continue;
    const Ended ended{it->second, status};
    running_.erase(it);
    if (const int signal = interruption_of(status)) platform::interrupt(signal);
    if (platform::interrupt_signal() == 0) return ended;
  }
}

void ChildPool::stop_all(int signal) {
  for (const auto& [pid, id] : running_) {
    platform::forget_child(pid);
    ::kill(pid, signal);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (const auto& [pid, id] : running_) reap(pid, deadline);
  running_.clear();
}

}  // namespace rsoc::tools
