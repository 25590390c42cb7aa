#pragma once
// The raw SystemC kernel rate a benchmark compares itself with: timed waits per second of one SC_THREAD,
// measured by the benchmark's own binary in a child process (`--kernel-rate`), since SystemC elaborates once
// per process.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <systemc>

namespace rsoc::bench {

inline double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Timed waits per second of one SC_THREAD: the kernel's speed limit on this machine (in this process).
inline double kernel_waits_per_s() {
  constexpr int kWaits = 2000000;
  double kernel_s = 0;
  sc_core::sc_spawn([&] {
    const double t0 = now_s();
    for (int i = 0; i < kWaits; ++i) sc_core::wait(1, sc_core::SC_NS);
    kernel_s = now_s() - t0;
  });
  sc_core::sc_start();
  return kWaits / kernel_s;
}

// The same, from this binary run again with --kernel-rate (0 when that fails).
inline double kernel_rate_of_child() {
  double waits_per_s = 0;
  char self[4096] = {};
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  const std::string command =
      "'" + std::string(self, n > 0 ? static_cast<std::size_t>(n) : 0) + "' --kernel-rate";
  if (FILE* child = ::popen(command.c_str(), "r")) {
    if (std::fscanf(child, "%lf", &waits_per_s) != 1) waits_per_s = 0;
    ::pclose(child);
  }
  return waits_per_s;
}

}  // namespace rsoc::bench
