// Configuration unit: section workload: the applications, their copies and placements, and the background
// processes. Its schema and its resolution (platform/scenario_sections.h).
#include <algorithm>

#include "platform/scenario_sections.h"

namespace rsoc::platform::sections {

namespace {

// The element of workload.apps.
Schema app_schema() {
  Schema distribution = Schema::object({
      {"kind", Schema::enumeration(kBlockDistributionNames.names())
                   .doc("uniform in [min, max]; geometric with mean, "
                        "clipped to [min, max]")},
      {"min", Schema::integer().unit("blocks").min(1).max(1e9).default_value(1).doc("smallest block count")},
      {"max", Schema::integer().unit("blocks").min(1).max(1e9).doc("largest block count")},
      {"mean",
       Schema::number().unit("blocks").min(1).max(1e9).default_value(1.0).doc("geometric: mean block count")},
  });

  return Schema::object({
      {"name", name_field("application")},
      {"functionality", Schema::string().doc("what it asks the manager for: a built-in functionality (" +
                                             builtin_functionalities() + ") or one a custom core serves")},
      {"priority",
       Schema::integer().min(0).max(99).default_value(10).doc("process priority (higher runs first)")},
      {"blocks", Schema::integer().unit("blocks").min(1).max(1e9).nullable().default_value(nullptr).doc(
                     "blocks (of runtime.unit_bytes) per request (one of blocks, blocks_list, "
                     "blocks_distribution)")},
      {"blocks_list", Schema::array(Schema::integer().unit("blocks").min(1).max(1e9).doc("block count"))
                          .min_items(1)
                          .max_items(1000000)
                          .nullable()
                          .default_value(nullptr)
                          .doc("block counts of successive requests, cycled")},
      {"blocks_distribution", Schema::object(distribution.fields())
                                  .nullable()
                                  .default_value(nullptr)
                                  .doc("block counts drawn at random (seeded)")},
      {"requests", Schema::integer().min(1).max(1e9).default_value(1).doc(
                       "requests it issues (at most, with duration_ms)")},
      {"duration_ms",
       Schema::number().unit("ms").exclusive_min(0).max(9e9).nullable().default_value(nullptr).doc(
           "issue no request later than this after the first one (the request running then completes, "
           "as `openssl speed` counts operations for a fixed time; at most the longest run, "
           "limits.simulated_s); null: requests alone end it")},
      {"warmup_requests",
       Schema::integer().min(0).max(1e9).default_value(0).doc(
           "of its requests, the first ones left out of what is measured: duration_ms counts from the "
           "request after them, and openssl speed's rates (rsoc reproduce) leave them out, as "
           "`openssl speed` runs one operation before it starts its clock")},
      {"after",
       Schema::string().nullable().default_value(nullptr).doc(
           "name of an earlier entry of /workload/apps: start when it has completed its last request "
           "(with count > 1, copy k after copy k of that entry), then wait start_us; null: start at "
           "start_us")},
      {"arrival",
       Schema::enumeration(kArrivalNames.names())
           .default_value("closed")
           .doc("closed: next request think_us after the previous completes; poisson: open arrivals "
                "at rate_per_s, queued")},
      {"think_us", Schema::number().unit("us").min(0).max(1e12).default_value(0.0).doc("closed loop: pause")},
      {"rate_per_s",
       Schema::number().unit("1/s").min(1e-6).max(1e9).default_value(10.0).doc("poisson: mean arrival rate")},
      {"operation",
       Schema::enumeration(kOperationNames.names()).default_value("encrypt").doc("cipher direction")},
      {"prefetch_hint", Schema::string().nullable().default_value(nullptr).doc(
                            "runtime.prefetch.predictor hint: the functionality it declares it asks for "
                            "after each request (its "
                            "first request is its own functionality); null: its own")},
      {"key_hex", Schema::string().nullable().default_value(nullptr).doc(
                      "key as hex (16/8/24 bytes); null: derived from the seed")},
      {"cpu", cpu_ref()},
      {"hw_thread", hw_thread_ref()},
      {"start_us", Schema::number().unit("us").min(0).max(1e12).default_value(0.0).doc(
                       "time of its first request (with after: from the end of that application)")},
      {"count",
       Schema::integer().min(1).max(4096).default_value(1).doc(
           "identical applications this entry stands for: with count > 1 they are named <name>0, "
           "<name>1, ... and, with hw_thread, take the CPU's hardware threads in turn from hw_thread")},
  });
}

// The element of workload.background.
Schema background_schema() {
  return Schema::object({
      {"name", name_field("background process")},
      {"priority", Schema::integer().min(0).max(99).default_value(0).doc("process priority")},
      {"busy_us", Schema::number().unit("us").min(1).max(1e12).doc("CPU time per activation")},
      {"idle_us",
       Schema::number().unit("us").min(0).max(1e12).default_value(0.0).doc("sleep between activations")},
      {"cpu", cpu_ref()},
      {"hw_thread", hw_thread_ref()},
      {"start_us", Schema::number().unit("us").min(0).max(1e12).default_value(0.0).doc("first activation")},
  });
}

}  // namespace

// Section workload.
Schema workload_section() {
  return Schema::object({
      {"apps",
       Schema::array(app_schema())
           .max_items(4096)
           .default_value(nlohmann::json::array())
           .doc("applications issuing requests (at least one, unless an hsm firmware serves clients)")},
      {"hsm", Schema::object(hsm_schema().fields())
                  .nullable()
                  .default_value(nullptr)
                  .doc("an HSM firmware signing RSA for clients over a UART, with cores of the platform's "
                       "static slots as its core library hands them out (scenarios/hsm_rsa2048.md)")},
      {"background",
       Schema::array(background_schema())
           .max_items(4096)
           .default_value(nlohmann::json::array())
           .doc("processes that load the CPU while the applications run (they stop when the last "
                "application ends)")},
  });
}

const CpuSpec* Resolver::first_with_desrnd(const ScenarioParams& p) {
  for (const auto& c : p.cpus)
    if (c.desrnd) return &c;
  return nullptr;
}

void Resolver::placement_of(const ScenarioParams& p, const json& a, const std::string& ptr,
                            const std::string& unit, Placement* out) {
  std::optional<std::size_t> cpu;
  if (!a["cpu"].is_null()) {
    const std::string name = a["cpu"];
    if (!known("cpus", name, ptr + "/cpu", "CPU")) return;
    for (std::size_t i = 0; i < p.cpus.size(); ++i)
      if (p.cpus[i].name == name) cpu = i;
    if (!cpu) return;  // a CPU whose own entry has a problem
  }
  if (!a["hw_thread"].is_null()) {
    if (!cpu && p.cpus.size() > 1) {
      std::string names;
      for (const auto& c : p.cpus) names += (names.empty() ? "\"" : ", \"") + c.name + "\"";
      issues_.add(ptr + "/hw_thread", "a hardware thread of which CPU? The platform has " +
                                          std::to_string(p.cpus.size()) + " (" + names + "): name one in " +
                                          ptr + "/cpu, or leave hw_thread null");
      return;
    }
    if (!cpu) cpu = 0;
    const unsigned t = u(a["hw_thread"]);
    const unsigned threads = *cpu < p.cpus.size() ? p.cpus[*cpu].params.hw_threads : 1;
    if (t >= threads) {
      issues_.add(ptr + "/hw_thread", "hardware thread " + std::to_string(t) + " does not exist (the CPU" +
                                          (*cpu < p.cpus.size() ? " \"" + p.cpus[*cpu].name + "\"" : "") +
                                          " has " + std::to_string(threads) + ")");
      return;
    }
    out->hw_thread = t;
  }
  if (cpu) out->cpus = {*cpu};
  if (unit.empty()) return;
  // Software that uses a CPU extension runs only where the extension is.
  std::vector<std::size_t> with;
  for (std::size_t i = 0; i < p.cpus.size(); ++i)
    if (p.cpus[i].desrnd) with.push_back(i);
  if (with.empty()) return;  // reported at /software
  if (cpu) {
    if (!p.cpus[*cpu].desrnd) {
      std::string names;
      for (std::size_t i : with) names += (names.empty() ? "\"" : ", \"") + p.cpus[i].name + "\"";
      issues_.add(ptr + "/cpu", "CPU \"" + p.cpus[*cpu].name + "\" has no " + unit +
                                    " extension, which this application's software uses; expected a CPU "
                                    "that has it: " +
                                    names);
    }
  } else if (with.size() < p.cpus.size()) {
    out->cpus = with;
  }
}

void Resolver::block_counts(const json& a, const std::string& ptr, BlockCounts* b) {
  const int given =
      !a["blocks"].is_null() + !a["blocks_list"].is_null() + !a["blocks_distribution"].is_null();
  if (given != 1) {
    issues_.add(ptr, "give exactly one of blocks, blocks_list and blocks_distribution (got " +
                         std::to_string(given) + ")");
    return;
  }
  if (!a["blocks"].is_null()) {
    b->kind = BlockCounts::Kind::kFixed;
    b->list = {u64(a["blocks"])};
  } else if (!a["blocks_list"].is_null()) {
    b->kind = BlockCounts::Kind::kList;
    for (const auto& n : a["blocks_list"]) b->list.push_back(u64(n));
  } else {
    const json& d = a["blocks_distribution"];
    b->kind = kBlockDistributionNames.at(d["kind"].get<std::string>());
    b->min = u64(d["min"]);
    b->max = u64(d["max"]);
    b->mean = d["mean"].get<double>();
    if (b->min > b->max)
      issues_.add(ptr + "/blocks_distribution/max",
                  "max (" + std::to_string(b->max) + ") is below min (" + std::to_string(b->min) + ")");
  }
}

void Resolver::idle_cpus(const ScenarioParams& p) {
  if (p.cpus.size() < 2 || (p.apps.empty() && !p.hsm)) return;  // a missing workload is reported anyway
  std::vector<bool> used(p.cpus.size(), false);
  if (p.hsm) used[0] = true;  // the HSM firmware runs on the first CPU
  auto mark = [&used](const Placement& where) {
    if (where.cpus.empty()) used.assign(used.size(), true);
    for (std::size_t c : where.cpus) used[c] = true;
  };
  for (const auto& a : p.apps) mark(a.placement);
  for (const auto& b : p.background) mark(b.placement);
  for (std::size_t c = 0; c < p.cpus.size(); ++c)
    if (!used[c])
      issues_.add("/platform/cpus/" + std::to_string(c),
                  "no process can run on CPU \"" + p.cpus[c].name +
                      "\": every application and background process is pinned to other CPUs (their cpu); "
                      "leave cpu null on one of them, set it to \"" +
                      p.cpus[c].name + "\" on one, or remove this CPU");
}

void Resolver::apps(ScenarioParams& p) {
  const json& list = doc_["workload"]["apps"];
  WorkloadNames names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& a = list[i];
    const std::string ptr = "/workload/apps/" + std::to_string(i);
    AppSpec s;
    s.name = a["name"];
    if (!names.entries.insert(s.name).second)
      issues_.add(ptr + "/name", "duplicate name \"" + s.name + "\" in /workload/apps");
    const auto f = functionality_value(p, a["functionality"].get<std::string>(), ptr + "/functionality");
    if (!f) continue;
    s.functionality = *f;
    std::optional<runtime::Functionality> hint = s.functionality;
    if (!a["prefetch_hint"].is_null())
      hint = functionality_value(p, a["prefetch_hint"].get<std::string>(), ptr + "/prefetch_hint");
    app(p, a, ptr, i, s);
    implementable(p, s, ptr);
    add_copies(p, a, ptr, s, hint, names);
  }
  background(p, names);
}

