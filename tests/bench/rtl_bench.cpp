// Benchmark: RTL cores (models/rtl_core.h) beside the behavioural model, on the cached hardware path of the
// reference SoC: one request configures the AES core, then REQUESTS requests of BLOCKS blocks run on it,
// resident, every cipher block verified. Three cases, each in a child process of this binary (SystemC
// elaborates once per process): the behavioural core with the driver's PIO replay (pio_timing burst, the
// default), the behavioural core word by word (pio_timing word: every access through the bus models, as
// with an RTL core), and the RTL AES core (scenarios/os_aes_des_rtl.json, verilated into the cache). Prints
// simulated cipher blocks per second of wall time, their ratio to the word-by-word model, and the RTL
// design's evaluated clock edges (core cycles) per second. Asserts nothing (speed is not a unit test).
//   build/tests/bench_rtl [REQUESTS] [BLOCKS]      (default: 20 requests of 16 blocks)
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
#include <vector>

#include "analysis/stats.h"
#include "platform/scenario.h"
#include "platform/simulation.h"
#include "tests/bench/kernel_rate.h"
#include "tests/test_paths.h"

namespace {

using rsoc::bench::now_s;

// One case, in this process: prints "cipher_blocks wall_s rtl_edges failed".
int run_case(const std::string& file, const std::vector<std::string>& overrides, std::uint64_t requests,
             std::uint64_t blocks) {
  using namespace rsoc;
  platform::LoadOptions options;
  options.overrides = overrides;
  const platform::Scenario scenario = platform::load_scenario_file(file, options);
  const platform::ScenarioParams& p = scenario.params;
  const auto f = p.functionalities->find("aes128");
  if (!f) throw std::invalid_argument("the scenario has no aes128");
  const runtime::FunctionalityInfo& fi = runtime::info(*f);
  const std::uint64_t unit = runtime::unit_bytes(p.runtime.unit_bytes, *f);
  platform::Simulation sim(p, nullptr);
  std::uint64_t failed = 0;
  double t0 = 0, t1 = 0, edges_before = 0;
  auto edges = [&] {
    double n = 0;
    for (const auto& g : sim.stats(sc_core::sc_time_stamp().to_seconds() * 1e3))
      if (const auto v = analysis::find_stat({g}, g.resource, "rtl_edges")) n += *v;
    return n;
  };
  sim.scheduler().spawn("bench", 10, [&](runtime::Process& proc) {
    std::mt19937_64 rng(p.seed);
    std::vector<std::uint8_t> key(fi.key_bytes);
    for (auto& b : key) b = static_cast<std::uint8_t>(rng());
    std::vector<std::uint8_t> data(blocks * unit);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng());
    auto one = [&] {
      const auto out = sim.manager().request(proc, "bench", *f, key, data, true, std::nullopt, true);
      if (!out.record.ok || !out.record.verified) ++failed;
    };
    one();  // configures the core
    edges_before = edges();
    t0 = now_s();
    for (std::uint64_t i = 0; i < requests; ++i) one();
    t1 = now_s();
    sim.finish();
  });
  sim.run();
  const double cipher_blocks = static_cast<double>(requests * blocks * (unit / fi.block_bytes));
  std::printf("%.0f %.6f %.0f %llu\n", cipher_blocks, t1 - t0, edges() - edges_before,
              static_cast<unsigned long long>(failed));
  return failed ? 1 : 0;
}

struct Outcome {
  double cipher_blocks = 0, wall = 0, edges = 0, failed = 0;
  bool ok = false;
};

Outcome child(const std::string& args) {
  char self[4096] = {};
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  const std::string command = "'" + std::string(self, n > 0 ? static_cast<std::size_t>(n) : 0) + "' " + args;
  Outcome o;
  if (FILE* c = ::popen(command.c_str(), "r")) {
    o.ok = std::fscanf(c, "%lf %lf %lf %lf", &o.cipher_blocks, &o.wall, &o.edges, &o.failed) == 4;
    o.ok = ::pclose(c) == 0 && o.ok;
  }
  return o;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  if (argc > 1 && std::string(argv[1]) == "--case") {  // --case REQUESTS BLOCKS SCENARIO [OVERRIDE...]
    std::vector<std::string> overrides(argv + 5, argv + argc);
    return run_case(argv[4], overrides, std::strtoull(argv[2], nullptr, 10),
                    std::strtoull(argv[3], nullptr, 10));
  }
  const std::string requests = argc > 1 ? argv[1] : "20", blocks = argc > 2 ? argv[2] : "16";
  const std::string scenarios = std::string(rsoc_test::kSourceDir) + "/scenarios/";
  struct Case {
    const char* name;
    std::string args;
  };
  const Case cases[] = {
      {"model, PIO replayed (burst)", "os_aes_des.json"},
      {"model, word by word", "os_aes_des.json runtime.driver.pio_timing=word"},
      {"RTL aes128_core.v", "os_aes_des_rtl.json"},
  };
  std::printf(
      "AES-128 on the reference SoC, core resident: %s requests of %s blocks (256 cipher blocks each)\n",
      requests.c_str(), blocks.c_str());
  std::printf("%-30s %14s %12s %16s %14s\n", "core", "cipher blocks", "wall s", "cipher blocks/s",
              "vs word model");
  Outcome outcomes[3];
  for (int i = 0; i < 3; ++i)
    outcomes[i] = child("--case " + requests + " " + blocks + " " + scenarios + cases[i].args);
  const double word = outcomes[1].ok ? outcomes[1].cipher_blocks / outcomes[1].wall : 0.0;
  int rc = 0;
  for (int i = 0; i < 3; ++i) {
    const Case& c = cases[i];
    const Outcome& o = outcomes[i];
    if (!o.ok || o.failed > 0) {
      std::printf("%-30s failed\n", c.name);
      rc = 1;
      continue;
    }
    const double rate = o.cipher_blocks / o.wall;
    std::printf("%-30s %14.0f %12.4f %14.3f M %13.2fx\n", c.name, o.cipher_blocks, o.wall, rate / 1e6,
                word > 0 ? rate / word : 0.0);
    if (o.edges > 0)
      std::printf("%-30s %.0f core cycles evaluated: %.2f M cycles/s (%.1f a cipher block)\n", "", o.edges,
                  o.edges / o.wall / 1e6, o.edges / o.cipher_blocks);
  }
  return rc;
}

int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
