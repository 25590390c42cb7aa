#include "platform/scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "models/address_map.h"
#include "models/core_kinds.h"
#include "models/crypto/block_function.h"
#include "platform/digest.h"
#include "platform/json_file.h"
#include "platform/scenario_schema.h"
#include "platform/schema.h"
#include "runtime/rsa_work.h"

namespace rsoc::platform {

using nlohmann::json;
using sc_core::sc_time;

namespace {

// Applications a workload may expand to (its entries times their counts): each is a process with its own
// state; far more would only exhaust memory.
constexpr std::uint64_t kMaxApplications = 4096;

// Whether [base, base + size) lies inside [outer, outer + outer_size), without computing an end that wraps
// past 2^64.
bool inside(std::uint64_t base, std::uint64_t size, std::uint64_t outer, std::uint64_t outer_size) {
  return base >= outer && size <= outer_size && base - outer <= outer_size - size;
}
// Whether [base, base + size) ends past the last address of the 64-bit space.
bool wraps(std::uint64_t base, std::uint64_t size) {
  return size > 0 && base > ~std::uint64_t{0} - (size - 1);
}
// "[base, end)", or "[base, beyond 2^64)" when the end does not fit in 64 bits.
std::string span(std::uint64_t base, std::uint64_t size) {
  return "[" + models::hex(base) + ", " +
         (wraps(base, size) ? std::string("beyond 2^64") : models::hex(base + size)) + ")";
}
// Data of one request (its blocks times the functionality's unit): every byte is really encrypted, held in
// memory with its result and its reference.
constexpr std::uint64_t kMaxRequestBytes = std::uint64_t{256} << 20;

// The longest duration simulated time holds in one piece (models/kernel_time.h periods()): 2^57 ps.
constexpr double kLongestPs = 144115188075855872.0;

std::string approx(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", value);
  return buf;
}
unsigned u(const json& j) {
  return static_cast<unsigned>(j.get<std::int64_t>());
}
std::uint64_t u64(const json& j) {
  return j.get<std::uint64_t>();
}
std::uint64_t kib_bytes(const json& j) {  // KiB to bytes, rounded down to whole 32-bit words
  return static_cast<std::uint64_t>(std::floor(j.get<double>() * 1024.0 / 4.0)) * 4;
}

std::optional<std::vector<std::uint8_t>> parse_hex(const std::string& s) {
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

// Cross-field checks and conversion of a schema-valid document.
class Resolver {
 public:
  Resolver(const json& doc, IssueList& issues) : doc_(doc), issues_(issues) {}

  ScenarioParams run() {
    ScenarioParams p;
    p.seed = doc_["seed"].get<std::uint64_t>();
    const json& pl = doc_["platform"];
    p.quantum = sc_time(pl["quantum_ns"].get<double>(), sc_core::SC_NS);
    collect_names(pl);
    buses(pl, p);
    cpus(pl, p);
    memories(pl, p);
    dmas(pl, p);
    cores(pl, p);
    slots(pl, p);
    config_port(pl, p);
    uarts(pl, p);
    address_maps(p);
    runtime(p);
    apps(p);
    hsm(p);
    faults(p);
    energy(p);
    idle_cpus(p);
    if (doc_["workload"]["apps"].empty() && !p.hsm)
      issues_.add("/workload/apps", "the workload needs at least one application (or an hsm firmware)");
    p.requests_csv = doc_["outputs"]["requests_csv"].get<bool>();
    p.stats_json = doc_["outputs"]["stats_json"].get<bool>();
    const json& trace = doc_["outputs"]["trace"];
    p.trace = window(trace, "/outputs/trace");
    if (p.trace) p.trace_bus_merge_gap = sc_time(trace["bus_merge_gap_us"].get<double>(), sc_core::SC_US);
    p.vcd = window(doc_["outputs"]["vcd"], "/outputs/vcd");
    p.breakdown_csv = doc_["outputs"]["breakdown_csv"].get<bool>();
    p.limits.simulated = sc_time(doc_["limits"]["simulated_s"].get<double>(), sc_core::SC_SEC);
    p.limits.events = u64(doc_["limits"]["events"]);
    return p;
  }

 private:
  std::set<std::string> expanded_slots_, expanded_dmas_;        // names made by a slot's or an engine's count
  std::map<std::string, std::vector<std::string>> dma_groups_;  // a DMA entry's name -> the engines it made
  std::map<std::string, std::vector<std::string>>
      slot_groups_;  // a slot entry's name (with a count) -> its slots
  std::map<std::size_t, runtime::FunctionalityCatalog::Custom> custom_of_;  // core index -> its functionality
  std::vector<std::string> stream_only_cores_;  // pointers of the custom cores without PIO banks

  struct Device {
    std::string name, bus, pointer;
    std::uint64_t base, size;
  };

  // The period of the clock `mhz` at `pointer`. A clock so slow that one cycle would not fit in simulated
  // time in one piece is refused (its period would wrap around).
  sc_time period_of(const json& mhz, const std::string& pointer) {
    const double ps = 1e6 / mhz.get<double>();
    if (!(ps < kLongestPs)) {
      issues_.add(pointer, mhz.dump() + " MHz is too slow: one cycle would last " + approx(ps) +
                               " ps; simulated time holds at most 2^57 ps (about 40 hours) in one piece");
      return sc_time(1, sc_core::SC_PS);
    }
    return sc_time(1.0 / (mhz.get<double>() * 1e6), sc_core::SC_SEC);
  }

  // A window of simulated time (null: none); its end must come after its start.
  std::optional<TimeWindow> window(const json& w, const std::string& ptr) {
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

  void collect_names(const json& pl) {
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

  // The functionality `name`, a key at `pointer` of a map by functionality, or an issue.
  std::optional<runtime::Functionality> functionality_key(const ScenarioParams& p, const std::string& name,
                                                          const std::string& pointer) {
    const auto f = p.functionalities->find(name);
    if (!f) issues_.add(pointer, unknown_key_message(name, p.functionalities->names()));
    return f;
  }
  // The functionality `name`, a value at `pointer`, or an issue.
  std::optional<runtime::Functionality> functionality_value(const ScenarioParams& p, const std::string& name,
                                                            const std::string& pointer) {
    const auto f = p.functionalities->find(name);
    if (!f) issues_.add(pointer, not_one_of_message(name, p.functionalities->names()));
    return f;
  }

  bool known(const char* list, const std::string& name, const std::string& pointer, const char* what) {
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

  void device(const std::string& name, const std::string& bus, const std::string& pointer, std::uint64_t base,
              std::uint64_t size) {
    if (wraps(base, size)) {
      issues_.add(pointer + "/base", "\"" + name + "\" at " + models::hex(base) + " (" +
                                         std::to_string(size) +
                                         " bytes) ends past the last address of the 64-bit address space");
      return;
    }
    if (known("buses", bus, pointer + "/bus", "bus"))
      devices_.push_back(Device{name, bus, pointer, base, size});
  }

  // The parameters of an FMC bus clocked at `clock` (its CPU side is set with the CPUs).
  static models::FmcBusParams fmc_params(const json& f, const sc_core::sc_time& clock) {
    models::FmcBusParams m;
    m.clock_period = clock;
    m.mode = models::kFmcModeNames.at(f["mode"].get<std::string>());
    m.addr_setup_cycles = u(f["addr_setup_cycles"]);
    m.data_cycles = u(f["data_cycles"]);
    m.hold_cycles = u(f["hold_cycles"]);
    m.sync_latency_cycles = u(f["sync_latency_cycles"]);
    m.nwait = models::kFmcNwaitNames.at(f["nwait"].get<std::string>());
    m.poll_cycles = u(f["poll_cycles"]);
    m.max_polls = u(f["max_polls"]);
    m.double_read = f["double_read"].get<bool>();
    m.byteswap_cycles = u(f["byteswap_cycles"]);
    m.write_software_cycles = u(f["write_software_cycles"]);
    m.read_software_cycles = u(f["read_software_cycles"]);
    m.timing = models::kFmcTimingNames.at(f["timing"].get<std::string>());
    return m;
  }

  void buses(const json& pl, ScenarioParams& p) {
    for (std::size_t i = 0; i < pl["buses"].size(); ++i) {
      const json& b = pl["buses"][i];
      const std::string ptr = "/platform/buses/" + std::to_string(i);
      BusSpec s;
      s.name = b["name"];
      const sc_core::sc_time clock = period_of(b["clock_mhz"], ptr + "/clock_mhz");
      if (kBusKindNames.at(b["kind"].get<std::string>())) {
        s.params = fmc_params(b["fmc"], clock);
      } else {
        models::OnChipBusParams o;
        o.clock_period = clock;
        o.latency_cycles = u(b["latency_cycles"]);
        o.cycles_per_word = u(b["cycles_per_word"]);
        s.params = o;
      }
      if (!b["window"].is_null()) {
        const json& w = b["window"];
        s.parent = w["parent"];
        s.window_base = u64(w["base"]);
        s.window_bytes = u64(w["size_kib"]) * 1024;
        if (s.parent == s.name) {
          issues_.add(ptr + "/window/parent", "a bus cannot hang from itself");
        } else if (known("buses", s.parent, ptr + "/window/parent", "bus")) {
          device(s.name, s.parent, ptr + "/window", s.window_base, s.window_bytes);
        }
      }
      p.buses.push_back(s);
    }
    // Bridges must form a tree: no cycles.
    for (std::size_t i = 0; i < p.buses.size(); ++i) {
      std::set<std::string> seen;
      for (std::string at = p.buses[i].name; !at.empty();) {
        if (!seen.insert(at).second) {
          issues_.add("/platform/buses/" + std::to_string(i) + "/window/parent", "bus windows form a cycle");
          break;
        }
        const BusSpec* next = bus(p, at);
        at = next ? next->parent : std::string();
      }
    }
  }

  static const BusSpec* bus(const ScenarioParams& p, const std::string& name) {
    for (const auto& b : p.buses)
      if (b.name == name) return &b;
    return nullptr;
  }

  void cpus(const json& pl, ScenarioParams& p) {
    for (std::size_t i = 0; i < pl["cpus"].size(); ++i) {
      const json& c = pl["cpus"][i];
      const std::string ptr = "/platform/cpus/" + std::to_string(i);
      CpuSpec s;
      s.name = c["name"];
      s.bus = c["bus"];
      s.params.clock_period = period_of(c["clock_mhz"], ptr + "/clock_mhz");
      s.params.hw_threads = u(c["hw_threads"]);
      s.params.mmio_cycles = u(c["mmio_cycles"]);
      s.params.stream_chunk_words = u(c["stream_chunk_words"]);
      s.params.smt_throughput = c["smt_throughput"].get<double>();
      if (const json& x = c["extensions"]["desrnd"]; !x.is_null())
        s.desrnd = models::DesrndParams{u(x["rounds_per_instruction"]), u(x["cycles_per_instruction"])};
      if (known("buses", s.bus, ptr + "/bus", "bus")) {
        const BusSpec* b = bus(p, s.bus);
        if (b && !b->parent.empty())
          issues_.add(ptr + "/bus", "the CPU must be bound to a root bus, but \"" + s.bus +
                                        "\" hangs from \"" + b->parent + "\" (bind the CPU to \"" +
                                        b->parent + "\")");
      }
      p.cpus.push_back(s);
    }
    // FMC polling and byte swapping are CPU software: they cost cycles of the first CPU's clock, which every
    // CPU of a platform with an FMC bus must share.
    if (!p.cpus.empty())
      for (auto& b : p.buses)
        if (auto* f = std::get_if<models::FmcBusParams>(&b.params))
          f->cpu_clock_period = p.cpus.front().params.clock_period;
    const auto fmc = std::find_if(p.buses.begin(), p.buses.end(), [](const BusSpec& b) { return b.fmc(); });
    for (std::size_t i = 1; i < p.cpus.size() && fmc != p.buses.end(); ++i)
      if (p.cpus[i].params.clock_period != p.cpus.front().params.clock_period)
        issues_.add("/platform/cpus/" + std::to_string(i) + "/clock_mhz",
                    "the FMC bus \"" + fmc->name +
                        "\" costs its NWAIT polls and byte swaps in cycles of one CPU "
                        "clock: expected the clock of \"" +
                        p.cpus.front().name + "\" (" + pl["cpus"][0]["clock_mhz"].dump() + " MHz)");
    // Software that uses the desrnd unit is costed once: every CPU that has one has the same.
    const CpuSpec* desrnd = first_with_desrnd(p);
    for (std::size_t i = 0; i < p.cpus.size(); ++i) {
      const auto& d = p.cpus[i].desrnd;
      if (d && desrnd &&
          (d->rounds_per_instruction != desrnd->desrnd->rounds_per_instruction ||
           d->cycles_per_instruction != desrnd->desrnd->cycles_per_instruction))
        issues_.add("/platform/cpus/" + std::to_string(i) + "/extensions/desrnd",
                    "differs from the desrnd unit of \"" + desrnd->name +
                        "\": software that uses it is costed once, so every CPU's unit must be the same");
    }
  }

  void uarts(const json& pl, ScenarioParams& p) {
    for (std::size_t i = 0; i < pl["uarts"].size(); ++i) {
      const json& u_ = pl["uarts"][i];
      const double ps = 1e12 * u_["bits_per_byte"].get<double>() / u_["baud"].get<double>();
      if (!(ps < kLongestPs))
        issues_.add("/platform/uarts/" + std::to_string(i) + "/baud",
                    u_["baud"].dump() + " baud is too slow: a byte of " + u_["bits_per_byte"].dump() +
                        " bits would last " + approx(ps) +
                        " ps; simulated time holds at most 2^57 ps (about 40 hours) in one piece");
      p.uarts.push_back(
          UartSpec{u_["name"], models::UartParams{u_["baud"].get<double>(), u(u_["bits_per_byte"])}});
    }
  }

  void memories(const json& pl, ScenarioParams& p) {
    for (std::size_t i = 0; i < pl["memories"].size(); ++i) {
      const json& m = pl["memories"][i];
      const std::string ptr = "/platform/memories/" + std::to_string(i);
      MemorySpec s;
      s.name = m["name"];
      s.bus = m["bus"];
      s.base = u64(m["base"]);
      s.params.size_bytes = u64(m["size_kib"]) * 1024;
      s.params.clock_period = period_of(m["clock_mhz"], ptr + "/clock_mhz");
      s.params.latency_cycles = u(m["latency_cycles"]);
      s.params.cycles_per_word = u(m["cycles_per_word"]);
      device(s.name, s.bus, ptr, s.base, s.params.size_bytes);
      p.memories.push_back(s);
    }
  }

  void dmas(const json& pl, ScenarioParams& p) {
    for (std::size_t i = 0; i < pl["dmas"].size(); ++i) {
      const json& d = pl["dmas"][i];
      DmaSpec s;
      s.name = d["name"];
      s.bus = d["bus"];
      s.base = u64(d["base"]);
      s.params.clock_period = period_of(d["clock_mhz"], "/platform/dmas/" + std::to_string(i) + "/clock_mhz");
      s.params.cycles_per_word = u(d["cycles_per_word"]);
      s.params.setup_cycles = u(d["setup_cycles"]);
      s.params.chunk_words = u(d["chunk_words"]);
      // `count` identical engines (one per co-processor): <name>0, <name>1, ... with consecutive registers.
      const std::uint64_t count = u64(d["count"]);
      if (count > 1) names_["dmas"].erase(s.name);
      // Their registers must all lie below 2^64: the bases of later copies would wrap around to 0.
      const bool span_wraps = count > 1 && wraps(s.base, count * models::dma_reg::kSize);
      if (span_wraps)
        issues_.add("/platform/dmas/" + std::to_string(i) + "/base",
                    "the " + std::to_string(count) + " engines of \"" + s.name + "\" from " +
                        models::hex(s.base) + " (" + std::to_string(count) + " x " +
                        std::to_string(models::dma_reg::kSize) +
                        " bytes) end past the last address of the 64-bit address space");
      for (std::uint64_t k = 0; k < count; ++k) {
        DmaSpec copy = s;
        if (count > 1) {
          copy.name += std::to_string(k);
          copy.base += k * models::dma_reg::kSize;
          names_["dmas"].insert(copy.name);
        }
        // Clashes between plain names are reported with the other duplicates (collect_names).
        const bool clash = std::any_of(p.dmas.begin(), p.dmas.end(),
                                       [&](const DmaSpec& other) { return other.name == copy.name; });
        if (clash && (count > 1 || expanded_dmas_.count(copy.name)))
          issues_.add("/platform/dmas/" + std::to_string(i) + "/name",
                      "DMA engine name \"" + copy.name + "\" is taken by another DMA engine");
        if (count > 1) expanded_dmas_.insert(copy.name);
        dma_groups_[s.name].push_back(copy.name);
        if (!span_wraps)
          device(copy.name, copy.bus, "/platform/dmas/" + std::to_string(i), copy.base,
                 models::dma_reg::kSize);
        p.dmas.push_back(copy);
      }
    }
  }

  void cores(const json& pl, ScenarioParams& p) {
    std::vector<std::pair<std::string, Device>> images;  // bitstreams placed in memories
    for (std::size_t i = 0; i < pl["cores"].size(); ++i) {
      const json& c = pl["cores"][i];
      const std::string ptr = "/platform/cores/" + std::to_string(i);
      CoreSpec s;
      s.name = c["name"];
      s.id = static_cast<std::uint32_t>(i);
      const auto kind = models::core_kind_from_name(c["type"].get<std::string>());
      if (!kind) throw std::logic_error("a core type the schema let through");
      s.params.kind = *kind;
      s.params.clock_period = period_of(c["clock_mhz"], ptr + "/clock_mhz");
      s.params.access_cycles = u(c["access_cycles"]);
      s.params.key_setup_cycles = u(c["key_setup_cycles"]);
      s.params.block_cycles = u(c["block_cycles"]);
      s.params.initiation_interval_cycles = u(c["initiation_interval_cycles"]);
      if (s.params.initiation_interval_cycles > s.params.block_cycles)
        issues_.add(ptr + "/initiation_interval_cycles",
                    std::to_string(s.params.initiation_interval_cycles) + " is more than block_cycles (" +
                        std::to_string(s.params.block_cycles) +
                        "); expected a number of cycles <= block_cycles (a block enters the pipeline at most "
                        "as late as the one before it leaves)");
      custom_core(c, ptr, i, s);
      kind_params(c, s.params);
      s.params.fifo_words = u(c["fifo_words"]);
      const json& bs = c["bitstream"];
      s.memory = bs["memory"];
      s.bitstream_address = u64(bs["address"]);
      s.bitstream_bytes = kib_bytes(bs["size_kib"]);
      if (s.bitstream_bytes < 4 * (models::kBitstreamHeaderWords + 1))
        issues_.add(ptr + "/bitstream/size_kib", "a bitstream must hold at least 20 bytes");
      if (known("memories", s.memory, ptr + "/bitstream/memory", "memory")) {
        const MemorySpec* m = nullptr;
        for (const auto& mm : p.memories)
          if (mm.name == s.memory) m = &mm;
        if (m && !inside(s.bitstream_address, s.bitstream_bytes, m->base, m->params.size_bytes)) {
          issues_.add(ptr + "/bitstream/address",
                      "bitstream " + span(s.bitstream_address, s.bitstream_bytes) +
                          " lies outside memory \"" + m->name + "\" " + span(m->base, m->params.size_bytes));
        } else if (m) {
          for (const auto& [other, d] : images) {
            if (s.bitstream_address < d.base + d.size && d.base < s.bitstream_address + s.bitstream_bytes)
              issues_.add(
                  ptr + "/bitstream/address",
                  "bitstream of core \"" + s.name + "\" overlaps the bitstream of core \"" + other + "\"");
          }
          images.push_back({s.name, Device{s.name, s.memory, ptr, s.bitstream_address, s.bitstream_bytes}});
        }
      }
      p.cores.push_back(s);
    }
    // The functionalities of the custom cores, each once (cores that serve the same one agree on it).
    std::vector<runtime::FunctionalityCatalog::Custom> customs;
    for (std::size_t i = 0; i < p.cores.size(); ++i) {
      const auto c = custom_of_.find(i);
      if (c == custom_of_.end()) continue;
      const auto same = std::find_if(customs.begin(), customs.end(),
                                     [&](const auto& other) { return other.name == c->second.name; });
      if (same == customs.end()) {
        customs.push_back(c->second);
      } else if (same->computes != c->second.computes || same->input_bytes != c->second.input_bytes ||
                 same->output_bytes != c->second.output_bytes || same->key_bytes != c->second.key_bytes) {
        issues_.add("/platform/cores/" + std::to_string(i) + "/custom",
                    "another core serves \"" + c->second.name +
                        "\" with other blocks, key or computation; expected the same computes, input_bytes, "
                        "output_bytes and key_bytes for one functionality");
      }
    }
    p.functionalities = std::make_shared<const runtime::FunctionalityCatalog>(customs);
    for (const auto& [i, c] : custom_of_)
      if (p.cores[i].params.kind == models::CoreKind::kCustom)
        p.cores[i].serves = p.functionalities->find(c.name);
  }

  // The parameters of its own that core `c`'s kind takes (models/core_kinds.h), into `params`.
  static void kind_params(const json& c, models::CoreParams& params) {
    for (const models::KindParam& k : models::core_kind(params.kind).params) {
      if (!k.key) break;
      const json& v = c[k.key];
      if (!k.choices) {
        k.set(params, u(v));
        continue;
      }
      const std::vector<std::string> names = k.choices();
      const auto chosen = std::find(names.begin(), names.end(), v.get<std::string>());
      if (chosen == names.end()) throw std::logic_error("a choice the schema let through");
      k.set(params, static_cast<unsigned>(chosen - names.begin()));
    }
  }

  // The custom description of core `c` at `ptr` (required for a custom core, refused for the others); noted
  // in custom_of_ and in the core's parameters.
  void custom_core(const json& c, const std::string& ptr, std::size_t index, CoreSpec& s) {
    const json& d = c["custom"];
    const bool custom = s.params.kind == models::CoreKind::kCustom;
    if (custom != !d.is_null())
      issues_.add(ptr + "/custom", custom ? "a custom core needs its description (functionality, computes, "
                                            "input_bytes); expected an object"
                                          : "only a custom core takes a custom description (this core is " +
                                                c["type"].get<std::string>() + "); expected null");
    // A description on another kind of core still names its functionality: the applications and software
    // that use it are not reported again.
    if (d.is_null()) return;
    runtime::FunctionalityCatalog::Custom f;
    f.name = d["functionality"];
    f.computes = crypto::find_block_function(d["computes"].get<std::string>());
    if (!f.computes) throw std::logic_error("a block function the schema let through");
    f.input_bytes = u(d["input_bytes"]);
    f.key_bytes = u(d["key_bytes"]);
    const std::string fn = f.computes->name;
    if (runtime::functionality_from_name(f.name))
      issues_.add(ptr + "/custom/functionality", "\"" + f.name +
                                                     "\" is a built-in functionality; expected a name of "
                                                     "the custom core's own");
    if (f.input_bytes % 4)
      issues_.add(
          ptr + "/custom/input_bytes",
          std::to_string(f.input_bytes) + " is not a whole number of 32-bit words; expected a multiple of 4");
    const unsigned natural = f.computes->output_bytes ? f.computes->output_bytes : f.input_bytes;
    f.output_bytes = d["output_bytes"].is_null() ? natural : u(d["output_bytes"]);
    if (f.output_bytes % 4)
      issues_.add(ptr + "/custom/output_bytes", std::to_string(f.output_bytes) +
                                                    " is not a whole number of 32-bit words; expected a "
                                                    "multiple of 4");
    else if (f.computes->checked && f.output_bytes != natural)
      issues_.add(ptr + "/custom/output_bytes", std::to_string(f.output_bytes) + " bytes is not what " + fn +
                                                    " gives for a block of " + std::to_string(f.input_bytes) +
                                                    " bytes; expected " + std::to_string(natural) +
                                                    " (or null)");
    if (f.computes->keyed && (f.key_bytes == 0 || f.key_bytes % 4))
      issues_.add(ptr + "/custom/key_bytes", fn + " takes a key; expected a multiple of 4 from 4 to 64");
    else if (!f.computes->keyed && f.key_bytes)
      issues_.add(ptr + "/custom/key_bytes", fn + " takes no key; expected 0");
    const bool pio = kCustomInterfaceNames.at(d["interface"].get<std::string>());
    constexpr unsigned kBankBytes = 4 * models::reg::kCustomBankWords;
    for (const auto& [key, bytes] :
         {std::pair<const char*, unsigned>{"input_bytes", f.input_bytes}, {"output_bytes", f.output_bytes}})
      if (pio && bytes > kBankBytes)
        issues_.add(ptr + "/custom/" + key, std::to_string(bytes) + " bytes do not fit the PIO bank (" +
                                                std::to_string(kBankBytes) +
                                                " bytes); expected at most that, or interface stream");
    custom_of_[index] = f;
    if (!custom) return;
    if (!pio) stream_only_cores_.push_back(ptr + "/custom/interface");
    s.params.custom = models::CustomCoreParams{f.computes, f.input_bytes, f.output_bytes, f.key_bytes, pio};
  }

  void slots(const json& pl, ScenarioParams& p) {
    for (std::size_t i = 0; i < pl["slots"].size(); ++i) {
      const json& sl = pl["slots"][i];
      const std::string ptr = "/platform/slots/" + std::to_string(i);
      SlotSpec s;
      s.name = sl["name"];
      s.bus = sl["bus"];
      s.base = u64(sl["base"]);
      s.window_bytes = u64(sl["window_kib"]) * 1024;
      s.params.capacity_bytes = kib_bytes(sl["capacity_kib"]);
      s.params.reconfigurable = sl["reconfigurable"].get<bool>();
      s.params.clock_period = period_of(sl["clock_mhz"], ptr + "/clock_mhz");
      if (!sl["core"].is_null()) s.core = sl["core"];
      if (!s.core.empty() && known("cores", s.core, ptr + "/core", "core")) {
        for (const auto& c : p.cores)
          if (c.name == s.core && c.bitstream_bytes > s.params.capacity_bytes)
            issues_.add(ptr + "/core", "bitstream of core \"" + c.name + "\" (" +
                                           std::to_string(c.bitstream_bytes) +
                                           " bytes) is larger than the slot (" +
                                           std::to_string(s.params.capacity_bytes) + " bytes)");
      }
      if (!s.params.reconfigurable && s.core.empty())
        issues_.add(ptr + "/core",
                    "a static slot (reconfigurable: false) needs the core it is configured with");
      // `count` identical slots: <name>0, <name>1, ... in consecutive windows.
      const std::uint64_t count = u64(sl["count"]);
      if (count > 1) names_["slots"].erase(s.name);  // the entry's name is a prefix, not a slot
      // Their windows must all lie below 2^64: the bases of later copies would wrap around to 0.
      const bool span_wraps = count > 1 && wraps(s.base, count * s.window_bytes);
      if (span_wraps)
        issues_.add(ptr + "/base", "the " + std::to_string(count) + " windows of \"" + s.name + "\" from " +
                                       models::hex(s.base) + " (" + std::to_string(count) + " x " +
                                       std::to_string(s.window_bytes) +
                                       " bytes) end past the last address of the 64-bit address space");
      for (std::uint64_t k = 0; k < count; ++k) {
        SlotSpec copy = s;
        if (count > 1) copy.name += std::to_string(k);
        copy.base = s.base + k * s.window_bytes;
        // Clashes between plain names are reported with the other duplicates (collect_names).
        const bool clash = std::any_of(p.slots.begin(), p.slots.end(),
                                       [&](const SlotSpec& other) { return other.name == copy.name; });
        if (clash && (count > 1 || expanded_slots_.count(copy.name)))
          issues_.add(ptr + "/name", "slot name \"" + copy.name + "\" is taken by another slot");
        if (count > 1) {
          expanded_slots_.insert(copy.name);
          names_["slots"].insert(copy.name);
          slot_groups_[s.name].push_back(copy.name);
        }
        if (!span_wraps) device(copy.name, copy.bus, ptr, copy.base, copy.window_bytes);
        p.slots.push_back(copy);
      }
    }

    // Every core must fit somewhere it can go.
    for (std::size_t i = 0; i < p.cores.size(); ++i) {
      bool fits = false, any = false;
      for (const auto& s : p.slots) {
        if (s.params.reconfigurable) {
          any = true;
          fits = fits || p.cores[i].bitstream_bytes <= s.params.capacity_bytes;
        }
        if (s.core == p.cores[i].name) fits = true;
      }
      if (any && !fits)
        issues_.add("/platform/cores/" + std::to_string(i) + "/bitstream/size_kib",
                    "bitstream of core \"" + p.cores[i].name + "\" (" +
                        std::to_string(p.cores[i].bitstream_bytes) +
                        " bytes) is larger than every reconfigurable slot");
    }
  }

  void config_port(const json& pl, ScenarioParams& p) {
    const json& cp = pl["config_port"];
    bool reconfigurable = false;
    for (const auto& s : p.slots) reconfigurable = reconfigurable || s.params.reconfigurable;
    if (cp.is_null()) {
      if (reconfigurable)
        issues_.add("/platform/config_port", "reconfigurable slots need a configuration port (got null)");
      return;
    }
    ConfigPortSpec s;
    s.bus = cp["bus"];
    s.base = u64(cp["base"]);
    s.params.clock_period = period_of(cp["clock_mhz"], "/platform/config_port/clock_mhz");
    s.params.width_bits = u(cp["width_bits"]);
    s.params.access_cycles = u(cp["access_cycles"]);
    s.dma_feed = kPortFeedNames.at(cp["feed"].get<std::string>());
    s.cpu_copy_cycles_per_word = u(cp["cpu_copy_cycles_per_word"]);
    if (!cp["dma"].is_null()) s.dma = cp["dma"];
    if (s.dma_feed && s.dma.empty())
      issues_.add("/platform/config_port/dma", "feed \"dma\" needs the name of a DMA engine (got null)");
    else if (!s.dma.empty())
      known("dmas", s.dma, "/platform/config_port/dma", "DMA engine");
    device("config_port", s.bus, "/platform/config_port", s.base, models::port_reg::kSize);
    p.config_port = s;
  }

  // Devices on the same bus must not overlap; devices on a bridged bus must lie inside its window.
  void address_maps(const ScenarioParams& p) {
    std::map<std::string, models::AddressMap> maps;
    std::map<std::string, std::string> pointer_of;
    for (const auto& d : devices_) {
      const BusSpec* b = bus(p, d.bus);
      if (!b) continue;
      if (!b->parent.empty() && !inside(d.base, d.size, b->window_base, b->window_bytes)) {
        issues_.add(d.pointer + "/base", "\"" + d.name + "\" " + span(d.base, d.size) +
                                             " lies outside the window of bus \"" + b->name + "\" " +
                                             span(b->window_base, b->window_bytes));
        continue;
      }
      auto it = maps.try_emplace(d.bus, "bus \"" + d.bus + "\"").first;
      try {
        it->second.add(models::AddressRange{d.name, d.base, d.size, 0});
      } catch (const models::ElaborationError& e) {
        issues_.add(d.pointer + "/base", e.what());
      }
    }
  }

  void data_path(const json& d, ScenarioParams& p) {
    const std::string ptr = "/runtime/driver/dma";
    if (!kDataPathNames.at(d["data_path"].get<std::string>())) return;
    const json& dma = d["dma"];
    if (dma.is_null()) {
      issues_.add(ptr, "data_path \"dma\" needs the DMA engine and its buffer (got null)");
      return;
    }
    DataPathSpec s;
    const std::string engine = dma["engine"];
    if (dma_groups_.count(engine)) {
      s.engines = dma_groups_.at(engine);  // an entry with count: one engine per slot in turn
    } else if (known("dmas", engine, ptr + "/engine", "DMA engine")) {
      s.engines = {engine};
    }
    s.memory = dma["memory"];
    s.buffer = u64(dma["address"]);
    s.buffer_bytes = kib_bytes(dma["size_kib"]);
    if (known("memories", s.memory, ptr + "/memory", "memory")) {
      for (const auto& m : p.memories)
        if (m.name == s.memory && !inside(s.buffer, s.buffer_bytes, m.base, m.params.size_bytes))
          issues_.add(ptr + "/address", "buffer " + span(s.buffer, s.buffer_bytes) +
                                            " lies outside memory \"" + m.name + "\" " +
                                            span(m.base, m.params.size_bytes));
      for (const auto& c : p.cores)
        if (c.memory == s.memory && s.buffer < c.bitstream_address + c.bitstream_bytes &&
            c.bitstream_address < s.buffer + s.buffer_bytes)
          issues_.add(ptr + "/address", "buffer overlaps the bitstream of core \"" + c.name + "\"");
    }
    p.data_dma = s;
  }

  void runtime(ScenarioParams& p) {
    const json& rt = doc_["runtime"];
    p.runtime.policy = runtime::kPolicyNames.at(rt["policy"].get<std::string>());
    for (const auto& [name, blocks] : rt["thresholds"].items())
      if (const auto f = functionality_key(p, name, pointer_child("/runtime/thresholds", name)))
        p.runtime.thresholds[*f] = u64(blocks);
    unit_bytes(p, rt["unit_bytes"]);
    const json& rec = rt["recovery"];
    p.runtime.recovery.configuration_retries = static_cast<unsigned>(u64(rec["configuration_retries"]));
    p.runtime.recovery.fallback_to_software = kFallbackNames.at(rec["fallback"].get<std::string>());
    p.runtime.recovery.retire_after = static_cast<unsigned>(u64(rec["retire_after"]));
    p.runtime.recovery.verify_cycles_per_block = u64(rec["verify_cycles_per_block"]);
    p.runtime.driver.watchdog_cycles = u64(rec["watchdog_cycles"]);
    p.runtime.prefetch.predictor =
        runtime::kPredictorNames.at(rt["prefetch"]["predictor"].get<std::string>());
    p.runtime.prefetch.priority = static_cast<int>(rt["prefetch"]["priority"].get<std::int64_t>());
    if (p.runtime.prefetch.predictor != runtime::Predictor::kNone && !p.config_port)
      issues_.add("/runtime/prefetch/predictor",
                  "prefetching configures slots: it needs a configuration port, and the platform has none");
    p.runtime.caching = rt["caching"].get<bool>();
    p.runtime.replacement = runtime::kReplacementNames.at(rt["replacement"].get<std::string>());
    p.runtime.wait_for_slot = kWhenNoSlotNames.at(rt["when_no_slot"].get<std::string>());
    contexts(p, rt["contexts"]);
    driver(p, rt["driver"]);
    scheduler(p, rt["scheduler"]);
    software(p);
    scaled_software(p);
  }

  // runtime.unit_bytes: whole blocks of their functionality.
  void unit_bytes(ScenarioParams& p, const json& units) {
    for (const auto& [name, bytes] : units.items()) {
      const auto known = functionality_key(p, name, pointer_child("/runtime/unit_bytes", name));
      if (!known) continue;
      const runtime::Functionality f = *known;
      const auto& fi = runtime::info(f);
      if (u64(bytes) % fi.block_bytes != 0) {
        issues_.add("/runtime/unit_bytes/" + name, bytes.dump() + " is not a whole number of " + name +
                                                       (fi.operand_bits ? " messages" : " cipher blocks") +
                                                       "; expected a multiple of " +
                                                       std::to_string(fi.block_bytes) + " bytes");
        continue;
      }
      p.runtime.unit_bytes[f] = u64(bytes);
    }
  }

  void contexts(ScenarioParams& p, const json& ctx) {
    p.runtime.contexts.first_use_cycles = u64(ctx["first_use_cycles"]);
    p.runtime.contexts.first_use_serialised = ctx["first_use_serialised"].get<bool>();
    p.runtime.contexts.per_process = ctx["per_process"].get<bool>();
    p.runtime.contexts.switch_time = sc_time(ctx["switch_us"].get<double>(), sc_core::SC_US);
    if (!p.runtime.contexts.per_process && ctx["switch_us"].get<double>() > 0)
      issues_.add("/runtime/contexts/switch_us",
                  "a switch time without per-process contexts does nothing; expected per_process true, or 0");
  }

  void driver(ScenarioParams& p, const json& d) {
    p.runtime.driver.cycles_per_request = u64(d["cycles_per_request"]);
    p.runtime.driver.prepare_cycles_per_request = u64(d["prepare_cycles_per_request"]);
    p.runtime.driver.cycles_per_block = u64(d["cycles_per_block"]);
    p.runtime.driver.cycles_per_cipher_block = u64(d["cycles_per_cipher_block"]);
    p.runtime.driver.poll_loop_cycles = u64(d["poll_loop_cycles"]);
    p.runtime.driver.max_polls = u64(d["max_polls"]);
    p.runtime.driver.pio_timing = runtime::kPioTimingNames.at(d["pio_timing"].get<std::string>());
    data_path(d, p);
    if (!p.data_dma)
      for (const std::string& ptr : stream_only_cores_)
        issues_.add(ptr,
                    "a core with the streaming windows only needs the DMA data path; expected "
                    "runtime.driver.data_path dma, or interface pio");
  }

  void scheduler(ScenarioParams& p, const json& s) {
    p.scheduler.mode = runtime::kSchedulingModeNames.at(s["mode"].get<std::string>());
    p.scheduler.time_slice = sc_time(s["time_slice_us"].get<double>(), sc_core::SC_US);
    p.scheduler.context_switch_cycles = u64(s["context_switch_cycles"]);
    p.scheduler.yield_cycles = u64(s["yield_cycles"]);
  }

  // The software implementations (section software), by functionality.
  void software(ScenarioParams& p) {
    for (const auto& [name, cost] : doc_["software"].items()) {
      const auto f = functionality_key(p, name, pointer_child("/software", name));
      if (!f) continue;
      runtime::SoftwareCost sw{u64(cost["cycles_per_request"]), u64(cost["cycles_per_block"]), std::nullopt};
      sw.cycles_per_byte = cost["cycles_per_byte"].get<double>();
      if (!cost["smt_throughput"].is_null()) {
        sw.smt_throughput = cost["smt_throughput"].get<double>();
        if (std::none_of(p.cpus.begin(), p.cpus.end(), [](const CpuSpec& c) {
              return c.params.smt_throughput > 0 && c.params.hw_threads > 1;
            }))
          issues_.add("/software/" + name + "/smt_throughput",
                      "no CPU has hardware threads sharing a core (expected a CPU with hw_threads > 1 and "
                      "smt_throughput > 0, or null here)");
      }
      if (const json& x = cost["extension"]; !x.is_null()) {
        const std::string ptr = "/software/" + name + "/extension";
        runtime::ExtensionSoftware e;
        e.unit = x["unit"];
        e.integration = runtime::kExtensionIntegrationNames.at(x["integration"].get<std::string>());
        e.load_cycles = u64(x["load_cycles"]);
        e.store_cycles = u64(x["store_cycles"]);
        e.move_cycles = u64(x["move_cycles"]);
        e.call_cycles = u64(x["call_cycles"]);
        e.loop_cycles = u64(x["loop_cycles"]);
        if (!runtime::runs_on_desrnd(*f)) {
          issues_.add(ptr, name + " has no implementation on the desrnd unit (des and 3des have)");
        } else if (const CpuSpec* with = first_with_desrnd(p); !with) {
          issues_.add(ptr + "/unit", (p.cpus.size() == 1 ? "the CPU \"" + p.cpus.front().name + "\" has no"
                                                         : std::string("no CPU has a")) +
                                         " desrnd extension (declare /platform/cpus/0/extensions/desrnd)");
        } else {
          sw.cycles_per_cipher_block = runtime::extension_cycles_per_block(*f, e, *with->desrnd);
          sw.extension = e;
        }
      }
      p.runtime.software[*f] = sw;
    }
  }

  // software.<f>.scaled_from: <f>'s cycles per block from those of the functionality named, in proportion to
  // their big-number work (runtime/rsa_work.h).
  void scaled_software(ScenarioParams& p) {
    const json& software = doc_["software"];
    for (const auto& [name, cost] : software.items()) {
      if (cost["scaled_from"].is_null()) continue;
      const std::string from = cost["scaled_from"];
      const std::string ptr = "/software/" + name + "/scaled_from";
      const auto known = p.functionalities->find(name);
      if (!known) continue;  // reported with the software costs
      const auto f = *known, g = *runtime::functionality_from_name(from);
      const auto work = runtime::software_work(f), base_work = runtime::software_work(g);
      if (!work || !base_work) {
        std::string counted;
        for (const auto& n : runtime::functionality_names())
          if (runtime::software_work(*runtime::functionality_from_name(n)))
            counted += (counted.empty() ? "" : ", ") + n;
        issues_.add(ptr, work
                             ? from + " has no counted big-number work; expected one of " + counted
                             : name + " has no counted big-number work to scale by (scaled_from applies to " +
                                   counted + ")");
      } else if (f == g) {
        issues_.add(ptr, name + " cannot be scaled from itself; expected another functionality");
      } else if (!software.contains(from)) {
        issues_.add(ptr,
                    "expected a functionality with its own software cost (define /software/" + from + ")");
      } else if (!software[from]["scaled_from"].is_null()) {
        issues_.add(ptr, "/software/" + from + " is scaled itself; expected a calibrated cost");
      } else {
        p.runtime.software[f].cycles_per_block += static_cast<std::uint64_t>(std::llround(
            static_cast<double>(p.runtime.software.at(g).cycles_per_block) * *work / *base_work));
      }
    }
  }

  static const CpuSpec* first_with_desrnd(const ScenarioParams& p) {
    for (const auto& c : p.cpus)
      if (c.desrnd) return &c;
    return nullptr;
  }

  // The CPUs a process may run on (`cpu` and `hw_thread` of the entry at `ptr`), narrowed to those with the
  // extension unit its software uses (`unit`, when not empty).
  void placement_of(const ScenarioParams& p, const json& a, const std::string& ptr, const std::string& unit,
                    Placement* out) {
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

  void block_counts(const json& a, const std::string& ptr, BlockCounts* b) {
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

  // Static slots of the platform holding a core of `kind`, and the narrowest such core's operand width.
  std::pair<std::size_t, unsigned> static_cores(const ScenarioParams& p, models::CoreKind kind) const {
    std::size_t n = 0;
    unsigned widest = 4096;
    for (const auto& sl : p.slots)
      for (const auto& c : p.cores)
        if (!sl.params.reconfigurable && c.name == sl.core && c.params.kind == kind) {
          ++n;
          widest = std::min(widest, c.params.max_operand_bits);
        }
    return {n, widest};
  }

  // Whether `bus` names a bus of the platform (else an issue at `pointer`).
  bool bus_known(const ScenarioParams& p, const std::string& bus, const std::string& pointer) {
    std::vector<std::string> names;
    for (const auto& b : p.buses) names.push_back(b.name);
    if (std::find(names.begin(), names.end(), bus) != names.end()) return true;
    issues_.add(pointer, not_one_of_message(bus, names));
    return false;
  }

  void faults(ScenarioParams& p) {
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
        issues_.add(ptr + "/slot",
                    "slot \"" + slot +
                        "\" is static: it is never configured, so a configuration fault never hits it");
      spec.windows.push_back({sc_time(w["time_us"].get<double>(), sc_core::SC_US), fault,
                              static_cast<std::size_t>(it - p.slots.begin()), ""});
    }
    for (const auto& [bus, b] : f["buses"].items())
      if (bus_known(p, bus, pointer_child("/faults/buses", bus)))
        spec.bus_error_rate[bus] = b["error_rate"].get<double>();
    const bool hangs = spec.hang_probability > 0 ||
                       std::any_of(spec.windows.begin(), spec.windows.end(), [](const FaultSpec::Window& w) {
                         return w.fault == models::FaultKind::kHang;
                       });
    if (hangs && p.runtime.driver.watchdog_cycles == 0)
      issues_.add("/runtime/recovery/watchdog_cycles",
                  "core hangs (faults.hangs, or a hang in faults.at) are detected only by the drivers' "
                  "watchdog; expected a number of CPU cycles above 0");
    if ((spec.configuration_probability > 0 || spec.bit_error_rate > 0) && !p.config_port)
      issues_.add("/faults/configuration",
                  "configuration faults need a configuration port; the platform has none");
    p.faults = spec;
  }

  // Every entry of the map at /energy/<list> names one of /platform/<list>, or an entry with a count (all its
  // instances: a sweep of the count keeps the section valid), and every one of those has one; take(instance,
  // its values, their pointer) for each.
  template <class Take>
  void energy_entries(const json& e, const char* list, const char* what, const Take& take) {
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

  void energy(ScenarioParams& p) {
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

  void hsm(ScenarioParams& p) {
    const json& h = doc_["workload"]["hsm"];
    if (h.is_null()) return;
    const std::string ptr = "/workload/hsm";
    HsmSpec s;
    runtime::HsmParams& hp = s.params;
    hp.clients = u(h["clients"]);
    hp.signatures_per_client = u64(h["signatures_per_client"]);
    hp.rpc_tasks = u(h["rpc_tasks"]);
    hp.task_priority = static_cast<int>(h["task_priority"].get<std::int64_t>());
    hp.host_time = sc_time(h["host_us"].get<double>(), sc_core::SC_US);
    hp.host_jitter = h["host_jitter"].get<double>();
    hp.rx_tick = sc_time(h["rx_tick_us"].get<double>(), sc_core::SC_US);
    hp.request_bytes = u64(h["request_bytes"]);
    hp.response_bytes = u64(h["response_bytes"]);
    hp.blinding_cache = u(h["blinding_cache"]);
    hp.remainder_at = runtime::kRemainderAtNames.at(h["remainder_at"].get<std::string>());
    hp.io = p.runtime.driver;  // the firmware's status waits: poll_loop_cycles, max_polls, the watchdog
    hp.seed = p.seed;
    hsm_costs(h["cycles"], hp, ptr);
    s.uart = h["uart"];
    known("uarts", s.uart, ptr + "/uart", "UART");
    hsm_key(p, h, ptr, s);
    p.hsm = s;
  }

  // The firmware's step costs (workload.hsm.cycles at `ptr`/cycles), into hp.cycles.
  void hsm_costs(const json& c, runtime::HsmParams& hp, const std::string& ptr) {
    runtime::HsmCosts& k = hp.cycles;
    for (auto [key, field] :
         std::initializer_list<std::pair<const char*, std::uint64_t runtime::HsmCosts::*>>{
             {"rx_per_byte", &runtime::HsmCosts::rx_per_byte},
             {"dispatch", &runtime::HsmCosts::dispatch},
             {"keystore_fetch", &runtime::HsmCosts::keystore_fetch},
             {"copy_per_word", &runtime::HsmCosts::copy_per_word},
             {"kek", &runtime::HsmCosts::kek},
             {"unwrap_per_block", &runtime::HsmCosts::unwrap_per_block},
             {"key_parse", &runtime::HsmCosts::key_parse},
             {"pad", &runtime::HsmCosts::pad},
             {"blinding_hit", &runtime::HsmCosts::blinding_hit},
             {"blinding_miss", &runtime::HsmCosts::blinding_miss},
             {"blind", &runtime::HsmCosts::blind},
             {"operand_unpack", &runtime::HsmCosts::operand_unpack},
             {"core_alloc", &runtime::HsmCosts::core_alloc},
             {"result_read", &runtime::HsmCosts::result_read},
             {"crt", &runtime::HsmCosts::crt},
             {"unblind", &runtime::HsmCosts::unblind},
             {"encode", &runtime::HsmCosts::encode},
             {"tx_per_byte", &runtime::HsmCosts::tx_per_byte},
             {"remainder", &runtime::HsmCosts::remainder}})
      k.*field = u64(c[key]);
    if (hp.remainder_at == runtime::RemainderAt::kBignum && k.remainder > 0) {
      std::uint64_t bignum = 0;
      for (const std::uint64_t* step : runtime::bignum_steps(k)) bignum += *step;
      if (bignum == 0)
        issues_.add(ptr + "/remainder_at",
                    "bignum: the remainder (" + std::to_string(k.remainder) +
                        " cycles) runs in the bignum steps in proportion to their cycles, and "
                        "cycles.key_parse, blinding_hit, blind, operand_unpack, result_read, crt and unblind "
                        "are all 0; expected unwrap or dispatch, or cycles for those steps");
    }
  }

  // The HSM's key (its size and record, the cores it needs, its wrapped copy in the keystore), into `s`.
  void hsm_key(const ScenarioParams& p, const json& h, const std::string& ptr, HsmSpec& s) {
    runtime::HsmParams& hp = s.params;
    s.key_bits = u(h["key_bits"]);
    const bool key_bits_ok = s.key_bits == 2048 || s.key_bits == 4096;
    if (!key_bits_ok)
      issues_.add(
          ptr + "/key_bits",
          "expected 2048 or 4096 (the modexp cores take the message unreduced, at most 4096 bits), got " +
              std::to_string(s.key_bits));
    s.key_record_bytes = u64(h["key_record_bytes"]);
    // n, d: the modulus size; p, q, dP, dQ, qInv and the primes' Montgomery coefficients and factors: half of
    // it; e: 3 bytes; a 2-byte length each.
    const std::size_t needed = 2 * s.key_bits / 8 + 9 * s.key_bits / 16 + 3 + 24;
    if (s.key_record_bytes < needed)
      issues_.add(ptr + "/key_record_bytes",
                  "a " + std::to_string(s.key_bits) + "-bit key needs a record of at least " +
                      std::to_string(needed) + " bytes, got " + std::to_string(s.key_record_bytes));
    // The firmware's core library takes the cores of the platform's static slots: an AES core unwraps the
    // key; the CRT pair needs two modexp cores that take the unreduced message.
    if (static_cores(p, models::CoreKind::kAes128).first == 0)
      issues_.add(ptr,
                  "the HSM firmware unwraps keys on an AES core: no static slot (reconfigurable: false) "
                  "holds an aes128 core");
    const auto [modexp, width] = static_cores(p, models::CoreKind::kModexp);
    if (modexp < 2)
      issues_.add(ptr, "the HSM firmware runs the CRT halves on two modexp cores at once (hal_modexp2): " +
                           std::to_string(modexp) + " static slot" + (modexp == 1 ? " holds" : "s hold") +
                           " a modexp core");
    else if (key_bits_ok && width < s.key_bits)
      issues_.add(ptr + "/key_bits", "a modexp core of the platform takes at most " + std::to_string(width) +
                                         "-bit operands; the unreduced message of a " +
                                         std::to_string(s.key_bits) + "-bit key needs " +
                                         std::to_string(s.key_bits));
    // The wrapped key (RFC 5649: the record rounded up to 8 bytes, plus 8) inside its memory.
    const std::uint64_t blob = 8 * ((s.key_record_bytes + 7) / 8 + 1);
    const std::string memory = h["keystore_memory"];
    hp.blob_address = u64(h["keystore_address"]);
    if (known("memories", memory, ptr + "/keystore_memory", "memory"))
      for (const auto& m : p.memories)
        if (m.name == memory && !inside(hp.blob_address, blob, m.base, m.params.size_bytes))
          issues_.add(ptr + "/keystore_address", "the wrapped key " + span(hp.blob_address, blob) +
                                                     " lies outside memory \"" + memory + "\"");
  }

  // Every CPU runs something: a CPU no process may run on is a mistake (processes pinned elsewhere).
  void idle_cpus(const ScenarioParams& p) {
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

  // The names of the workload's applications and background processes.
  struct WorkloadNames {
    std::set<std::string> entries;                // the entries' names
    std::set<std::string> final_names, expanded;  // every application's, and those made by a count
    std::map<std::string, std::pair<std::size_t, std::uint64_t>> counted;  // entry -> first copy, count
  };

  void apps(ScenarioParams& p) {
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

  // The settings of application `a` (entry `i` at `ptr`) of functionality s.functionality, into `s`.
  void app(ScenarioParams& p, const json& a, const std::string& ptr, std::size_t i, AppSpec& s) {
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

  // Whether something can run application `s` (at `ptr`) under the scenario's policy.
  void implementable(const ScenarioParams& p, const AppSpec& s, const std::string& ptr) {
    const auto& fi = runtime::info(s.functionality);
    const bool has_core = std::any_of(p.cores.begin(), p.cores.end(), [&](const CoreSpec& c) {
      return runtime::implements(c.design(), s.functionality);
    });
    const std::string wanted_core =
        fi.core == models::CoreKind::kCustom
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
      issues_.add(ptr + "/functionality", std::string("nothing implements ") + fi.name +
                                              ": define /software/" + fi.name + " or " + wanted_core);
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
      issues_.add(ptr + "/functionality",
                  std::string("nothing can run ") + fi.name + ": /software/" + fi.name +
                      " is not defined and no slot in /platform/slots can hold " + wanted_core);
    if (p.runtime.policy == runtime::PolicyKind::kThreshold && !has_sw &&
        !p.runtime.thresholds.count(s.functionality))
      issues_.add(ptr + "/functionality", std::string("the threshold policy needs /runtime/thresholds/") +
                                              fi.name + " or /software/" + fi.name + " for " + fi.name);
  }

  // `count` identical applications (as `openssl speed -multi N` runs N processes): <name>0, <name>1, ...
  // with hw_thread, on the CPU's hardware threads in turn from hw_thread.
  void add_copies(ScenarioParams& p, const json& a, const std::string& ptr, const AppSpec& s,
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

  void background(ScenarioParams& p, WorkloadNames& names) {
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

  const json& doc_;
  IssueList& issues_;
  std::map<std::string, std::set<std::string>> names_;
  std::vector<Device> devices_;
};

// Where each override put its value: a problem there (or below) is the override's, named after its flag.
class OverrideSources {
 public:
  void add(std::string pointer, std::string source) {
    set_.emplace_back(std::move(pointer), std::move(source));
  }
  void name(IssueList& issues) const {
    issues.update([this](ScenarioIssue& issue) {
      for (auto it = set_.rbegin(); it != set_.rend(); ++it)  // the last override of a value set it
        if (issue.pointer == it->first || issue.pointer.rfind(it->first + "/", 0) == 0) {
          issue.file = it->second;
          break;
        }
    });
  }

 private:
  std::vector<std::pair<std::string, std::string>> set_;  // pointer, flag
};

std::string source_of(const LoadOptions& options, std::size_t i) {
  return i < options.sources.size() && !options.sources[i].empty() ? options.sources[i]
                                                                   : "--set " + options.overrides[i];
}

// `doc` with `options` applied and resolved: the scenario, or every issue (the file's, or an override's when
// it lies at the value the override set).
Scenario load(nlohmann::ordered_json doc, const std::string& file, const LoadOptions& options) {
  const Schema& schema = scenario_schema();
  IssueList issues(file);
  OverrideSources sources;
  for (std::size_t i = 0; i < options.overrides.size(); ++i) {
    const std::string source = source_of(options, i);
    std::string pointer;
    if (apply_override(doc, options.overrides[i], schema, issues, source, &pointer))
      sources.add(pointer, source);
  }
  if (options.seed) {
    doc["seed"] = *options.seed;
    sources.add("/seed", "--seed " + std::to_string(*options.seed));
  }
  Resolution r = resolve(doc, schema, file);
  sources.name(r.issues);
  issues.append(r.issues);
  issues.throw_if_any();
  Scenario s;
  s.file = file;
  s.resolved = std::move(r.value);
  IssueList cross(file);
  s.params = Resolver(s.resolved, cross).run();
  sources.name(cross);
  cross.throw_if_any();
  s.sha256 = sha256_hex(s.resolved.dump());
  return s;
}

Scenario finish(const nlohmann::ordered_json& doc, const std::string& file, const LoadOptions& options) {
  try {
    return load(doc, file, options);
  } catch (const ScenarioError& e) {
    // A problem the file is blamed for may still come from an override that set another value (a slot made
    // too small for its bitstream): when the scenario loads without that override, it is named after it.
    // The last override without which it loads names them all: found once, however many issues there are.
    std::vector<ScenarioIssue> issues = e.issues();
    if (std::none_of(issues.begin(), issues.end(), [&](const ScenarioIssue& i) { return i.file == file; }))
      throw;
    for (std::size_t k = options.overrides.size(); k-- > 0;) {
      LoadOptions without = options;
      without.overrides.erase(without.overrides.begin() + static_cast<std::ptrdiff_t>(k));
      if (k < without.sources.size())
        without.sources.erase(without.sources.begin() + static_cast<std::ptrdiff_t>(k));
      try {
        load(doc, file, without);
      } catch (const ScenarioError&) {
        continue;
      }
      for (auto& issue : issues)
        if (issue.file == file) issue.file = source_of(options, k);
      break;
    }
    throw ScenarioError(issues);
  }
}

}  // namespace

std::vector<std::uint8_t> key_of(const AppSpec& app) {
  return app.key_seed ? runtime::draw_key(app.functionality, *app.key_seed) : app.key;
}

Scenario load_scenario_file(const std::string& path, const LoadOptions& options) {
  return finish(read_ordered_json_file(path), path, options);
}

Scenario load_scenario_text(std::string_view text, std::string_view name, const LoadOptions& options) {
  return finish(parse_ordered_json_text(text, name), std::string(name), options);
}

}  // namespace rsoc::platform