void Resolver::app(ScenarioParams& p, const json& a, const std::string& ptr, std::size_t i, AppSpec& s) {
  const auto& fi = runtime::info(s.functionality);
  s.priority = static_cast<int>(a["priority"].get<std::int64_t>());
  block_counts(a, ptr, &s.blocks);
  {  // every byte of a request is really computed: its data must fit in memory, comfortably
    const bool listed =
        s.blocks.kind == BlockCounts::Kind::kFixed || s.blocks.kind == BlockCounts::Kind::kList;
    const std::uint64_t largest = !listed ? s.blocks.max
                                  : s.blocks.list.empty()
                                      ? 0  // no block count: reported above
                                      : *std::max_element(s.blocks.list.begin(), s.blocks.list.end());
    const std::uint64_t unit = runtime::unit_bytes(p.runtime.unit_bytes, s.functionality);
    if (largest > kMaxRequestBytes / unit)
      issues_.add(ptr, "a request of " + std::to_string(largest) + " blocks of " + std::to_string(unit) +
                           " bytes is " + std::to_string(largest * unit) + " bytes of data; at most " +
                           std::to_string(kMaxRequestBytes) + " (every byte is really computed)");
  }
  s.requests = u64(a["requests"]);
  s.poisson = kArrivalNames.at(a["arrival"].get<std::string>());
  s.think = sc_time(a["think_us"].get<double>(), sc_core::SC_US);
  s.rate_per_s = a["rate_per_s"].get<double>();
  s.encrypt = kOperationNames.at(a["operation"].get<std::string>());
  {
    const auto sw = p.runtime.software.find(s.functionality);
    placement_of(p, a, ptr,
                 sw != p.runtime.software.end() && sw->second.extension ? sw->second.extension->unit : "",
                 &s.placement);
  }
  s.start = sc_time(a["start_us"].get<double>(), sc_core::SC_US);
  if (!a["duration_ms"].is_null()) s.duration = sc_time(a["duration_ms"].get<double>(), sc_core::SC_MS);
  s.warmup = u64(a["warmup_requests"]);
  if (s.warmup >= s.requests)
    issues_.add(ptr + "/warmup_requests", std::to_string(s.warmup) + " of " + std::to_string(s.requests) +
                                              " requests would leave none measured; expected fewer than "
                                              "requests");
  if (a["key_hex"].is_null()) {
    s.key_seed = p.seed * 0x9E3779B97F4A7C15ull + i;  // drawn when the simulation is built (key_of)
  } else {
    auto key = parse_hex(a["key_hex"].get<std::string>());
    if (!key)
      issues_.add(ptr + "/key_hex", "expected " + std::to_string(2 * fi.key_bytes) + " hex digits (a " +
                                        std::to_string(fi.key_bytes) + "-byte " + fi.name + " key)");
    else if (const std::string problem = runtime::key_problem(s.functionality, *key); !problem.empty())
      issues_.add(ptr + "/key_hex", problem);
    else
      s.key = *key;
  }
}

