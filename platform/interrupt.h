#pragma once
// Stopping cleanly on SIGINT and SIGTERM. install_interrupt_handlers() gives both signals a handler that does
// three async-signal-safe things: it records the signal, passes it on to the child processes registered here,
// and wakes a watcher thread by a pipe. The watcher pauses a running simulation: SimulationInterrupt is a
// SystemC channel whose update asks the kernel to pause, requested with async_request_update(), the kernel's
// one thread-safe entry; the kernel takes it at its next update phase, within a delta cycle.
// Simulation::run() then throws Interrupted; elsewhere commands call throw_if_interrupted() before anything
// that makes a result look complete (a commit, a point's outcome). Interrupted unwinds as any failure does:
// temporary folders are removed and child processes reaped on the way out, and the command exits with 128 +
// the signal (130, 143).

#include <sys/types.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace rsoc::platform {

class Interrupted : public std::runtime_error {
 public:
  // `kept`: what the interrupted command kept, for its last line ("nothing written, res left as it was").
  explicit Interrupted(int signal, std::string kept = "nothing written");
  int signal() const { return signal_; }
  const std::string& kept() const { return kept_; }

 private:
  int signal_;
  std::string kept_;
};

// Handles SIGINT and SIGTERM as above, from now on (a signal ignored when rsoc started stays ignored, as the
// shell asked).
void install_interrupt_handlers();
// The signal that interrupted rsoc (SIGINT or SIGTERM), or 0.
int interrupt_signal();
// Throws Interrupted when rsoc has been interrupted.
void throw_if_interrupted();
// Interrupts rsoc as `signal` would have (a child process reported that it was interrupted by it).
void interrupt(int signal);
// "SIGINT", "SIGTERM", "signal 9".
std::string signal_name(int signal);

// The child processes an interrupt is passed on to (each with the same signal).
void watch_child(pid_t pid);
void forget_child(pid_t pid);

// One per simulation, made during elaboration: while it lives, an interrupt pauses the SystemC kernel.
class SimulationInterrupt {
 public:
  SimulationInterrupt();
  ~SimulationInterrupt();
  SimulationInterrupt(const SimulationInterrupt&) = delete;
  SimulationInterrupt& operator=(const SimulationInterrupt&) = delete;

  class Channel;  // the SystemC channel whose update pauses the kernel

 private:
  std::unique_ptr<Channel> channel_;
};

}  // namespace rsoc::platform
