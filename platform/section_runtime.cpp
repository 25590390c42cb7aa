// Configuration unit: sections runtime and software: the OS runtime (policy, caching, recovery, prefetching,
// drivers, scheduler, the DMA data path) and the software implementations' costs. Its schema and its
// resolution (platform/scenario_sections.h).
#include <algorithm>
#include <filesystem>

#include "models/desrnd_extension.h"
#include "models/rtl_core.h"
#include "platform/scenario_sections.h"
#include "runtime/drivers.h"
#include "runtime/extension_software.h"
#include "runtime/policy.h"
#include "runtime/prefetch.h"
#include "runtime/rsa_work.h"
#include "runtime/scheduler.h"
#include "runtime/slot_table.h"
#include "runtime/software_program.h"

namespace rsoc::platform::sections {

namespace {

// A program the instruction-set CPU runs (software.<f>.program, runtime.driver.programs.<f>): its ELF, its
// entry function (`entry_doc`), its instruction bound; and `more`.
Schema program_schema(const std::string& entry_doc, std::vector<Schema::Field> more = {}) {
  std::vector<Schema::Field> fields{
      {"elf", Schema::string().min_length(1).doc(
                  "the RV32IMC ELF: a path relative to the scenario's folder, or the file name of one of "
                  "rsoc's programs (built from scenarios/software, e.g. aes128.elf)")},
      {"entry", Schema::string().min_length(1).doc(entry_doc)},
      {"max_instructions", Schema::integer()
                               .min(1)
                               .max(1e15)
                               .default_value(10000000000LL)
                               .doc("a call that runs more instructions is an error")},
  };
  for (Schema::Field& f : more) fields.push_back(std::move(f));
  return Schema::object(std::move(fields));
}

// runtime.driver: the costs of the OS drivers of the cores.
Schema driver_schema() {
  return Schema::object({
      {"cycles_per_request",
       cycles(0, 1000000000000LL).doc("CPU cycles of driver work per hardware request")},
      {"prepare_cycles_per_request",
       cycles(0, 1000000000000LL)
           .doc("CPU cycles preparing a hardware request before it takes a slot "
                "(padding, number conversion: work that needs no core)")},
      {"cycles_per_block",
       cycles(0, 1000000000000LL)
           .doc("CPU cycles of driver work per block (one execution, whatever its size)")},
      {"cycles_per_cipher_block",
       cycles(0, 1000000000000LL)
           .doc("CPU cycles of driver work per cipher block (modexp, RSA: per message) of a block: the PIO "
                "loop's work around its register accesses, or placing it in the DMA buffer")},
      {"poll_loop_cycles", cycles(0, 1000000).doc("CPU cycles around each core status read")},
      {"programs",
       Schema::map(program_schema("the symbol of the driver function (its arguments: scenarios/software/"
                                  "README.md; core_driver.elf has aes128_core_pio, des_core_pio and "
                                  "tdes_core_pio)")
                       .doc("the driver of the functionality's core: a program and its entry"))
           .key_name("functionality")
           .default_value(nlohmann::json::object())
           .doc(
               "drivers that are code, by functionality (aes128, des, 3des: the cipher cores): a CPU with "
               "model iss runs the entry for every hardware request in place of the driver model's PIO path, "
               "its register accesses through the bus models; cycles_per_request and cycles_per_block are "
               "then the OS's work around the call, the code's own cycles replace cycles_per_cipher_block "
               "and poll_loop_cycles (measured at load for the estimate: stats driver_program_*)")},
      {"max_polls",
       Schema::integer().min(1).max(1e12).default_value(1000000).doc("status reads before a request fails")},
      {"pio_timing",
       Schema::enumeration(runtime::kPioTimingNames.names())
           .default_value("burst")
           .doc("pio: word puts every cipher block's words through the bus models; burst the first of each "
                "request, and replays it for the others across its blocks (the same times and counts unless "
                "something else uses the path meanwhile; through an FMC bus always word by word)")},
      {"data_path", Schema::enumeration(kDataPathNames.names())
                        .default_value("pio")
                        .doc("how blocks reach the cores: the CPU writes and reads the core's registers "
                             "(pio), or a DMA engine streams them through the core's FIFO windows (dma)")},
      {"dma", Schema::object(
                  {
                      {"engine",
                       Schema::string().doc(
                           "name of the DMA engine, or of a DMA entry with count: then the core in "
                           "the i-th slot uses its engine i mod count, each with its share of the buffer")},
                      {"memory", Schema::string().doc("name of the memory holding the buffer")},
                      {"address", Schema::address().doc("CPU address of the buffer (input, then results)")},
                      {"size_kib",
                       Schema::number().unit("KiB").exclusive_min(0).max(1048576).default_value(16.0).doc(
                           "buffer size: a piece of a request is at most half of it")},
                  })
                  .nullable()
                  .default_value(nullptr)
                  .doc("data_path dma: the engine and the RAM buffer it moves blocks through")},
  });
}

// runtime.scheduler: the OS scheduler.
Schema scheduler_schema() {
  return Schema::object({
      {"mode",
       Schema::enumeration(runtime::kSchedulingModeNames.names())
           .default_value("preemptive")
           .doc("preemptive: priorities and round-robin time slices; cooperative: a process runs until it "
                "yields, sleeps or waits (and yields while it polls a core)")},
      {"time_slice_us", Schema::number().unit("us").min(1).max(1e9).default_value(10000.0).doc(
                            "round-robin slice among processes of equal priority")},
      {"context_switch_cycles", cycles(0, 100000000).doc("CPU cycles of one switch between processes")},
      {"yield_cycles",
       cycles(0, 100000000)
           .doc("CPU cycles of a yield itself, switching or not (a cooperative tasker scanning "
                "its tasks); a switch costs context_switch_cycles more")},
  });
}

}  // namespace

// A value of section software: the cost of a software implementation.
Schema software_cost_schema() {
  Schema sw_extension = Schema::object({
      {"unit", Schema::enumeration({"desrnd"}).default_value("desrnd").doc("the CPU extension it uses")},
      {"integration",
       Schema::enumeration(runtime::kExtensionIntegrationNames.names())
           .default_value("inline_asm")
           .doc("c_module: the stack calls a module issuing the instructions once per DES pass; "
                "inline_asm: the instructions inside the DES/3DES routines")},
      {"load_cycles", cycles(1, 1000).doc("LD into a core or extension register")},
      {"store_cycles", cycles(1, 1000).doc("ST of an extension register")},
      {"move_cycles", cycles(1, 1000).doc("MOV of a core register into an extension register")},
      {"call_cycles",
       cycles(0, 100000).doc("c_module: one call of the module (call, prologue, epilogue, return)")},
      {"loop_cycles", cycles(0, 100000).doc("per block: pointers, counter, branch")},
  });
  return Schema::object({
      {"cycles_per_request", cycles(0, 1000000000000LL).doc("CPU cycles per request (call, setup, OS work)")},
      {"cycles_per_block",
       cycles(0, 1000000000000LL)
           .doc("CPU cycles per block, whatever its size: one execution's call and OS work (with an "
                "extension: besides its instructions)")},
      {"cycles_per_byte",
       Schema::number().unit("cycles").min(0).max(1000000).default_value(0.0).doc(
           "CPU cycles per byte of a block: the cipher's work (a block costs cycles_per_block + "
           "runtime.unit_bytes x cycles_per_byte, rounded to whole cycles)")},
      {"extension",
       sw_extension.nullable().default_value(nullptr).doc(
           "des/3des computed on a CPU extension unit; the routine's instruction mix per cipher block is "
           "added for every cipher block of a block; null: plain software")},
      {"scaled_from",
       Schema::enumeration(runtime::functionality_names())
           .nullable()
           .default_value(nullptr)
           .doc("derive the cost from another functionality's software on the same CPU: its cycles_per_block "
                "times the ratio of the two operations' big-number work as OpenSSL 0.9.8 does it "
                "(runtime/rsa_work.h: RSA private and public operations, e = 65537), added to "
                "cycles_per_block; null: none")},
      {"program",
       program_schema(
           "the symbol of the function that implements the functionality (its arguments: "
           "scenarios/software/README.md)",
           {{"reuse_equal_lengths",
             Schema::boolean().default_value(false).doc(
                 "the code's instruction path does not depend on its data (a block cipher): a call "
                 "costs what the first call of as many bytes and the same direction cost on that "
                 "CPU (when it stayed in its local memory), without running; its output is rsoc's "
                 "reference, which the first call's matched (stats: program_reused_calls)")}})
           .nullable()
           .default_value(nullptr)
           .doc("software that is code: a CPU with model iss runs the entry function for every request (its "
                "time what its instructions cost, its output what it wrote); cycles_per_request and "
                "cycles_per_block are then the OS's work around the call, and the estimate adds the "
                "program's cycles measured at load (cycles_per_byte must be 0); null: typed costs only")},
      {"smt_throughput",
       Schema::number().min(1).max(64).nullable().default_value(nullptr).doc(
           "this code's own gain from hardware threads sharing a core: what all of them running it compute "
           "together relative to one thread alone (a thread's speed follows the gain of the code it runs); "
           "null: the CPU's smt_throughput")},
  });
}

namespace {

// runtime.recovery: what the runtime does about the faults it detects.
Schema recovery_schema() {
  return Schema::object(
             {
                 {"configuration_retries",
                  Schema::integer().min(0).max(1000).default_value(0).doc(
                      "a configuration the port reports failed (its check) is tried again this many times")},
                 {"fallback",
                  Schema::enumeration(kFallbackNames.names())
                      .default_value("none")
                      .doc("a hardware request that cannot recover from a fault: fails (none), or runs "
                           "in software")},
                 {"verify_cycles_per_block",
                  Schema::integer().unit("cycles").min(0).max(1e12).default_value(0).doc(
                      "output checking after every hardware run, CPU cycles per block (0: off); a wrong "
                      "output "
                      "(an upset core) is configured again and run again")},
                 {"retire_after",
                  Schema::integer().min(0).max(1e9).default_value(0).doc(
                      "a slot that met this many faults is never used again; 0: never retired")},
                 {"watchdog_cycles",
                  Schema::integer().unit("cycles").min(0).max(1e12).default_value(0).doc(
                      "the drivers' watchdog: a status wait or a DMA transfer of a core that has not ended "
                      "this "
                      "many CPU cycles after it began is given up, and the core (hung) configured again; 0: "
                      "none")},
             })
      .doc("what the runtime does about the faults it detects (see section faults)");
}

// runtime.prefetch: configuration prefetching.
Schema prefetch_schema() {
  return Schema::object(
             {
                 {"predictor", Schema::enumeration(runtime::kPredictorNames.names())
                                   .default_value("none")
                                   .doc("which core to load ahead of its request: none; hint (each "
                                        "application's prefetch_hint); history (the most frequent "
                                        "successor of its last functionality, learned online)")},
                 {"priority", Schema::integer().min(0).max(99).default_value(5).doc(
                                  "priority of the prefetcher process (it copies bitstreams when the "
                                  "port is fed by the CPU)")},
             })
      .doc(
          "configuration prefetching: when the port is idle, load the core an application is "
          "expected to ask for next");
}

// runtime.contexts: the state a process keeps in the cores it uses.
Schema contexts_schema() {
  return Schema::object(
             {
                 {"first_use_cycles",
                  Schema::integer().unit("cycles").min(0).max(1e12).default_value(0).doc(
                      "CPU cycles a process spends on its first hardware request, before it prepares it: "
                      "opening the cores for itself (on the Cell: its SPU context created and its SPU "
                      "program "
                      "loaded, libspe2); 0: none")},
                 {"first_use_serialised",
                  Schema::boolean().default_value(false).doc(
                      "one process at a time sets up its first use, the others asleep until it is done")},
                 {"per_process",
                  Schema::boolean().default_value(false).doc(
                      "each process has its own context in a core, and a slot holds one at a time (Linux's "
                      "spufs multiplexing SPU contexts on the SPUs): a request finding another process's "
                      "context in its slot, or none yet, spends switch_us first; an idle slot that holds the "
                      "requester's context is taken first")},
                 {"switch_us",
                  Schema::number().unit("us").min(0).max(1e9).default_value(0.0).doc(
                      "per_process: the time the OS takes to save the context a slot holds and restore the "
                      "requester's, on the requester's CPU thread (busy on the device meanwhile)")},
             })
      .doc("the state a process keeps in the cores it uses (runtime/process_contexts.h)");
}

}  // namespace

// Section runtime: the OS runtime.
Schema runtime_section() {
  return Schema::object({
      {"policy",
       Schema::enumeration(runtime::kPolicyNames.names())
           .default_value("cost_model")
           .doc("how the manager chooses the implementation of each request (see scenarios/README.md)")},
      {"thresholds",
       Schema::map(Schema::integer().unit("blocks").min(1).max(1e12).doc("hardware from this many blocks"))
           .key_name("functionality")
           .default_value(nlohmann::json::object())
           .doc("policy threshold: block count from which hardware is chosen, by functionality (" +
                by_functionality() + ")")},
      {"unit_bytes",
       Schema::map(Schema::integer().unit("bytes").min(8).max(1048576).doc(
                       "bytes of one block: a whole number of the functionality's cipher blocks (modexp, "
                       "RSA: of its messages)"))
           .key_name("functionality")
           .default_value(nlohmann::json::object())
           .doc("the execution unit, by functionality (" + by_functionality() +
                "): a request is a number of blocks, each one execution "
                "on this many bytes; absent: one cipher block (aes128 16, des and 3des 8) or message "
                "(modexp, RSA)")},
      {"caching", Schema::boolean().default_value(true).doc(
                      "module caching: a configured core stays in its slot after its request")},
      {"replacement", Schema::enumeration(runtime::kReplacementNames.names())
                          .default_value("lru")
                          .doc("which idle core leaves when every usable slot holds another core")},
      {"when_no_slot", Schema::enumeration(kWhenNoSlotNames.names())
                           .default_value("wait")
                           .doc("when every usable slot is in use: wait for one, or run in software")},
      {"recovery", recovery_schema()},
      {"prefetch", prefetch_schema()},
      {"contexts", contexts_schema()},
      {"driver", driver_schema().doc("costs of the OS drivers of the cores")},
      {"scheduler",
       scheduler_schema().doc("the OS scheduler: one run queue for every hardware thread of every CPU")},
  });
}

void Resolver::data_path(const json& d, ScenarioParams& p) {
  const std::string ptr = "/runtime/driver/dma";
  if (!kDataPathNames.at(d["data_path"].get<std::string>())) return;
  for (std::size_t i = 0; i < p.cores.size(); ++i)
    if (p.cores[i].params.rtl && !p.cores[i].params.rtl->stream)
      issues_.add("/runtime/driver/data_path",
                  "core \"" + p.cores[i].name +
                      "\" is RTL with the register port alone: the DMA data path needs the stream port "
                      "(its rtl.protocol \"stream\"); expected \"pio\"");
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
        issues_.add(ptr + "/address", "buffer " + span(s.buffer, s.buffer_bytes) + " lies outside memory \"" +
                                          m.name + "\" " + span(m.base, m.params.size_bytes));
    for (const auto& c : p.cores)
      if (c.memory == s.memory && s.buffer < c.bitstream_address + c.bitstream_bytes &&
          c.bitstream_address < s.buffer + s.buffer_bytes)
        issues_.add(ptr + "/address", "buffer overlaps the bitstream of core \"" + c.name + "\"");
  }
  p.data_dma = s;
}

