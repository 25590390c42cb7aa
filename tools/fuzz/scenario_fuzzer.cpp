// libFuzzer target: scenario text -> the loader `rsoc validate` uses (strict JSON parse, schema resolution,
// cross-field resolution). Any input must either load or be refused with a ScenarioError; anything else
// (another exception, a crash, undefined behaviour, a hang) is a finding, and so is a scenario that loads
// but breaks what fuzz_checks.h requires.
#include <cstddef>
#include <cstdint>
#include <string>

#include "platform/scenario.h"
#include "tools/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rsoc::platform::Scenario scenario;
  try {
    scenario = rsoc::platform::load_scenario_text(text, "fuzz.json");
  } catch (const rsoc::platform::ScenarioError& e) {
    rsoc::fuzz::check_refusal(e, text);
    return 0;
  }
  rsoc::fuzz::check_loaded(scenario, text);
  return 0;
}
