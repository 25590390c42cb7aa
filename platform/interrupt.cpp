#include "platform/interrupt.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>
#include <systemc>
#include <thread>

namespace rsoc::platform {

namespace {

volatile std::sig_atomic_t g_signal = 0;
int g_wake_fd = -1;  // the write end of the watcher's pipe

// The children an interrupt is passed on to: a list the handler only reads. Slots are added by the main
// thread, published with an atomic store, and reused (pid 0: free); they are never freed.
struct ChildSlot {
  std::atomic<pid_t> pid{0};
  ChildSlot* next = nullptr;
};
std::atomic<ChildSlot*> g_children{nullptr};
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<ChildSlot*>::is_always_lock_free,
              "the signal handler reads these");

extern "C" void on_signal(int signal) {
  const int saved = errno;
  if (g_signal == 0) g_signal = signal;
  for (ChildSlot* slot = g_children.load(); slot != nullptr; slot = slot->next) {
    const pid_t pid = slot->pid.load();
    if (pid > 0) ::kill(pid, signal);
  }
  if (g_wake_fd >= 0) {
    const char byte = 0;
    [[maybe_unused]] const ssize_t n = ::write(g_wake_fd, &byte, 1);  // a full pipe is awake already
  }
  errno = saved;
}

// The simulation an interrupt pauses, if one is running.
std::mutex& channel_mutex() {
  static std::mutex* mutex = new std::mutex;  // never destroyed: the watcher may outlive static destruction
  return *mutex;
}

}  // namespace

class SimulationInterrupt::Channel : public sc_core::sc_prim_channel {
 public:
  Channel() : sc_core::sc_prim_channel("rsoc_interrupt") {}
  using sc_core::sc_prim_channel::async_request_update;

 private:
  void update() override { sc_core::sc_pause(); }
};

namespace {

SimulationInterrupt::Channel* g_channel = nullptr;  // under channel_mutex()

void watch(int fd) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // the handler runs on the main thread
  char byte = 0;
  for (;;) {
    const ssize_t n = ::read(fd, &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    std::lock_guard<std::mutex> lock(channel_mutex());
    if (g_channel) g_channel->async_request_update();
  }
}

}  // namespace

Interrupted::Interrupted(int signal, std::string kept)
    : std::runtime_error("interrupted by " + signal_name(signal)), signal_(signal), kept_(std::move(kept)) {}

void install_interrupt_handlers() {
  if (g_wake_fd >= 0) return;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot create the interrupt pipe");
  ::fcntl(fds[1], F_SETFL, O_NONBLOCK);
  g_wake_fd = fds[1];
  std::thread(watch, fds[0]).detach();
  for (int signal : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    ::sigaction(signal, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(signal, &action, nullptr);
  }
}

int interrupt_signal() {
  return g_signal;
}

void throw_if_interrupted() {
  if (g_signal != 0) throw Interrupted(g_signal);
}

void interrupt(int signal) {
  on_signal(signal);
}

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

void watch_child(pid_t pid) {
  for (ChildSlot* slot = g_children.load(); slot != nullptr; slot = slot->next) {
    pid_t free = 0;
    if (slot->pid.compare_exchange_strong(free, pid)) return;
  }
  auto* slot = new ChildSlot;
  slot->pid = pid;
  slot->next = g_children.load();
  g_children.store(slot);
}

void forget_child(pid_t pid) {
  for (ChildSlot* slot = g_children.load(); slot != nullptr; slot = slot->next) {
    pid_t watched = pid;
    if (slot->pid.compare_exchange_strong(watched, 0)) return;
  }
}

SimulationInterrupt::SimulationInterrupt() : channel_(std::make_unique<Channel>()) {
  std::lock_guard<std::mutex> lock(channel_mutex());
  g_channel = channel_.get();
}

SimulationInterrupt::~SimulationInterrupt() {
  std::lock_guard<std::mutex> lock(channel_mutex());
  if (g_channel == channel_.get()) g_channel = nullptr;
}

}  // namespace rsoc::platform
