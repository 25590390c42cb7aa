// libFuzzer target: the command-line parsers that change a scenario. The input is up to eight lines; each
// line is given to the parsers of `--param path=v1,v2,...|start:stop:step` (then its values checked as
// `rsoc sweep` checks them, when it has few) and `--vary path=LOW:HIGH,...` (then both ends loaded as `rsoc
// sensitivity` does), and all lines together are `--set path=value` overrides of the embedded reference
// scenario. Each parser must accept its text or refuse it with its own error (SweepError for the grid and
// assumption syntax, ScenarioError for a path or value the scenario does not take); anything else is a
// finding, and so is a scenario that loads but breaks what fuzz_checks.h requires.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/scenario.h"
#include "platform/sensitivity.h"
#include "platform/sweep.h"
#include "tools/fuzz/fuzz_checks.h"

namespace {

using rsoc::platform::ScenarioError;
using rsoc::platform::SweepError;

constexpr std::size_t kMaxLines = 8;
constexpr std::size_t kMaxCheckedValues = 4;  // values of a --param loaded (one scenario load each)

rsoc::platform::SweepSpec base_spec() {
  rsoc::platform::SweepSpec spec;
  spec.scenario_name = "os_aes_des.json";
  spec.scenario_text = std::string(rsoc::platform::default_scenario_text());
  return spec;
}

void fuzz_param(const std::string& line, const std::string& input) {
  rsoc::platform::SweepSpec spec = base_spec();
  try {
    spec.parameters.push_back(rsoc::platform::parse_parameter(line));
  } catch (const SweepError&) {
    return;
  }
  if (spec.parameters.front().values.empty()) rsoc::fuzz::finding("--param " + line + ": no value", input);
  if (spec.parameters.front().values.size() > kMaxCheckedValues) return;
  try {
    rsoc::platform::validate_parameters(spec);
  } catch (const ScenarioError& e) {
    rsoc::fuzz::check_refusal(e, input);
  }
}

void fuzz_vary(const std::string& line, const std::string& input) {
  std::vector<rsoc::platform::Assumption> assumptions;
  try {
    assumptions.push_back(rsoc::platform::parse_assumption(line));
  } catch (const SweepError&) {
    return;
  }
  (void)rsoc::platform::sensitivity_points(assumptions);
  try {
    rsoc::platform::validate_assumptions(base_spec(), assumptions);
  } catch (const ScenarioError& e) {
    rsoc::fuzz::check_refusal(e, input);
  }
}

void fuzz_set(const std::vector<std::string>& lines, const std::string& input) {
  rsoc::platform::LoadOptions options;
  options.overrides = lines;
  try {
    rsoc::fuzz::check_loaded(
        rsoc::platform::load_scenario_text(rsoc::platform::default_scenario_text(),
                                           rsoc::platform::kDefaultScenarioName, options),
        input);
  } catch (const ScenarioError& e) {
    rsoc::fuzz::check_refusal(e, input);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size() && lines.size() < kMaxLines) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  for (const auto& line : lines) {
    fuzz_param(line, text);
    fuzz_vary(line, text);
  }
  fuzz_set(lines, text);
  return 0;
}
