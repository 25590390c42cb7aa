// What the configuration units share (platform/scenario_sections.h): the Resolver's helpers for names,
// devices, clocks and time windows.
#include "platform/scenario_sections.h"

#include <algorithm>
#include <cstdlib>

namespace rsoc::platform::sections {

std::string software_dir() {
  const char* dir = std::getenv("RSOC_SOFTWARE_DIR");
  return dir && *dir ? dir : RSOC_SOFTWARE_DIR;
}

sc_time Resolver::period_of(const json& mhz, const std::string& pointer) {
  const double ps = 1e6 / mhz.get<double>();
  if (!(ps < kLongestPs)) {
    issues_.add(pointer, mhz.dump() + " MHz is too slow: one cycle would last " + approx(ps) +
                             " ps; simulated time holds at most 2^57 ps (about 40 hours) in one piece");
    return sc_time(1, sc_core::SC_PS);
  }
  return sc_time(1.0 / (mhz.get<double>() * 1e6), sc_core::SC_SEC);
}

std::optional<TimeWindow> Resolver::window(const json& w, const std::string& ptr) {
  if (w.is_null()) return std::nullopt;
  TimeWindow out;
  out.start = sc_time(w["start_ms"].get<double>(), sc_core::SC_MS);
  if (!w["end_ms"].is_null()) {
    out.end = sc_time(w["end_ms"].get<double>(), sc_core::SC_MS);
    if (*out.end <= out.start)
      issues_.add(ptr + "/end_ms", "end_ms (" + w["end_ms"].dump() + ") must be greater than start_ms (" +
                                       w["start_ms"].dump() + ")");
  }
  return out;
}

void Resolver::collect_names(const json& pl) {
  for (const char* list : {"buses", "memories", "dmas", "slots", "cores", "cpus", "uarts"}) {
    std::set<std::string>& names = names_[list];
    for (std::size_t i = 0; i < pl[list].size(); ++i) {
      const std::string n = pl[list][i]["name"].get<std::string>();
      if (!names.insert(n).second)
        issues_.add("/platform/" + std::string(list) + "/" + std::to_string(i) + "/name",
                    "duplicate name \"" + n + "\" in /platform/" + list);
    }
  }
}

std::optional<runtime::Functionality> Resolver::functionality_key(const ScenarioParams& p,
                                                                  const std::string& name,
                                                                  const std::string& pointer) {
  const auto f = p.functionalities->find(name);
  if (!f) issues_.add(pointer, unknown_key_message(name, p.functionalities->names()));
  return f;
}

std::optional<runtime::Functionality> Resolver::functionality_value(const ScenarioParams& p,
                                                                    const std::string& name,
                                                                    const std::string& pointer) {
  const auto f = p.functionalities->find(name);
  if (!f) issues_.add(pointer, not_one_of_message(name, p.functionalities->names()));
  return f;
}

bool Resolver::known(const char* list, const std::string& name, const std::string& pointer,
                     const char* what) {
  if (names_[list].count(name)) return true;
  std::vector<std::string> candidates(names_[list].begin(), names_[list].end());
  std::string msg = "unknown " + std::string(what) + " \"" + name + "\"";
  if (auto near = nearest_match(name, candidates)) {
    msg += "; did you mean \"" + *near + "\"?";
  } else if (!candidates.empty()) {
    msg += " (known: ";
    for (std::size_t i = 0; i < candidates.size(); ++i) msg += (i ? ", " : "") + candidates[i];
    msg += ")";
  } else {
    msg += " (/platform/" + std::string(list) + " is empty)";
  }
  issues_.add(pointer, msg);
  return false;
}

void Resolver::device(const std::string& name, const std::string& bus, const std::string& pointer,
                      std::uint64_t base, std::uint64_t size) {
  if (wraps(base, size)) {
    issues_.add(pointer + "/base", "\"" + name + "\" at " + models::hex(base) + " (" + std::to_string(size) +
                                       " bytes) ends past the last address of the 64-bit address space");
    return;
  }
  if (known("buses", bus, pointer + "/bus", "bus"))
    devices_.push_back(Device{name, bus, pointer, base, size});
}

const BusSpec* Resolver::bus(const ScenarioParams& p, const std::string& name) {
  for (const auto& b : p.buses)
    if (b.name == name) return &b;
  return nullptr;
}

bool Resolver::bus_known(const ScenarioParams& p, const std::string& bus, const std::string& pointer) {
  std::vector<std::string> names;
  for (const auto& b : p.buses) names.push_back(b.name);
  if (std::find(names.begin(), names.end(), bus) != names.end()) return true;
  issues_.add(pointer, not_one_of_message(bus, names));
  return false;
}

}  // namespace rsoc::platform::sections
