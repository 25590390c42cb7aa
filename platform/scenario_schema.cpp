#include "platform/scenario_schema.h"

#include "platform/scenario_sections.h"

namespace rsoc::platform {

namespace {

using namespace sections;

Schema build() {
  return Schema::object({
      {"description", Schema::string().default_value("").doc("free text: what the scenario is for")},
      {"seed", Schema::integer()
                   .min(0)
                   .max(9.007199254740991e15)
                   .default_value(1)
                   .doc("seed of every random choice (data, keys)")},
      {"platform", platform_section().doc("the hardware")},
      {"software", Schema::map(software_cost_schema().doc("software implementation cost"))
                       .key_name("functionality")
                       .default_value(nlohmann::json::object())
                       .doc("software implementations, by functionality (" + by_functionality() + ")")},
      {"runtime", runtime_section().doc("the OS runtime on the CPU")},
      {"faults", faults_section()},
      {"energy", energy_section()},
      {"workload", workload_section().doc("what the applications ask for")},
      {"outputs", outputs_section().doc("which result files are written")},
      {"limits", limits_section()},
  });
}

}  // namespace

const Schema& scenario_schema() {
  static const Schema schema = build();
  return schema;
}

}  // namespace rsoc::platform
