// Configuration unit: section platform: buses, CPUs, memories, DMA engines, slots, the configuration port,
// UARTs, and the address maps they make. Its schema and its resolution (platform/scenario_sections.h).
#include <algorithm>

#include "models/fmc_bus.h"
#include "models/ip_core.h"
#include "platform/scenario_sections.h"

namespace rsoc::platform::sections {

namespace {

// The element of platform.cpus.
Schema cpu_schema() {
  return Schema::object({
      {"name", name_field("CPU")},
      {"clock_mhz", clock(100).doc("CPU clock")},
      {"hw_threads",
       Schema::integer().min(1).max(64).default_value(1).doc("hardware threads (execution contexts)")},
      {"mmio_cycles",
       cycles(1, 1000).doc("CPU cycles to issue one load/store to a device, on top of the bus time")},
      {"smt_throughput",
       Schema::number().min(0).max(64).default_value(0.0).doc(
           "hardware threads sharing one core: what all of them compute together relative to one thread "
           "alone (e.g. 1.19); 0: independent threads")},
      {"stream_chunk_words", Schema::integer().unit("words").min(1).max(1 << 20).default_value(1024).doc(
                                 "granularity of CPU copy loops (how often other traffic can interleave)")},
      {"bus", bus_ref("the CPU's initiator port is bound to")},
      {"model",
       Schema::enumeration(kCpuModelNames.names())
           .default_value("cost")
           .doc(
               "cost: software costs the cycles the scenario types; iss: besides, an RV32IMC instruction-set "
               "model runs software that is code (software.<f>.program) on the Unicorn emulator, every "
               "instruction timed by timing_profile, its accesses beyond local_memory through the buses")},
      {"timing_profile",
       Schema::enumeration(models::timing_profile_names())
           .nullable()
           .default_value(nullptr)
           .doc("iss: the soft core whose published cycles per instruction class time it (their sources: "
                "models/riscv_timing.cpp); null with model cost")},
      {"local_memory",
       Schema::object(
           {
               {"base", Schema::address()
                            .default_value("0x10000000")
                            .doc("its first byte (4 KiB aligned), where the programs are linked "
                                 "(scenarios/software/rsoc_iss.ld)")},
               {"size_kib", Schema::integer().unit("KiB").min(4).max(1 << 20).default_value(256).doc(
                                "its size, a multiple of 4 KiB: code, data, the request's buffers "
                                "and the stack")},
           })
           .doc("iss: the local memory of every process's hart (single-cycle, outside the buses' address "
                "maps)")},
      {"extensions",
       Schema::object(
           {
               {"desrnd",
                Schema::object(
                    {
                        {"rounds_per_instruction", Schema::integer().min(1).max(2).default_value(1).doc(
                                                       "DES rounds one desrnd performs: 1 or 2")},
                        {"cycles_per_instruction", cycles(1, 1000).min(1).doc("CPU cycles of one desrnd")},
                    })
                    .nullable()
                    .default_value(nullptr)
                    .doc(
                        "the desrnd DES-round instruction with extension registers C, D, L, R (the published "
                        "design: scenarios/desrnd_3des.md); null: none")},
           })
           .doc("instruction-set extension units of the CPU")},
  });
}

// The element of platform.buses (an FMC bus with its timing and software costs).
Schema bus_schema() {
  Schema fmc = Schema::object({
      {"mode", Schema::enumeration(models::kFmcModeNames.names())
                   .default_value("async")
                   .doc("async: setup/data/hold phases; sync: a fixed latency, in bus cycles")},
      {"addr_setup_cycles", cycles(1, 255).doc("async: address setup phase, bus cycles")},
      {"data_cycles", cycles(2, 255).doc("async: data phase, bus cycles")},
      {"hold_cycles", cycles(1, 255).doc("async: hold phase, bus cycles")},
      {"sync_latency_cycles", cycles(9, 255).doc("sync: bus cycles per word")},
      {"nwait", Schema::enumeration(models::kFmcNwaitNames.names())
                    .default_value("polled")
                    .doc("polled: the CPU polls NWAIT as a GPIO after every access; hardware: the controller "
                         "waits for it")},
      {"poll_cycles", cycles(10, 100000).doc("polled: CPU cycles of one NWAIT poll (GPIO read and test)")},
      {"max_polls", Schema::integer().min(1).max(1000000).default_value(10).doc(
                        "polled: polls before the access fails with an error response")},
      {"double_read",
       Schema::boolean().default_value(false).doc("every read is done twice, each followed by its polls")},
      {"write_software_cycles",
       cycles(0, 100000).doc(
           "CPU cycles of the driver's software per word written (calls, loop), polls apart")},
      {"read_software_cycles",
       cycles(0, 100000).doc("CPU cycles of the driver's software per word read (calls, loop), polls apart")},
      {"byteswap_cycles",
       cycles(0, 100000).doc("CPU cycles per word for software byte swapping (0: in hardware)")},
      {"timing",
       Schema::enumeration(models::kFmcTimingNames.names())
           .default_value("burst")
           .doc("burst: one annotated delay per burst; word: one wait() per word (same times, more events)")},
  });

  Schema window = Schema::object({
      {"parent", bus_ref("this bus hangs from (through a bridge)")},
      {"base", Schema::address().doc("CPU address where the bus's window starts")},
      {"size_kib", Schema::integer().unit("KiB").min(1).max(4194304).doc("size of the window")},
  });

  return Schema::object({
      {"name", name_field("bus")},
      {"kind", Schema::enumeration(kBusKindNames.names())
                   .default_value("onchip")
                   .doc("on-chip shared bus, or FMC-like external bus")},
      {"clock_mhz", clock(100).doc("bus clock")},
      {"latency_cycles",
       cycles(1, 1000).doc("onchip: arbitration and address phase per transaction, bus cycles")},
      {"cycles_per_word", cycles(1, 1000).doc("onchip: data phase per 32-bit word, bus cycles")},
      {"window",
       Schema::object(window.fields())
           .nullable()
           .default_value(nullptr)
           .doc("where this bus is mapped in its parent bus; null for a bus the CPU is bound to directly")},
      {"fmc", fmc.doc("FMC timing and CPU-side software costs (kind fmc only)")},
  });
}

// The element of platform.memories.
Schema memory_schema() {
  return Schema::object({
      {"name", name_field("memory")},
      {"bus", bus_ref("the memory is mapped on")},
      {"base", Schema::address().doc("CPU address of the first byte")},
      {"size_kib", Schema::integer().unit("KiB").min(1).max(4194304).doc("capacity")},
      {"clock_mhz", clock(100).doc("memory clock")},
      {"latency_cycles", cycles(1, 100000).doc("first-word latency, memory cycles")},
      {"cycles_per_word", cycles(1, 100000).doc("per 32-bit word, memory cycles")},
  });
}

// The element of platform.dmas.
Schema dma_schema() {
  return Schema::object({
      {"name", name_field("DMA engine")},
      {"bus", bus_ref("the DMA engine's registers and initiator port are on")},
      {"base", Schema::address().doc("CPU address of its registers (32 bytes)")},
      {"clock_mhz", clock(100).doc("DMA clock")},
      {"cycles_per_word", cycles(1, 100000).doc("DMA cycles per 32-bit word moved")},
      {"setup_cycles", cycles(10, 1000000).doc("DMA cycles from START to the first word")},
      {"chunk_words",
       Schema::integer().unit("words").min(1).max(1 << 20).default_value(1024).doc("burst size")},
      {"count", Schema::integer().min(1).max(64).default_value(1).doc(
                    "identical engines this entry stands for (one per co-processor): with count > 1 they are "
                    "named <name>0, <name>1, ... with registers every 32 bytes from base")},
  });
}

// Platform.config_port.
Schema config_port_schema() {
  return Schema::object({
      {"bus", bus_ref("the configuration port is mapped on")},
      {"base", Schema::address().doc("CPU address of its registers and data window (8 KiB)")},
      {"clock_mhz", clock(100).doc("port clock")},
      {"width_bits", Schema::integer().unit("bits").min(1).max(256).default_value(32).doc(
                         "data width: bits taken per port cycle")},
      {"access_cycles", cycles(1, 1000).doc("port cycles per register access")},
      {"feed", Schema::enumeration(kPortFeedNames.names())
                   .default_value("cpu")
                   .doc("who copies the bitstream into the port")},
      {"cpu_copy_cycles_per_word",
       cycles(120, 1000000).doc("feed cpu: CPU cycles of the copy loop per 32-bit word")},
      {"dma", Schema::string().nullable().default_value(nullptr).doc("feed dma: name of the DMA engine")},
  });
}

// The element of platform.slots.
Schema slot_schema() {
  return Schema::object({
      {"name", name_field("slot")},
      {"bus", bus_ref("the slot's register window is mapped on")},
      {"base", Schema::address().doc("CPU address of the slot's register window")},
      {"window_kib",
       Schema::integer().unit("KiB").min(1).max(1048576).default_value(8).doc("size of the register window")},
      {"count",
       Schema::integer().min(1).max(64).default_value(1).doc(
           "identical slots this entry stands for: with count > 1 they are named <name>0, <name>1, ... "
           "and their windows follow one another from base")},
      {"capacity_kib", Schema::number().unit("KiB").exclusive_min(0).max(1048576).doc(
                           "largest partial bitstream the region takes")},
      {"reconfigurable",
       Schema::boolean().default_value(true).doc("false: a static slot, configured at boot and never again")},
      {"core", Schema::string().nullable().default_value(nullptr).doc(
                   "core configured at boot (required for a static slot)")},
      {"clock_mhz", clock(100).doc("fabric clock of the slot")},
  });
}

// The element of platform.uarts.
Schema uart_schema() {
  return Schema::object({
      {"name", name_field("UART")},
      {"baud", Schema::number().unit("baud").min(1).max(1e10).default_value(115200.0).doc(
                   "line rate, each direction (from 1 baud, so that a byte's time is one SystemC holds)")},
      {"bits_per_byte",
       Schema::integer().min(1).max(64).default_value(10).doc("bits on the line per byte (8N1: 10)")},
  });
}

}  // namespace

// Section platform: the hardware.
Schema platform_section() {
  return Schema::object({
      {"quantum_ns", Schema::number().unit("ns").min(1).max(1e9).default_value(10000.0).doc(
                         "global TLM quantum: how far an initiator may run ahead of the kernel")},
      {"cpus", Schema::array(cpu_schema()).min_items(1).max_items(16).doc("soft CPUs")},
      {"buses", Schema::array(bus_schema()).min_items(1).max_items(64).doc("on-chip and external buses")},
      {"memories", Schema::array(memory_schema())
                       .max_items(64)
                       .default_value(nlohmann::json::array())
                       .doc("memories (bitstream storage, buffers)")},
      {"dmas",
       Schema::array(dma_schema()).max_items(64).default_value(nlohmann::json::array()).doc("DMA engines")},
      {"config_port", Schema::object(config_port_schema().fields())
                          .nullable()
                          .default_value(nullptr)
                          .doc("the FPGA configuration port (ICAP-like); null when nothing is reconfigured")},
      {"slots", Schema::array(slot_schema())
                    .max_items(256)
                    .default_value(nlohmann::json::array())
                    .doc("FPGA slots (reconfigurable regions or static regions)")},
      {"cores", Schema::array(core_schema())
                    .max_items(256)
                    .default_value(nlohmann::json::array())
                    .doc("IP core designs and their bitstreams")},
      {"uarts", Schema::array(uart_schema())
                    .max_items(16)
                    .default_value(nlohmann::json::array())
                    .doc("serial links between hosts and the SoC (full duplex)")},
  });
}

models::FmcBusParams Resolver::fmc_params(const json& f, const sc_core::sc_time& clock) {
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

void Resolver::buses(const json& pl, ScenarioParams& p) {
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

void Resolver::cpus(const json& pl, ScenarioParams& p) {
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
    iss(c, ptr, s);
    if (known("buses", s.bus, ptr + "/bus", "bus")) {
      const BusSpec* b = bus(p, s.bus);
      if (b && !b->parent.empty())
        issues_.add(ptr + "/bus", "the CPU must be bound to a root bus, but \"" + s.bus + "\" hangs from \"" +
                                      b->parent + "\" (bind the CPU to \"" + b->parent + "\")");
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

void Resolver::iss(const json& c, const std::string& ptr, CpuSpec& s) {
  const bool iss = kCpuModelNames.at(c["model"].get<std::string>());
  const json& local = c["local_memory"];
  if (!iss) {
    if (!c["timing_profile"].is_null())
      issues_.add(ptr + "/timing_profile", "a timing profile applies to model \"iss\" only (expected null)");
    return;
  }
  if (c["timing_profile"].is_null()) {
    issues_.add(ptr + "/timing_profile", "model \"iss\" needs a timing profile (one of " +
                                             listed(models::timing_profile_names()) + ")");
    return;
  }
  models::IssParams params{*models::find_timing_profile(c["timing_profile"]), {}};
  const std::uint64_t base = u64(local["base"]), size = u64(local["size_kib"]) * 1024;
  if (base % 4096 || size % 4096 || base + size > 0x100000000ULL) {
    issues_.add(ptr + "/local_memory",
                "expected whole 4 KiB pages inside the 32-bit address space, got " + span(base, size));
    return;
  }
  params.memory = models::LocalMemory{static_cast<std::uint32_t>(base), static_cast<std::uint32_t>(size)};
  s.params.iss = params;
}

void Resolver::uarts(const json& pl, ScenarioParams& p) {
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

void Resolver::memories(const json& pl, ScenarioParams& p) {
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

void Resolver::dmas(const json& pl, ScenarioParams& p) {
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
        device(copy.name, copy.bus, "/platform/dmas/" + std::to_string(i), copy.base, models::dma_reg::kSize);
      p.dmas.push_back(copy);
    }
  }
}

void Resolver::slots(const json& pl, ScenarioParams& p) {
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

void Resolver::config_port(const json& pl, ScenarioParams& p) {
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

void Resolver::address_maps(const ScenarioParams& p) {
  std::map<std::string, models::AddressMap> maps;
  std::map<std::string, std::string> pointer_of;
  for (std::size_t i = 0; i < p.cpus.size(); ++i) {  // a hart's local memory hides what lies behind it
    if (!p.cpus[i].params.iss) continue;
    const models::LocalMemory& m = p.cpus[i].params.iss->memory;
    for (const auto& d : devices_)
      if (d.base < m.end() && m.base < d.base + d.size)
        issues_.add("/platform/cpus/" + std::to_string(i) + "/local_memory/base",
                    "the local memory " + span(m.base, m.size) + " overlaps \"" + d.name + "\" " +
                        span(d.base, d.size) + ", which the CPU could not reach (expected another base)");
  }
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

}  // namespace rsoc::platform::sections