void Resolver::implementable(const ScenarioParams& p, const AppSpec& s, const std::string& ptr) {
  const auto& fi = runtime::info(s.functionality);
  const bool has_core = std::any_of(p.cores.begin(), p.cores.end(), [&](const CoreSpec& c) {
    return runtime::implements(c.design(), s.functionality);
  });
  const std::string wanted_core = fi.core == models::CoreKind::kCustom
                                      ? std::string("a custom core serving ") + fi.name
                                      : std::string("a core of type \"") + models::to_string(fi.core) + "\"";
  const bool has_sw = p.runtime.software.count(s.functionality) > 0;
  if (p.runtime.policy == runtime::PolicyKind::kSoftware && !has_sw)
    issues_.add(ptr + "/functionality", std::string("the software policy needs /software/") + fi.name +
                                            ", which the scenario does not define");
  if (p.runtime.policy == runtime::PolicyKind::kHardware && !has_core)
    issues_.add(ptr + "/functionality",
                "the hardware policy needs " + wanted_core + " in /platform/cores for " + fi.name);
  if (!has_sw && !has_core)
    issues_.add(ptr + "/functionality", std::string("nothing implements ") + fi.name + ": define /software/" +
                                            fi.name + " or " + wanted_core);
  // A core that no slot can hold (too large for every reconfigurable slot, none configured at boot) runs
  // nothing: without software, every request would fail.
  const auto hostable = [&](const CoreSpec& c) {
    return std::any_of(p.slots.begin(), p.slots.end(), [&](const SlotSpec& slot) {
      return slot.core == c.name ||
             (slot.params.reconfigurable && c.bitstream_bytes <= slot.params.capacity_bytes);
    });
  };
  const bool has_hostable_core = std::any_of(p.cores.begin(), p.cores.end(), [&](const CoreSpec& c) {
    return runtime::implements(c.design(), s.functionality) && hostable(c);
  });
  if (!has_sw && has_core && !has_hostable_core)
    issues_.add(ptr + "/functionality", std::string("nothing can run ") + fi.name + ": /software/" + fi.name +
                                            " is not defined and no slot in /platform/slots can hold " +
                                            wanted_core);
  if (p.runtime.policy == runtime::PolicyKind::kThreshold && !has_sw &&
      !p.runtime.thresholds.count(s.functionality))
    issues_.add(ptr + "/functionality", std::string("the threshold policy needs /runtime/thresholds/") +
                                            fi.name + " or /software/" + fi.name + " for " + fi.name);
}

