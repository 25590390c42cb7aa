#pragma once
// Child processes of the rsoc command line: the same executable with other arguments (one simulation per
// process, since SystemC cannot be elaborated twice), its stdout and stderr in a log file that begins with
// its command line.
//
// They never outlive the rsoc that started them. They stay in its process group, so that Ctrl-C at a terminal
// reaches every one; an interrupt of rsoc alone (kill PID) is passed on to them (platform/interrupt.h); one
// that is interrupted interrupts rsoc (ChildPool::wait); a ChildPool that is left by an exception tells the
// children still running (SIGTERM) and waits for them; and each child is sent SIGTERM by the kernel when rsoc
// dies, even by SIGKILL (PR_SET_PDEATHSIG).

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace rsoc::tools {

// The path of the running rsoc executable.
std::filesystem::path self_executable();

// "exited with 3", "killed by signal 9": how a child ended, for messages.
std::string ending(int status);

// "rsoc ARGS...": the command line of a child, as its log begins with it.
std::string command_text(const std::vector<std::string>& args);

// At most `jobs` children at a time, each a task with an id. A child's messages are at rsoc's level
// (platform/log.h), but never quieter than normal: its log is all that is kept of them (RSOC_LOG is set for
// it).
class ChildPool {
 public:
  explicit ChildPool(unsigned jobs) : jobs_(jobs < 1 ? 1 : jobs) {}
  ~ChildPool();  // tells every child still running (SIGTERM) and waits for it
  ChildPool(const ChildPool&) = delete;
  ChildPool& operator=(const ChildPool&) = delete;

  bool has_room() const { return running_.size() < jobs_; }
  bool empty() const { return running_.empty(); }
  // Starts task `id`: `rsoc ARGS...` with stdout and stderr in `log`. Throws analysis::OutputDirError when
  // the log cannot be written, std::runtime_error when the process cannot be started.
  void start(std::size_t id, const std::vector<std::string>& args, const std::filesystem::path& log);

  struct Ended {
    std::size_t id;
    int status;  // as waitpid
  };
  // Waits for a child to end. When rsoc is interrupted — by a signal, or by a child that a SIGINT or SIGTERM
  // ended (it exited with 130 or 143, or died of it) — tells the other children, waits for them and throws
  // platform::Interrupted.
  Ended wait();

 private:
  void stop_all(int signal);
  unsigned jobs_;
  std::map<pid_t, std::size_t> running_;  // pid -> task id
};

}  // namespace rsoc::tools
