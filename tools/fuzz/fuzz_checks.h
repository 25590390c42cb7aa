#pragma once
// What the fuzz targets require of every scenario that loads, beyond loading without a crash: its resolved
// document (resolved_scenario.json) loads again to the same scenario, and every clock period it resolved to
// is a time SystemC holds (SystemC converts times without checks, out of the sanitizers' view). A violation
// prints the input and aborts: a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "platform/scenario.h"

namespace rsoc::fuzz {

[[noreturn]] inline void finding(const std::string& what, const std::string& input) {
  std::fprintf(stderr, "%s\ninput:\n%s\n", what.c_str(), input.c_str());
  std::abort();
}

// A ScenarioError names at least one problem, each of which formats.
inline void check_refusal(const platform::ScenarioError& e, const std::string& input) {
  if (e.issues().empty()) finding("a ScenarioError without an issue", input);
  for (const auto& issue : e.issues()) (void)issue.to_string();
}

// A period SystemC holds: above 0 and below 2^57 ps (the longest duration the models compute with).
inline void check_period(const sc_core::sc_time& period, const std::string& what, const std::string& input) {
  if (period > sc_core::SC_ZERO_TIME && period.value() < (std::uint64_t{1} << 57)) return;
  finding(what + ": clock period " + period.to_string() + " is not a time SystemC holds", input);
}

inline void check_loaded(const platform::Scenario& scenario, const std::string& input) {
  const platform::ScenarioParams& p = scenario.params;
  for (const auto& c : p.cpus) check_period(c.params.clock_period, c.name, input);
  for (const auto& b : p.buses) {
    if (const auto* f = b.fmc()) {
      check_period(f->clock_period, b.name, input);
      check_period(f->cpu_clock_period, b.name + " (CPU side)", input);
    } else {
      check_period(b.onchip()->clock_period, b.name, input);
    }
  }
  for (const auto& m : p.memories) check_period(m.params.clock_period, m.name, input);
  for (const auto& d : p.dmas) check_period(d.params.clock_period, d.name, input);
  if (p.config_port) check_period(p.config_port->params.clock_period, "config_port", input);
  for (const auto& s : p.slots) check_period(s.params.clock_period, s.name, input);
  for (const auto& c : p.cores) check_period(c.params.clock_period, c.name, input);
  for (const auto& u : p.uarts) {  // the byte time the UART model computes
    const double ps = static_cast<double>(u.params.bits_per_byte) / u.params.baud * 1e12;
    if (!(ps >= 1 && ps < 0x1p57)) finding(u.name + ": a byte takes " + std::to_string(ps) + " ps", input);
  }

  const std::string resolved = scenario.resolved.dump();
  platform::Scenario again;
  try {
    again = platform::load_scenario_text(resolved, "resolved_scenario.json");
  } catch (const platform::ScenarioError& e) {
    finding(std::string("the resolved document of a scenario that loads does not load:\n") + e.what() +
                "\nresolved:\n" + resolved,
            input);
  }
  if (again.sha256 != scenario.sha256)
    finding("the resolved document loads to another scenario:\n" + resolved, input);
}

}  // namespace rsoc::fuzz