void Resolver::add_copies(ScenarioParams& p, const json& a, const std::string& ptr, const AppSpec& s,
                          const std::optional<runtime::Functionality>& hint, WorkloadNames& names) {
  const std::uint64_t count = u64(a["count"]);
  std::optional<std::size_t> first_followed;
  if (!a["after"].is_null()) {
    const std::string after = a["after"];
    const auto e = names.counted.find(after);
    if (e == names.counted.end()) {
      std::string earlier;
      for (const auto& [n, at] : names.counted) earlier += (earlier.empty() ? "\"" : ", \"") + n + "\"";
      issues_.add(ptr + "/after", "no earlier application \"" + after +
                                      "\"; expected one of the entries before it" +
                                      (earlier.empty() ? " (there are none)" : ": " + earlier));
    } else if (e->second.second != count) {
      issues_.add(ptr + "/after", "\"" + after + "\" has count " + std::to_string(e->second.second) +
                                      ", this entry " + std::to_string(count) +
                                      "; expected the same count (copy k follows copy k)");
    } else {
      first_followed = e->second.first;
    }
  }
  names.counted[s.name] = {p.apps.size(), count};
  const std::size_t cpu = s.placement.cpus.empty() ? 0 : s.placement.cpus.front();
  const unsigned threads = cpu < p.cpus.size() ? p.cpus[cpu].params.hw_threads : 1;
  if (p.apps.size() + count > kMaxApplications) {
    issues_.add(ptr + "/count", "the workload would have " + std::to_string(p.apps.size() + count) +
                                    " applications; at most " + std::to_string(kMaxApplications));
    return;
  }
  for (std::uint64_t k = 0; k < count; ++k) {
    AppSpec copy = s;
    if (count > 1) {
      copy.name += std::to_string(k);
      if (s.placement.hw_thread)
        copy.placement.hw_thread = static_cast<unsigned>((*s.placement.hw_thread + k) % threads);
      if (names.entries.count(copy.name) || !names.final_names.insert(copy.name).second)
        issues_.add(ptr + "/name", "application name \"" + copy.name + "\" (copy " + std::to_string(k) +
                                       " of \"" + s.name + "\") is taken by another application");
    } else if (!names.final_names.insert(copy.name).second && !names.expanded.count(copy.name)) {
      // a plain duplicate: reported above
    } else if (names.expanded.count(copy.name)) {
      issues_.add(ptr + "/name",
                  "application name \"" + copy.name + "\" is taken by a copy of another application");
    }
    if (count > 1) names.expanded.insert(copy.name);
    if (first_followed) copy.after = *first_followed + k;
    if (hint) p.runtime.prefetch.hints.insert_or_assign(copy.name, *hint);
    p.runtime.prefetch.first.insert_or_assign(copy.name, copy.functionality);
    p.apps.push_back(copy);
  }
}

void Resolver::background(ScenarioParams& p, WorkloadNames& names) {
  const json& bg = doc_["workload"]["background"];
  for (std::size_t i = 0; i < bg.size(); ++i) {
    const json& b = bg[i];
    BackgroundSpec s;
    s.name = b["name"];
    if (!names.entries.insert(s.name).second || names.expanded.count(s.name))
      issues_.add("/workload/background/" + std::to_string(i) + "/name",
                  "duplicate name \"" + s.name + "\" in /workload (apps and background share names)");
    s.priority = static_cast<int>(b["priority"].get<std::int64_t>());
    s.busy = sc_time(b["busy_us"].get<double>(), sc_core::SC_US);
    s.idle = sc_time(b["idle_us"].get<double>(), sc_core::SC_US);
    s.start = sc_time(b["start_us"].get<double>(), sc_core::SC_US);
    placement_of(p, b, "/workload/background/" + std::to_string(i), "", &s.placement);
    p.background.push_back(s);
  }
}

}  // namespace rsoc::platform::sections
