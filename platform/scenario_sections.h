#pragma once
// The configuration units of a scenario file, one per section: hardware (section platform without its cores),
// cores (platform.cores), runtime (sections runtime and software), workload, hsm (workload.hsm), faults,
// energy, outputs (sections outputs and limits). Each unit's file (platform/section_<unit>.cpp) holds the
// section's schema (what scenario_schema() is built of: keys, types, units, defaults, ranges, docs) and its
// resolution (the Resolver's steps for the section: names, cross-field checks, conversion to Params). What
// they share is here: the Resolver, one context for the issues, the names and the devices of a scenario, and
// the helpers of the schema and of the resolution. platform/scenario_schema.cpp composes the schema,
// platform/scenario.cpp runs the resolution (Resolver::run).

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/address_map.h"
#include "platform/scenario.h"
#include "platform/scenario_error.h"
#include "platform/schema.h"
#include "runtime/functionality.h"

namespace rsoc::platform::sections {

using nlohmann::json;
using sc_core::sc_time;

// ---- Schema: the sections' schemas, and the helpers they share.

Schema platform_section();
Schema core_schema();
Schema software_cost_schema();
Schema runtime_section();
Schema workload_section();
Schema hsm_schema();
Schema outputs_section();
Schema limits_section();
Schema faults_section();
Schema energy_section();

inline Schema name_field(const char* what) {
  return Schema::string().pattern_identifier().doc(std::string("unique name of the ") + what);
}

// From 1 kHz: a period must be a time the simulation holds (a clock of 1e-12 MHz has a period past 2^57 ps).
inline Schema clock(double mhz) {
  return Schema::number().unit("MHz").min(0.001).max(100000).default_value(mhz);
}

inline Schema cycles(long long def, long long max = 1000000000) {
  return Schema::integer().unit("cycles").min(0).max(static_cast<double>(max)).default_value(def);
}

inline Schema bus_ref(const char* what) {
  return Schema::string().pattern_identifier().doc(std::string("name of the bus ") + what);
}

// A process's affinity (scenarios/README.md, "Several CPUs").
inline Schema cpu_ref() {
  return Schema::string().pattern_identifier().nullable().default_value(nullptr).doc(
      "name of the CPU (platform.cpus) it runs on; null: any CPU, wherever a hardware thread is free "
      "(software "
      "that uses a CPU extension: any CPU that has it)");
}

inline Schema hw_thread_ref() {
  return Schema::integer().min(0).max(63).nullable().default_value(nullptr).doc(
      "hardware thread it is pinned to, of cpu (or of the only CPU); null: any thread of its CPU");
}

// A mode's names after "none" (the feature off).
inline std::vector<std::string> with_none(std::vector<std::string> names) {
  names.insert(names.begin(), "none");
  return names;
}

// The built-in functionalities, listed.
inline std::string builtin_functionalities() {
  std::string builtins;
  for (const auto& n : runtime::functionality_names()) builtins += (builtins.empty() ? "" : ", ") + n;
  return builtins;
}

// What a key by functionality may name.
inline std::string by_functionality() {
  return "built-in: " + builtin_functionalities() + "; or one a custom core serves";
}

// ---- Resolution: the helpers of every section's resolution, and the Resolver.

// Applications a workload may expand to (its entries times their counts): each is a process with its own
// state; far more would only exhaust memory.
inline constexpr std::uint64_t kMaxApplications = 4096;

// Whether [base, base + size) lies inside [outer, outer + outer_size), without computing an end that wraps
// past 2^64.
inline bool inside(std::uint64_t base, std::uint64_t size, std::uint64_t outer, std::uint64_t outer_size) {
  return base >= outer && size <= outer_size && base - outer <= outer_size - size;
}
// Whether [base, base + size) ends past the last address of the 64-bit space.
inline bool wraps(std::uint64_t base, std::uint64_t size) {
  return size > 0 && base > ~std::uint64_t{0} - (size - 1);
}
// "[base, end)", or "[base, beyond 2^64)" when the end does not fit in 64 bits.
// Where rsoc's built programs are (scenarios/software): $RSOC_SOFTWARE_DIR, or the build's folder.
std::string software_dir();

// "a, b, c".
inline std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

inline std::string span(std::uint64_t base, std::uint64_t size) {
  return "[" + models::hex(base) + ", " +
         (wraps(base, size) ? std::string("beyond 2^64") : models::hex(base + size)) + ")";
}
// Data of one request (its blocks times the functionality's unit): every byte is really encrypted, held in
// memory with its result and its reference.
inline constexpr std::uint64_t kMaxRequestBytes = std::uint64_t{256} << 20;

// The longest duration simulated time holds in one piece (models/kernel_time.h periods()): 2^57 ps.
inline constexpr double kLongestPs = 144115188075855872.0;

inline std::string approx(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", value);
  return buf;
}
inline unsigned u(const json& j) {
  return static_cast<unsigned>(j.get<std::int64_t>());
}
inline std::uint64_t u64(const json& j) {
  return j.get<std::uint64_t>();
}
inline std::uint64_t kib_bytes(const json& j) {  // KiB to bytes, rounded down to whole 32-bit words
  return static_cast<std::uint64_t>(std::floor(j.get<double>() * 1024.0 / 4.0)) * 4;
}

inline std::optional<std::vector<std::uint8_t>> parse_hex(const std::string& s) {
  if (s.size() % 2 != 0) return std::nullopt;
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < s.size(); i += 2) {
    auto nib = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    const int hi = nib(s[i]), lo = nib(s[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
  }
  return out;
}

// Cross-field checks and conversion of a schema-valid document, one section after another (run()); each
// section's steps are defined in its unit's file, what they share in platform/scenario_sections.cpp.
class Resolver {
 public:
  // `file`: the scenario's file, or its name when it has none; `folder`: where its relative paths (programs,
  // RTL sources) start (empty: the working folder).
  Resolver(const json& doc, IssueList& issues, std::string file = {}, std::string folder = {})
      : doc_(doc), issues_(issues), file_(std::move(file)), folder_(std::move(folder)) {}

  ScenarioParams run();

 private:
  std::set<std::string> expanded_slots_, expanded_dmas_;        // names made by a slot's or an engine's count
  std::map<std::string, std::vector<std::string>> dma_groups_;  // a DMA entry's name -> the engines it made
  std::map<std::string, std::vector<std::string>>
      slot_groups_;  // a slot entry's name (with a count) -> its slots
  std::map<std::size_t, runtime::FunctionalityCatalog::Custom> custom_of_;  // core index -> its functionality
  std::vector<std::string> stream_only_cores_;  // pointers of the custom cores without PIO banks

  // ---- What every section shares (platform/scenario_sections.cpp): clocks, time windows, names,
  // functionalities, devices and buses.
  struct Device {
    std::string name, bus, pointer;
    std::uint64_t base, size;
  };
  // The period of the clock `mhz` at `pointer`. A clock so slow that one cycle would not fit in simulated
  // time in one piece is refused (its period would wrap around).
  sc_time period_of(const json& mhz, const std::string& pointer);
  // A window of simulated time (null: none); its end must come after its start.
  std::optional<TimeWindow> window(const json& w, const std::string& ptr);
  void collect_names(const json& pl);
  // The functionality `name`, a key at `pointer` of a map by functionality, or an issue.
  std::optional<runtime::Functionality> functionality_key(const ScenarioParams& p, const std::string& name,
                                                          const std::string& pointer);
  // The functionality `name`, a value at `pointer`, or an issue.
  std::optional<runtime::Functionality> functionality_value(const ScenarioParams& p, const std::string& name,
                                                            const std::string& pointer);
  bool known(const char* list, const std::string& name, const std::string& pointer, const char* what);
  void device(const std::string& name, const std::string& bus, const std::string& pointer, std::uint64_t base,
              std::uint64_t size);
  static const BusSpec* bus(const ScenarioParams& p, const std::string& name);
  // Whether `bus` names a bus of the platform (else an issue at `pointer`).
  bool bus_known(const ScenarioParams& p, const std::string& bus, const std::string& pointer);

  // ---- Hardware (platform/section_hardware.cpp).
  // The parameters of an FMC bus clocked at `clock` (its CPU side is set with the CPUs).
  static models::FmcBusParams fmc_params(const json& f, const sc_core::sc_time& clock);
  void buses(const json& pl, ScenarioParams& p);
  void cpus(const json& pl, ScenarioParams& p);
  // The instruction-set model of CPU `c` at `ptr` (model, timing_profile, local_memory) into `s`.
  void iss(const json& c, const std::string& ptr, CpuSpec& s);
  void uarts(const json& pl, ScenarioParams& p);
  void memories(const json& pl, ScenarioParams& p);
  void dmas(const json& pl, ScenarioParams& p);
  void slots(const json& pl, ScenarioParams& p);
  void config_port(const json& pl, ScenarioParams& p);
  // Devices on the same bus must not overlap; devices on a bridged bus must lie inside its window.
  void address_maps(const ScenarioParams& p);

  // ---- Cores (platform/section_cores.cpp).
  void cores(const json& pl, ScenarioParams& p);
  // The parameters of its own that core `c`'s kind takes (models/core_kinds.h), into `params`.
  static void kind_params(const json& c, models::CoreParams& params);
  // The custom description of core `c` at `ptr` (required for a custom core, refused for the others); noted
  // in custom_of_ and in the core's parameters.
  void custom_core(const json& c, const std::string& ptr, std::size_t index, CoreSpec& s);
  // platform.cores[].rtl: the design verilated and loaded (platform/rtl_build.h) into s.params.rtl.
  void rtl_core(const json& c, const std::string& ptr, CoreSpec& s);
  void check_faults(const FaultSpec& spec, const ScenarioParams& p);

  // ---- Runtime and software (platform/section_runtime.cpp).
  void runtime(ScenarioParams& p);
  void data_path(const json& d, ScenarioParams& p);
  // runtime.unit_bytes: whole blocks of their functionality.
  void unit_bytes(ScenarioParams& p, const json& units);
  void contexts(ScenarioParams& p, const json& ctx);
  void driver(ScenarioParams& p, const json& d);
  void scheduler(ScenarioParams& p, const json& s);
  // The software implementations (section software), by functionality.
  void software(ScenarioParams& p);
  // software.<f>.scaled_from: <f>'s cycles per block from those of the functionality named, in proportion to
  // their big-number work (runtime/rsa_work.h).
  void scaled_software(ScenarioParams& p);
  // software.<f>.program at `ptr`: the ELF and its entry function, and the cycles of one and two blocks on
  // the first CPU with an instruction-set model as the estimate's cost (into `sw`).
  void program(const ScenarioParams& p, runtime::Functionality f, const json& prog, const std::string& ptr,
               runtime::SoftwareCost& sw);
  // The first CPU with an instruction-set model; none: an issue at `ptr` saying that `what` needs one.
  const CpuSpec* first_iss_cpu(const ScenarioParams& p, const std::string& ptr, const std::string& what);
  // What a program's measurement on `cpu` that threw `e` says at `ptr`.
  static std::string measured_on(const CpuSpec& cpu, const std::string& ptr, const std::exception& e);
  // The program at `ptr` (its ELF loaded, its entry found, its limit; reuse off); null with an issue.
  std::shared_ptr<runtime::SoftwareProgram> program_code(const json& prog, const std::string& ptr);
  // runtime.driver.programs: drivers that are code, each measured on the first CPU with an instruction-set
  // model (p.runtime.driver_programs).
  void driver_programs(ScenarioParams& p, const json& programs);
  // Where the program file `elf` is: a path relative to the scenario's folder or absolute, or a file name
  // among rsoc's built programs; "" (with an issue at `ptr`) when neither has it.
  std::string program_file(const std::string& elf, const std::string& ptr);

  // ---- Workload (platform/section_workload.cpp).
  // The names of the workload's applications and background processes.
  struct WorkloadNames {
    std::set<std::string> entries;                // the entries' names
    std::set<std::string> final_names, expanded;  // every application's, and those made by a count
    std::map<std::string, std::pair<std::size_t, std::uint64_t>> counted;  // entry -> first copy, count
  };
  void apps(ScenarioParams& p);
  // The settings of application `a` (entry `i` at `ptr`) of functionality s.functionality, into `s`.
  void app(ScenarioParams& p, const json& a, const std::string& ptr, std::size_t i, AppSpec& s);
  // Whether something can run application `s` (at `ptr`) under the scenario's policy.
  void implementable(const ScenarioParams& p, const AppSpec& s, const std::string& ptr);
  // `count` identical applications (as `openssl speed -multi N` runs N processes): <name>0, <name>1, ...
  // with hw_thread, on the CPU's hardware threads in turn from hw_thread.
  void add_copies(ScenarioParams& p, const json& a, const std::string& ptr, const AppSpec& s,
                  const std::optional<runtime::Functionality>& hint, WorkloadNames& names);
  void background(ScenarioParams& p, WorkloadNames& names);
  static const CpuSpec* first_with_desrnd(const ScenarioParams& p);
  // The CPUs a process may run on (`cpu` and `hw_thread` of the entry at `ptr`), narrowed to those with the
  // extension unit its software uses (`unit`, when not empty).
  void placement_of(const ScenarioParams& p, const json& a, const std::string& ptr, const std::string& unit,
                    Placement* out);
  void block_counts(const json& a, const std::string& ptr, BlockCounts* b);
  // Every CPU runs something: a CPU no process may run on is a mistake (processes pinned elsewhere).
  void idle_cpus(const ScenarioParams& p);

  // ---- HSM (platform/section_hsm.cpp).
  void hsm(ScenarioParams& p);
  // The firmware's step costs (workload.hsm.cycles at `ptr`/cycles), into hp.cycles.
  void hsm_costs(const json& c, runtime::HsmParams& hp, const std::string& ptr);
  // The HSM's key (its size and record, the cores it needs, its wrapped copy in the keystore), into `s`.
  void hsm_key(const ScenarioParams& p, const json& h, const std::string& ptr, HsmSpec& s);
  // Static slots of the platform holding a core of `kind`, and the narrowest such core's operand width.
  std::pair<std::size_t, unsigned> static_cores(const ScenarioParams& p, models::CoreKind kind) const;

  // ---- Faults (platform/section_faults.cpp).
  void faults(ScenarioParams& p);

  // ---- Energy (platform/section_energy.cpp).
  void energy(ScenarioParams& p);
  // Every entry of the map at /energy/<list> names one of /platform/<list>, or an entry with a count (all its
  // instances: a sweep of the count keeps the section valid), and every one of those has one; take(instance,
  // its values, their pointer) for each.
  template <class Take>
  void energy_entries(const json& e, const char* list, const char* what, const Take& take);

  // ---- Outputs and limits (platform/section_outputs.cpp).
  // Sections outputs and limits.
  void outputs(ScenarioParams& p);

  const json& doc_;
  IssueList& issues_;
  std::string file_;
  std::string folder_;
  std::map<std::string, std::set<std::string>> names_;
  std::vector<Device> devices_;
};

}  // namespace rsoc::platform::sections