void Resolver::runtime(ScenarioParams& p) {
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
  p.runtime.prefetch.predictor = runtime::kPredictorNames.at(rt["prefetch"]["predictor"].get<std::string>());
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

void Resolver::unit_bytes(ScenarioParams& p, const json& units) {
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

void Resolver::contexts(ScenarioParams& p, const json& ctx) {
  p.runtime.contexts.first_use_cycles = u64(ctx["first_use_cycles"]);
  p.runtime.contexts.first_use_serialised = ctx["first_use_serialised"].get<bool>();
  p.runtime.contexts.per_process = ctx["per_process"].get<bool>();
  p.runtime.contexts.switch_time = sc_time(ctx["switch_us"].get<double>(), sc_core::SC_US);
  if (!p.runtime.contexts.per_process && ctx["switch_us"].get<double>() > 0)
    issues_.add("/runtime/contexts/switch_us",
                "a switch time without per-process contexts does nothing; expected per_process true, or 0");
}

void Resolver::driver_programs(ScenarioParams& p, const json& programs) {
  for (const auto& [name, prog] : programs.items()) {
    const std::string ptr = pointer_child("/runtime/driver/programs", name);
    const auto f = functionality_key(p, name, ptr);
    if (!f) continue;
    const models::CoreKind kind = runtime::info(*f).core;
    if (kind != models::CoreKind::kAes128 && kind != models::CoreKind::kDes) {
      issues_.add(ptr, name +
                           " is not computed by a cipher core (a driver program drives the AES-128, DES and "
                           "3DES cores: aes128, des, 3des)");
      continue;
    }
    if (p.data_dma) {
      issues_.add(ptr, "a driver program moves blocks by PIO (expected /runtime/driver/data_path \"pio\")");
      continue;
    }
    if (p.runtime.driver.watchdog_cycles) {
      issues_.add(ptr,
                  "the recovery watchdog times the driver model's waits, a driver program bounds its own "
                  "polls (expected /runtime/recovery/watchdog_cycles 0)");
      continue;
    }
    const CpuSpec* cpu = first_iss_cpu(p, ptr, "a driver that is code");
    if (!cpu) continue;
    std::shared_ptr<runtime::SoftwareProgram> code = program_code(prog, ptr);
    if (!code) continue;
    try {
      p.runtime.driver_programs[*f] = runtime::ProgramRunner::measure_driver(code, *cpu->params.iss, *f);
    } catch (const std::exception& e) {
      issues_.add(ptr, measured_on(*cpu, ptr, e));
    }
  }
}

void Resolver::driver(ScenarioParams& p, const json& d) {
  p.runtime.driver.cycles_per_request = u64(d["cycles_per_request"]);
  p.runtime.driver.prepare_cycles_per_request = u64(d["prepare_cycles_per_request"]);
  p.runtime.driver.cycles_per_block = u64(d["cycles_per_block"]);
  p.runtime.driver.cycles_per_cipher_block = u64(d["cycles_per_cipher_block"]);
  p.runtime.driver.poll_loop_cycles = u64(d["poll_loop_cycles"]);
  p.runtime.driver.max_polls = u64(d["max_polls"]);
  p.runtime.driver.pio_timing = runtime::kPioTimingNames.at(d["pio_timing"].get<std::string>());
  data_path(d, p);
  driver_programs(p, d["programs"]);
  if (!p.data_dma)
    for (const std::string& ptr : stream_only_cores_)
      issues_.add(ptr,
                  "a core with the streaming windows only needs the DMA data path; expected "
                  "runtime.driver.data_path dma, or interface pio");
}

void Resolver::scheduler(ScenarioParams& p, const json& s) {
  p.scheduler.mode = runtime::kSchedulingModeNames.at(s["mode"].get<std::string>());
  p.scheduler.time_slice = sc_time(s["time_slice_us"].get<double>(), sc_core::SC_US);
  p.scheduler.context_switch_cycles = u64(s["context_switch_cycles"]);
  p.scheduler.yield_cycles = u64(s["yield_cycles"]);
}

void Resolver::software(ScenarioParams& p) {
  for (const auto& [name, cost] : doc_["software"].items()) {
    const auto f = functionality_key(p, name, pointer_child("/software", name));
    if (!f) continue;
    runtime::SoftwareCost sw;
    sw.cycles_per_request = u64(cost["cycles_per_request"]);
    sw.cycles_per_block = u64(cost["cycles_per_block"]);
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
    if (const json& prog = cost["program"]; !prog.is_null()) {
      const std::string ptr = "/software/" + name;
      if (sw.cycles_per_byte != 0)
        issues_.add(ptr + "/cycles_per_byte",
                    "measured from the program (expected 0 with /software/" + name + "/program)");
      if (sw.extension)
        issues_.add(ptr + "/extension",
                    "a program's custom instructions reach the CPU's unit themselves (expected null)");
      program(p, *f, prog, ptr + "/program", sw);
    }
    p.runtime.software[*f] = sw;
  }
}

std::string Resolver::program_file(const std::string& elf, const std::string& ptr) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path path(elf);
  std::vector<fs::path> tried;
  if (path.is_absolute()) {
    tried.push_back(path);
  } else {
    tried.push_back(fs::path(folder_) / path);
    if (path.filename() == path) tried.push_back(fs::path(software_dir()) / path);
  }
  for (const fs::path& t : tried)
    if (fs::is_regular_file(t, ec)) return t.string();
  std::string where;
  for (const fs::path& t : tried) where += (where.empty() ? "" : ", ") + t.string();
  issues_.add(ptr,
              "no program file \"" + elf + "\" (looked for " + (where.empty() ? "nothing" : where) + ")");
  return {};
}

const CpuSpec* Resolver::first_iss_cpu(const ScenarioParams& p, const std::string& ptr,
                                       const std::string& what) {
  const auto cpu = std::find_if(p.cpus.begin(), p.cpus.end(), [](const CpuSpec& c) { return c.params.iss; });
  if (cpu != p.cpus.end()) return &*cpu;
  issues_.add(ptr, what + " needs a CPU with model \"iss\" (set /platform/cpus/0/model)");
  return nullptr;
}

std::string Resolver::measured_on(const CpuSpec& cpu, const std::string& ptr, const std::exception& e) {
  std::string why = e.what();  // its key first, as a run's errors say it: here the issue's pointer says it
  if (why.rfind(ptr + ": ", 0) == 0) why.erase(0, ptr.size() + 2);
  return "measured on CPU \"" + cpu.name + "\": " + why;
}

std::shared_ptr<runtime::SoftwareProgram> Resolver::program_code(const json& prog, const std::string& ptr) {
  const std::string path = program_file(prog["elf"], ptr + "/elf");
  if (path.empty()) return nullptr;
  auto program = std::make_shared<runtime::SoftwareProgram>();
  try {
    program->image = std::make_shared<const models::ElfImage>(models::ElfImage::load(path));
  } catch (const models::ElfError& e) {
    issues_.add(ptr + "/elf", e.what());
    return nullptr;
  }
  program->entry = prog["entry"];
  program->max_instructions = u64(prog["max_instructions"]);
  program->key = ptr;
  const models::ElfImage::Symbol* entry = program->image->find(program->entry);
  if (!entry || !(entry->function || entry->label)) {
    std::vector<std::string> functions;
    for (const auto& s : program->image->symbols())
      if (s.function && functions.size() < 12) functions.push_back(s.name);
    issues_.add(ptr + "/entry", "no function \"" + program->entry + "\" in " + path +
                                    " (its functions: " + listed(functions) + ")");
    return nullptr;
  }
  program->entry_address = entry->address;
  return program;
}

void Resolver::program(const ScenarioParams& p, runtime::Functionality f, const json& prog,
                       const std::string& ptr, runtime::SoftwareCost& sw) {
  const CpuSpec* cpu = first_iss_cpu(p, ptr, "software that is code");
  if (!cpu) return;
  std::shared_ptr<runtime::SoftwareProgram> program = program_code(prog, ptr);
  if (!program) return;
  program->reuse_equal_lengths = prog["reuse_equal_lengths"].get<bool>();
  const std::string& path = program->image->path();
  // One block and two: the call's cost and each block's, checked against the reference.
  const std::vector<std::uint8_t> key = runtime::draw_key(f, 1);
  const std::uint64_t unit = runtime::unit_bytes(p.runtime.unit_bytes, f);
  std::unique_ptr<models::ExtensionUnit> unit_of_cpu;
  if (cpu->desrnd) unit_of_cpu = std::make_unique<models::DesrndExtension>(*cpu->desrnd);
  runtime::ProgramCost cost[2];
  for (std::uint64_t blocks : {1, 2}) {
    std::vector<std::uint8_t> data(unit * blocks), out;
    runtime::draw_data(blocks, data);
    runtime::shape_data(f, data);
    try {
      cost[blocks - 1] = runtime::ProgramRunner::measure(*program, *cpu->params.iss, unit_of_cpu.get(), key,
                                                         data, true, &out);
    } catch (const std::exception& e) {
      issues_.add(ptr, measured_on(*cpu, ptr, e));
      return;
    }
    if (out != runtime::reference_output(f, key, data, true)) {
      issues_.add(ptr, program->entry + " of " + path + " encrypts " + std::to_string(blocks) +
                           " block(s) wrongly (expected what rsoc's reference of " + runtime::info(f).name +
                           " computes)");
      return;
    }
  }
  const std::uint64_t per_block = cost[1].cycles - cost[0].cycles;
  program->cycles_per_block = per_block;
  program->cycles_per_request = cost[0].cycles > per_block ? cost[0].cycles - per_block : 0;
  sw.program = std::move(program);
}

void Resolver::scaled_software(ScenarioParams& p) {
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
      issues_.add(ptr, work ? from + " has no counted big-number work; expected one of " + counted
                            : name + " has no counted big-number work to scale by (scaled_from applies to " +
                                  counted + ")");
    } else if (f == g) {
      issues_.add(ptr, name + " cannot be scaled from itself; expected another functionality");
    } else if (!software.contains(from)) {
      issues_.add(ptr, "expected a functionality with its own software cost (define /software/" + from + ")");
    } else if (!software[from]["scaled_from"].is_null()) {
      issues_.add(ptr, "/software/" + from + " is scaled itself; expected a calibrated cost");
    } else {
      p.runtime.software[f].cycles_per_block += static_cast<std::uint64_t>(
          std::llround(static_cast<double>(p.runtime.software.at(g).cycles_per_block) * *work / *base_work));
    }
  }
}

}  // namespace rsoc::platform::sections
