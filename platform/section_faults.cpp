// Configuration unit: section faults: injected faults, seeded and reproducible.
// Its schema and its resolution (platform/scenario_sections.h).
#include <algorithm>

#include "models/scrubber.h"
#include "platform/scenario_sections.h"

namespace rsoc::platform::sections {

namespace {

// faults.scrubbing: scrubbing repairs upsets through the configuration port.
Schema scrubbing_schema() {
  return Schema::object(
             {
                 {"mode", Schema::enumeration(with_none(models::kScrubModeNames.names()))
                              .default_value("none")
                              .doc("blind: rewrite every configured slot's frames each period; readback: "
                                   "read them back, compare, rewrite a corrupted frame")},
                 {"period_ms", Schema::number().unit("ms").exclusive_min(0).max(1e9).default_value(100.0).doc(
                                   "from the start of one scrubbing round to the next")},
                 {"frame_words", Schema::integer().unit("words").min(1).max(1 << 20).default_value(101).doc(
                                     "readback: words of the frame rewritten to repair an upset (7-series: "
                                     "101)")},
             })
      .doc("scrubbing: repairs upsets, using the configuration port");
}

// faults.buses: the faults of each bus.
Schema bus_faults_schema() {
  return Schema::map(Schema::object({
                                        {"error_rate",
                                         Schema::number().min(0).max(1).default_value(0.0).doc(
                                             "chance that an access (a burst is one) fails: an on-chip bus "
                                             "answers with an error response; on an async FMC bus NWAIT "
                                             "never clears and the CPU gives up after max_polls polls")},
                                    })
                         .doc("faults of one bus"))
      .key_name("bus")
      .default_value(nlohmann::json::object())
      .doc("bus faults, by bus name");
}

}  // namespace

// Section faults: injected faults, seeded and reproducible.
Schema faults_section() {
  return Schema::object(
             {
                 {"seed", Schema::integer()
                              .min(0)
                              .max(9.007199254740991e15)
                              .nullable()
                              .default_value(nullptr)
                              .doc("seed of the fault draws; null: the scenario's seed")},
                 {"configuration",
                  Schema::object(
                      {
                          {"probability",
                           Schema::number().min(0).max(1).default_value(0.0).doc(
                               "chance that a configuration's bitstream fails the port's check at the end "
                               "of loading")},
                          {"bit_error_rate",
                           Schema::number().unit("1/bit").min(0).max(1).default_value(0.0).doc(
                               "chance that each bitstream bit moved into the port arrives flipped")},
                      })
                      .doc("configuration errors: the port reports ERROR and the slot holds nothing")},
                 {"upsets",
                  Schema::object({
                                     {"rate_per_mbit_hour",
                                      Schema::number()
                                          .unit("1/(Mbit h)")
                                          .min(0)
                                          .max(1e15)
                                          .default_value(0.0)
                                          .doc("configuration upsets per megabit of a configured core's "
                                               "bitstream per hour")},
                                     {"essential_fraction",
                                      Schema::number().min(0).max(1).default_value(1.0).doc(
                                          "share of upsets that hit a bit the core's function needs (the "
                                          "others change nothing)")},
                                 })
                      .doc(
                          "configuration upsets: an upset core computes wrong results until it is repaired")},
                 {"hangs",
                  Schema::object({
                                     {"probability",
                                      Schema::number().min(0).max(1).default_value(0.0).doc(
                                          "chance that an operation a core starts (a block) never finishes")},
                                 })
                      .doc("core hangs: a hung core never finishes until it is configured again (needs "
                           "runtime.recovery.watchdog_cycles)")},
                 {"scrubbing", scrubbing_schema()},
                 {"buses", bus_faults_schema()},
                 {"at",
                  Schema::array(
                      Schema::object({
                          {"time_us", Schema::number().unit("us").min(0).max(9e12).doc(
                                          "the fault hits the first chance at or after this time")},
                          {"fault",
                           Schema::enumeration(models::kFaultKindNames.names())
                               .doc(
                                   "configuration: the next bitstream loaded into the slot fails its check; "
                                   "upset: the core configured in the slot then is upset; hang: the next "
                                   "operation a core in the slot starts never finishes; bus: the next access "
                                   "the bus carries fails")},
                          {"slot", Schema::string().nullable().default_value(nullptr).doc(
                                       "configuration, upset, hang: the slot it hits")},
                          {"bus",
                           Schema::string().nullable().default_value(nullptr).doc("bus: the bus it hits")},
                      }))
                      .max_items(100000)
                      .default_value(nlohmann::json::array())
                      .doc("faults at given times (fault windows), besides the drawn ones")},
             })
      .nullable()
      .default_value(nullptr)
      .doc("injected faults, seeded and reproducible; null: none (see scenarios/README.md)");
}

void Resolver::faults(ScenarioParams& p) {
  const json& f = doc_["faults"];
  if (f.is_null()) return;
  FaultSpec spec;
  spec.seed = f["seed"].is_null() ? p.seed : u64(f["seed"]);
  spec.configuration_probability = f["configuration"]["probability"].get<double>();
  spec.bit_error_rate = f["configuration"]["bit_error_rate"].get<double>();
  spec.upsets_per_bit_per_s = f["upsets"]["rate_per_mbit_hour"].get<double>() *
                              f["upsets"]["essential_fraction"].get<double>() / 1e6 / 3600.0;
  spec.hang_probability = f["hangs"]["probability"].get<double>();
  const json& scrub = f["scrubbing"];
  if (scrub["mode"] != "none") {
    models::ScrubParams sp;
    sp.mode = models::kScrubModeNames.at(scrub["mode"].get<std::string>());
    sp.period = sc_time(scrub["period_ms"].get<double>(), sc_core::SC_MS);
    sp.frame_words = u64(scrub["frame_words"]);
    if (sp.period == sc_core::SC_ZERO_TIME)
      issues_.add("/faults/scrubbing/period_ms", "the period is shorter than a picosecond; expected more");
    if (!p.config_port)
      issues_.add("/faults/scrubbing/mode", "scrubbing needs a configuration port; the platform has none");
    spec.scrubbing = sp;
  }
  for (std::size_t i = 0; i < f["at"].size(); ++i) {
    const json& w = f["at"][i];
    const std::string ptr = "/faults/at/" + std::to_string(i);
    const std::string fault_name = w["fault"].get<std::string>();
    const models::FaultKind fault = models::kFaultKindNames.at(fault_name);
    if (fault == models::FaultKind::kBus) {
      if (!w["slot"].is_null())
        issues_.add(ptr + "/slot", "a bus fault hits a bus, not a slot; expected null");
      if (w["bus"].is_null()) {
        issues_.add(ptr + "/bus", "a bus fault needs the bus it hits; expected a bus name");
        continue;
      }
      const std::string bus = w["bus"].get<std::string>();
      if (!bus_known(p, bus, ptr + "/bus")) continue;
      spec.windows.push_back({sc_time(w["time_us"].get<double>(), sc_core::SC_US), fault, 0, bus});
      continue;
    }
    const std::string a_fault = (fault == models::FaultKind::kUpset ? "an " : "a ") + fault_name + " fault";
    if (!w["bus"].is_null()) issues_.add(ptr + "/bus", a_fault + " hits a slot, not a bus; expected null");
    if (w["slot"].is_null()) {
      issues_.add(ptr + "/slot", a_fault + " needs the slot it hits; expected a slot name");
      continue;
    }
    const std::string slot = w["slot"].get<std::string>();
    const auto it =
        std::find_if(p.slots.begin(), p.slots.end(), [&](const SlotSpec& s) { return s.name == slot; });
    if (it == p.slots.end()) {
      std::vector<std::string> names;
      for (const auto& s : p.slots) names.push_back(s.name);
      issues_.add(ptr + "/slot", not_one_of_message(slot, names));
      continue;
    }
    if (!it->params.reconfigurable && fault == models::FaultKind::kConfiguration)
      issues_.add(
          ptr + "/slot",
          "slot \"" + slot + "\" is static: it is never configured, so a configuration fault never hits it");
    spec.windows.push_back({sc_time(w["time_us"].get<double>(), sc_core::SC_US), fault,
                            static_cast<std::size_t>(it - p.slots.begin()), ""});
  }
  for (const auto& [bus, b] : f["buses"].items())
    if (bus_known(p, bus, pointer_child("/faults/buses", bus)))
      spec.bus_error_rate[bus] = b["error_rate"].get<double>();
  check_faults(spec, p);
  p.faults = spec;
}

// What the faults need of the rest of the scenario: the watchdog for hangs, behavioural cores for injected
// hangs and upsets, a configuration port for configuration faults.
void Resolver::check_faults(const FaultSpec& spec, const ScenarioParams& p) {
  const bool hangs = spec.hang_probability > 0 ||
                     std::any_of(spec.windows.begin(), spec.windows.end(), [](const FaultSpec::Window& w) {
                       return w.fault == models::FaultKind::kHang;
                     });
  if (hangs && p.runtime.driver.watchdog_cycles == 0)
    issues_.add("/runtime/recovery/watchdog_cycles",
                "core hangs (faults.hangs, or a hang in faults.at) are detected only by the drivers' "
                "watchdog; expected a number of CPU cycles above 0");
  const bool upsets = spec.upsets_per_bit_per_s > 0 ||
                      std::any_of(spec.windows.begin(), spec.windows.end(), [](const FaultSpec::Window& w) {
                        return w.fault == models::FaultKind::kUpset;
                      });
  for (const CoreSpec& c : p.cores)
    if (c.params.rtl && (hangs || upsets))
      issues_.add("/faults",
                  "core \"" + c.name +
                      "\" is RTL: injected hangs and upsets are the behavioural cores' (an RTL "
                      "design that hangs by itself meets the drivers' polls and watchdog); expected "
                      "no hangs or upsets with RTL cores");
  if ((spec.configuration_probability > 0 || spec.bit_error_rate > 0) && !p.config_port)
    issues_.add("/faults/configuration",
                "configuration faults need a configuration port; the platform has none");
}

}  // namespace rsoc::platform::sections
