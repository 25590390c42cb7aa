// Benchmark: the cached hardware path. One request configures the core, then REQUESTS requests of BLOCKS
// blocks each run on it, resident: every cipher block's words through the bus models, computed by the core
// model and verified against the reference cipher. Prints simulated cipher blocks per second of wall time
// (the cached requests only) and what a cipher block costs in raw SystemC timed waits, the kernel's rate
// measured by this program in a child process (SystemC elaborates once per process). Asserts nothing (speed
// is not a unit test).
//   build/tests/bench_cached [--no-kernel-rate] [SCENARIO|-] [FUNCTIONALITY] [REQUESTS] [BLOCKS]
//   (default: the reference scenario, aes128, 200 requests of 16 blocks; --no-kernel-rate: no child process,
//   for an instruction count under callgrind, tools/check.sh perf)
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <systemc>

#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/bench/kernel_rate.h"

using rsoc::bench::kernel_rate_of_child;
using rsoc::bench::kernel_waits_per_s;
using rsoc::bench::now_s;

int sc_main(int argc, char* argv[]) {
  using namespace rsoc;
  if (argc > 1 && std::string(argv[1]) == "--kernel-rate") {
    std::printf("%.0f\n", kernel_waits_per_s());
    return 0;
  }
  const bool kernel_rate = !(argc > 1 && std::string(argv[1]) == "--no-kernel-rate");
  if (!kernel_rate) {
    --argc;
    ++argv;
  }
  const platform::Scenario scenario =
      argc > 1 && std::string(argv[1]) != "-"
          ? platform::load_scenario_file(argv[1])
          : platform::load_scenario_text(platform::default_scenario_text(), platform::kDefaultScenarioName);
  const platform::ScenarioParams& p = scenario.params;
  const auto f = p.functionalities->find(argc > 2 ? argv[2] : "aes128");
  if (!f) throw std::invalid_argument("the scenario has no such functionality");
  const std::uint64_t requests = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 200;
  const std::uint64_t blocks = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 16;
  const runtime::FunctionalityInfo& fi = runtime::info(*f);
  const std::uint64_t unit = runtime::unit_bytes(p.runtime.unit_bytes, *f);

  platform::Simulation sim(p, nullptr);
  std::uint64_t failed = 0;
  double t0 = 0, t1 = 0;
  sim.scheduler().spawn("bench", 10, [&](runtime::Process& proc) {
    std::mt19937_64 rng(p.seed);
    std::vector<std::uint8_t> key(fi.key_bytes);
    for (auto& b : key) b = static_cast<std::uint8_t>(rng());
    runtime::shape_key(*f, key);
    std::vector<std::uint8_t> data(blocks * unit);
    for (std::size_t i = 0; i + 8 <= data.size(); i += 8) {
      const std::uint64_t r = rng();
      std::memcpy(&data[i], &r, 8);
    }
    runtime::shape_data(*f, data);
    auto one = [&] {
      const auto out = sim.manager().request(proc, "bench", *f, key, data, true, std::nullopt, true);
      if (!out.record.ok || !out.record.verified) ++failed;
    };
    one();  // configures the core
    t0 = now_s();
    for (std::uint64_t i = 0; i < requests; ++i) one();
    t1 = now_s();
    sim.finish();
  });
  sim.run();
  const double wall = t1 - t0;
  const double cipher_blocks = static_cast<double>(requests * blocks * (unit / fi.block_bytes));
  const double waits_per_s = kernel_rate ? kernel_rate_of_child() : 0.0;
  std::printf("scenario                 %s\n", scenario.file.c_str());
  std::printf("functionality            %s, %llu requests of %llu blocks of %llu bytes, core resident\n",
              fi.name, static_cast<unsigned long long>(requests), static_cast<unsigned long long>(blocks),
              static_cast<unsigned long long>(unit));
  std::printf("failed or unverified     %llu\n", static_cast<unsigned long long>(failed));
  std::printf("wall time                %.4f s\n", wall);
  std::printf("cipher blocks per s      %.3f M\n", cipher_blocks / wall / 1e6);
  std::printf("per cipher block         %.4f us\n", wall / cipher_blocks * 1e6);
  std::printf("raw kernel timed waits   %.2f M/s\n", waits_per_s / 1e6);
  std::printf("cipher block in waits    %.2f (wall per cipher block x kernel wait rate)\n",
              wall / cipher_blocks * waits_per_s);
  return failed ? 1 : 0;
}

int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
