// Configuration unit: section energy: the power model, by component name.
// Its schema and its resolution (platform/scenario_sections.h).
#include "platform/scenario_sections.h"
#include "runtime/policy.h"

namespace rsoc::platform::sections {

namespace {

constexpr double kMaxMw = 1e7, kMaxPj = 1e9, kMaxNj = 1e6;

// A map of `value` by the name of a platform component of kind `key`.
Schema by_name(Schema value, const char* key, const char* what, const char* counted = "") {
  value.doc(std::string(what) + " of one " + key);
  return Schema::map(std::move(value))
      .key_name(key)
      .default_value(nlohmann::json::object())
      .doc(std::string(what) + ", by name: one entry for every one of the platform's" + counted);
}

// The power of one CPU (energy.cpus).
Schema cpu_power_schema() {
  return Schema::object({
      {"active_mw", Schema::number().unit("mW").min(0).max(kMaxMw).doc(
                        "power with one hardware thread busy (computing or stalled "
                        "on a device); each busy thread adds active_mw - idle_mw")},
      {"idle_mw", Schema::number().unit("mW").min(0).max(kMaxMw).doc(
                      "power while no hardware thread is busy, over the whole run")},
      {"at_clock_mhz",
       Schema::number().unit("MHz").exclusive_min(0).max(1e6).nullable().default_value(nullptr).doc(
           "the clock the powers were measured at: active_mw - idle_mw "
           "scales with the CPU's clock_mhz over it (fixed voltage); "
           "null: the CPU's own clock")},
  });
}

}  // namespace

// Section energy: the power model (models/energy.h), by component name.
Schema energy_section() {
  const char* counted = " (an entry with a count by its name: all its instances)";
  return Schema::object(
             {
                 {"baseline_mw",
                  Schema::number().unit("mW").min(0).max(kMaxMw).default_value(0.0).doc(
                      "always-on power no component models (device static power, interconnect, memory "
                      "controller, clocks), over the whole run")},
                 {"cpus", by_name(cpu_power_schema(), "cpu", "CPU power")},
                 {"buses", by_name(Schema::object({
                                       {"pj_per_word", Schema::number().unit("pJ").min(0).max(kMaxPj).doc(
                                                           "energy of each 32-bit word the bus carries (an "
                                                           "FMC: each bus cycle)")},
                                   }),
                                   "bus", "bus energy")},
                 {"memories",
                  by_name(Schema::object({
                              {"read_nj_per_word",
                               Schema::number().unit("nJ").min(0).max(kMaxNj).doc("each 32-bit word read")},
                              {"write_nj_per_word", Schema::number().unit("nJ").min(0).max(kMaxNj).doc(
                                                        "each 32-bit word written")},
                          }),
                          "memory", "memory energy")},
                 {"dmas", by_name(Schema::object({
                                      {"pj_per_word", Schema::number().unit("pJ").min(0).max(kMaxPj).doc(
                                                          "the engine's own energy per word moved (the "
                                                          "buses and memories count theirs)")},
                                      {"idle_mw",
                                       Schema::number().unit("mW").min(0).max(kMaxMw).default_value(0.0).doc(
                                           "its idle power, over the whole run")},
                                  }),
                                  "dma", "DMA energy", counted)},
                 {"config_port",
                  Schema::object(
                      {
                          {"nj_per_word", Schema::number().unit("nJ").min(0).max(kMaxNj).doc(
                                              "the port's own energy per bitstream word it takes "
                                              "(its feeder, the memory and the bus count theirs)")},
                      })
                      .nullable()
                      .default_value(nullptr)
                      .doc("configuration port energy; required when the platform has a port")},
                 {"slots", by_name(Schema::object({
                                       {"static_mw", Schema::number().unit("mW").min(0).max(kMaxMw).doc(
                                                         "the region's static power (leakage, and the clock "
                                                         "of a core idling in it), over the whole run, "
                                                         "configured or not")},
                                   }),
                                   "slot", "slot power", counted)},
                 {"cores", by_name(Schema::object({
                                       {"pj_per_cycle", Schema::number().unit("pJ").min(0).max(kMaxPj).doc(
                                                            "energy of each cycle the core computes (at its "
                                                            "own clock)")},
                                   }),
                                   "core", "core energy")},
             })
      .nullable()
      .default_value(nullptr)
      .doc(
          "the power model: energy of every request and of the run by component; null: no energy "
          "accounting (see scenarios/README.md)");
}

template <class Take>
void Resolver::energy_entries(const json& e, const char* list, const char* what, const Take& take) {
  const std::string ptr = "/energy/" + std::string(list);
  const std::map<std::string, std::vector<std::string>> none;
  const auto& groups = std::string(list) == "slots"  ? slot_groups_
                       : std::string(list) == "dmas" ? dma_groups_
                                                     : none;
  std::set<std::string> given;
  for (const auto& [name, v] : e[list].items()) {
    const std::string at = pointer_child(ptr, name);
    const auto group = groups.find(name);
    std::vector<std::string> instances;
    if (group != groups.end() && group->second.size() > 1) {
      instances = group->second;
    } else if (known(list, name, at, what)) {
      instances = {name};
    }
    for (const std::string& instance : instances) {
      if (!given.insert(instance).second) {
        issues_.add(at, std::string(what) + " \"" + instance +
                            "\" has energy values twice (by its name and its entry's); expected one");
        continue;
      }
      take(instance, v, at);
    }
  }
  for (const std::string& name : names_[list])
    if (!given.count(name))
      issues_.add(ptr, "no energy values for " + std::string(what) + " \"" + name +
                           "\"; expected an entry for every one of /platform/" + list);
}

void Resolver::energy(ScenarioParams& p) {
  const json& e = doc_["energy"];
  if (e.is_null()) {
    if (runtime::needs_energy(p.runtime.policy))
      issues_.add("/runtime/policy", "policy " + doc_["runtime"]["policy"].get<std::string>() +
                                         " chooses by energy: it needs section energy (the power model); "
                                         "expected another policy, or an energy section");
    return;
  }
  EnergySpec spec;
  spec.baseline_mw = e["baseline_mw"].get<double>();
  energy_entries(e, "cpus", "CPU", [&](const std::string& name, const json& v, const std::string& ptr) {
    const double active = v["active_mw"].get<double>(), idle = v["idle_mw"].get<double>();
    if (active < idle) {
      issues_.add(ptr + "/active_mw", "active_mw (" + v["active_mw"].dump() + ") is below idle_mw (" +
                                          v["idle_mw"].dump() + "); expected at least idle_mw");
      return;
    }
    double scale = 1;
    if (!v["at_clock_mhz"].is_null()) {
      for (const auto& c : p.cpus)
        if (c.name == name)
          scale = 1e-6 / c.params.clock_period.to_seconds() / v["at_clock_mhz"].get<double>();
    }
    spec.cpus[name] = {idle + (active - idle) * scale, idle};
  });
  energy_entries(e, "buses", "bus", [&](const std::string& name, const json& v, const std::string&) {
    spec.bus_pj_per_word[name] = v["pj_per_word"].get<double>();
  });
  energy_entries(e, "memories", "memory", [&](const std::string& name, const json& v, const std::string&) {
    spec.memories[name] = {v["read_nj_per_word"].get<double>(), v["write_nj_per_word"].get<double>()};
  });
  energy_entries(e, "dmas", "DMA engine", [&](const std::string& name, const json& v, const std::string&) {
    spec.dmas[name] = {v["pj_per_word"].get<double>(), v["idle_mw"].get<double>()};
  });
  energy_entries(e, "slots", "slot", [&](const std::string& name, const json& v, const std::string&) {
    spec.slot_static_mw[name] = v["static_mw"].get<double>();
  });
  energy_entries(e, "cores", "core", [&](const std::string& name, const json& v, const std::string&) {
    spec.core_pj_per_cycle[name] = v["pj_per_cycle"].get<double>();
  });
  const json& port = e["config_port"];
  if (port.is_null() && p.config_port)
    issues_.add("/energy/config_port",
                "the platform has a configuration port; expected its energy ({\"nj_per_word\": ...})");
  if (!port.is_null() && !p.config_port)
    issues_.add("/energy/config_port", "the platform has no configuration port; expected null");
  if (!port.is_null()) spec.config_port_nj_per_word = port["nj_per_word"].get<double>();
  p.runtime.energy_floor_mw = spec.floor_mw();
  p.energy = spec;
}

}  // namespace rsoc::platform::sections
