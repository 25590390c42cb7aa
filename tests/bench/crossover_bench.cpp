// Benchmark: the whole reference crossover table (AES and DES, 1..200 blocks, software / hardware with
// reconfiguration / hardware cached: 1,200 simulated experiments) in one process, against the raw SystemC
// kernel rate measured in the same run (by this program in a child process: SystemC elaborates once per
// process). Prints figures per block (the scenario's unit) and per cipher block; asserts nothing (speed is
// not a unit test).
//   build/tests/bench_crossover [SCENARIO] [MAX_BLOCKS]
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <systemc>

#include "platform/crossover.h"
#include "platform/scenario.h"
#include "tests/bench/kernel_rate.h"

using rsoc::bench::kernel_rate_of_child;
using rsoc::bench::kernel_waits_per_s;

int sc_main(int argc, char* argv[]) {
  using namespace rsoc::platform;
  if (argc > 1 && std::string(argv[1]) == "--kernel-rate") {
    std::printf("%.0f\n", kernel_waits_per_s());
    return 0;
  }
  const Scenario scenario = argc > 1 ? load_scenario_file(argv[1])
                                     : load_scenario_text(default_scenario_text(), kDefaultScenarioName);
  CrossoverOptions options;
  options.max_blocks = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 200;
  const CrossoverResult r = run_crossover(scenario, options);

  const double waits_per_s = kernel_rate_of_child();
  std::printf("scenario                 %s\n", scenario.file.c_str());
  std::printf("experiments              %llu\n", static_cast<unsigned long long>(r.experiments));
  std::printf("blocks simulated         %llu\n", static_cast<unsigned long long>(r.blocks));
  std::printf("cipher blocks simulated  %llu\n", static_cast<unsigned long long>(r.cipher_blocks));
  std::printf("simulated time           %.3f s\n", r.simulated_s);
  std::printf("wall time                %.4f s\n", r.wall_s);
  std::printf("per simulated block      %.3f us\n", r.wall_s / static_cast<double>(r.blocks) * 1e6);
  std::printf("per simulated cipher blk %.3f us\n", r.wall_s / static_cast<double>(r.cipher_blocks) * 1e6);
  std::printf("per experiment           %.1f us\n", r.wall_s / static_cast<double>(r.experiments) * 1e6);
  std::printf("raw kernel timed waits   %.2f M/s\n", waits_per_s / 1e6);
  std::printf("block cost in waits      %.1f (wall per block x kernel wait rate)\n",
              r.wall_s / static_cast<double>(r.blocks) * waits_per_s);
  std::printf("cipher block in waits    %.2f\n",
              r.wall_s / static_cast<double>(r.cipher_blocks) * waits_per_s);
  for (const auto& s : r.summary)
    std::printf("crossover %-14s %s (analytic %s)\n", rsoc::runtime::info(s.functionality).name,
                s.simulated ? std::to_string(*s.simulated).c_str() : "none",
                s.analytic ? std::to_string(*s.analytic).c_str() : "none");
  return 0;
}

int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
