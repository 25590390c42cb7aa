#include "platform/scenario_schema.h"

#include "models/core_kinds.h"
#include "models/crypto/block_function.h"
#include "models/fmc_bus.h"
#include "models/scrubber.h"
#include "platform/scenario.h"
#include "runtime/drivers.h"
#include "runtime/extension_software.h"
#include "runtime/functionality.h"
#include "runtime/hsm_firmware.h"
#include "runtime/policy.h"
#include "runtime/prefetch.h"
#include "runtime/scheduler.h"
#include "runtime/slot_table.h"

namespace rsoc::platform {

namespace {

Schema name_field(const char* what) {
  return Schema::string().pattern_identifier().doc(std::string("unique name of the ") + what);
}
// From 1 kHz: a period must be a time the simulation holds (a clock of 1e-12 MHz has a period past 2^57 ps).
Schema clock(double mhz) {
  return Schema::number().unit("MHz").min(0.001).max(100000).default_value(mhz);
}
Schema cycles(long long def, long long max = 1000000000) {
  return Schema::integer().unit("cycles").min(0).max(static_cast<double>(max)).default_value(def);
}
Schema bus_ref(const char* what) {
  return Schema::string().pattern_identifier().doc(std::string("name of the bus ") + what);
}

// A process's affinity (scenarios/README.md, "Several CPUs").
Schema cpu_ref() {
  return Schema::string().pattern_identifier().nullable().default_value(nullptr).doc(
      "name of the CPU (platform.cpus) it runs on; null: any CPU, wherever a hardware thread is free "
      "(software "
      "that uses a CPU extension: any CPU that has it)");
}
Schema hw_thread_ref() {
  return Schema::integer().min(0).max(63).nullable().default_value(nullptr).doc(
      "hardware thread it is pinned to, of cpu (or of the only CPU); null: any thread of its CPU");
}

Schema energy_section();
// A mode's names after "none" (the feature off).
std::vector<std::string> with_none(std::vector<std::string> names) {
  names.insert(names.begin(), "none");
  return names;
}

// The built-in functionalities, listed.
std::string builtin_functionalities() {
  std::string builtins;
  for (const auto& n : runtime::functionality_names()) builtins += (builtins.empty() ? "" : ", ") + n;
  return builtins;
}
// What a key by functionality may name.
std::string by_functionality() {
  return "built-in: " + builtin_functionalities() + "; or one a custom core serves";
}

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
      {"double_read", Schema::boolean().default_value(false).doc(
                          "every read is done twice, each followed by its polls")},
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

// A key of the core kinds' own parameters (`params`: every kind's that takes it, which agree on its values).
Schema kind_param(const std::vector<const models::KindParam*>& params) {
  const models::KindParam& k = *params[0];
  Schema s = k.choices
                 ? Schema::enumeration(k.choices()).default_value(k.default_choice)
                 : Schema::integer().min(k.min).max(k.max).default_value(static_cast<long long>(k.fallback));
  if (k.unit) s.unit(k.unit);
  std::string doc;
  for (const models::KindParam* p : params) doc += std::string(doc.empty() ? "" : "; ") + p->doc;
  return s.doc(doc);
}

// The element of platform.cores: a core design, its bitstream and (custom) what it computes.
Schema core_schema() {
  Schema bitstream = Schema::object({
      {"memory", Schema::string().doc("name of the memory holding the partial bitstream")},
      {"address", Schema::address().doc("CPU address of the bitstream in that memory")},
      {"size_kib",
       Schema::number().unit("KiB").exclusive_min(0).max(1048576).doc("size of the partial bitstream")},
  });

  std::string kinds;
  for (const models::CoreKindEntry& k : models::core_kinds())
    kinds += std::string(kinds.empty() ? "" : "; ") + k.name + ": " + k.doc;
  Schema custom = Schema::object({
      {"functionality",
       Schema::string().doc("name of the functionality the core serves (applications and /software use it); "
                            "not a built-in one")},
      {"computes", Schema::enumeration(crypto::block_function_names())
                       .doc("what it computes on each block, checked against its reference "
                            "(none: timing only, outputs not checked)")},
      {"input_bytes", Schema::integer().unit("bytes").min(4).max(1 << 20).doc(
                          "bytes of one block it takes (a whole number of 32-bit words)")},
      {"output_bytes",
       Schema::integer().unit("bytes").min(4).max(1 << 20).nullable().default_value(nullptr).doc(
           "bytes it gives per block; null: what `computes` gives (copy, xor_key: input_bytes; crc32: 4; "
           "sha256: 32; none: input_bytes)")},
      {"key_bytes", Schema::integer().unit("bytes").min(0).max(64).default_value(0).doc(
                        "bytes of the key a request gives (xor_key: at least 4; the others take none)")},
      {"interface", Schema::enumeration(kCustomInterfaceNames.names())
                        .default_value("pio")
                        .doc("pio: KEY, BLOCK and RESULT registers (blocks up to 2048 bytes) besides the "
                             "streaming windows; "
                             "stream: the streaming windows only (runtime.driver.data_path dma)")},
  });

  std::vector<Schema::Field> fields = {
      {"name", name_field("core design")},
      {"type", Schema::enumeration(models::core_kind_names()).doc("the core kind: " + kinds)},
      {"clock_mhz", clock(100).doc("core clock")},
      {"access_cycles", cycles(1, 10000).doc("core cycles per register word access")},
      {"key_setup_cycles", cycles(0).doc("core cycles of CTRL.INIT (key expansion; not custom cores)")},
      {"block_cycles",
       cycles(10).doc("core cycles per block (AES, custom: the latency of one block) or per DES pass (3DES: "
                      "three passes)")},
      {"initiation_interval_cycles",
       cycles(0).doc("pipelined cores: core cycles between two blocks entering the core when streamed "
                     "(at most block_cycles); 0: one block after the other")},
  };
  // the kinds' own (models/core_kinds.h)
  for (const auto& params : models::kind_params_by_key())
    fields.push_back({params[0]->key, kind_param(params)});
  fields.push_back({"fifo_words", Schema::integer().unit("words").min(2).max(1 << 20).default_value(1024).doc(
                                      "streaming interface: input and result words the core holds")});
  fields.push_back({"bitstream", bitstream.doc("the partial bitstream that configures this core")});
  fields.push_back({"custom", Schema::object(custom.fields())
                                  .nullable()
                                  .default_value(nullptr)
                                  .doc("type custom: the functionality it serves and what it computes "
                                       "(required for a custom core, refused for the others)")});
  return Schema::object(std::move(fields));
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
      {"smt_throughput",
       Schema::number().min(1).max(64).nullable().default_value(nullptr).doc(
           "this code's own gain from hardware threads sharing a core: what all of them running it compute "
           "together relative to one thread alone (a thread's speed follows the gain of the code it runs); "
           "null: the CPU's smt_throughput")},
  });
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
      {"recovery",
       Schema::object(
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
                    "output checking after every hardware run, CPU cycles per block (0: off); a wrong output "
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
           .doc("what the runtime does about the faults it detects (see section faults)")},
      {"prefetch",
       Schema::object(
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
           .doc("configuration prefetching: when the port is idle, load the core an application is "
                "expected to ask for next")},
      {"contexts",
       Schema::object(
           {
               {"first_use_cycles",
                Schema::integer().unit("cycles").min(0).max(1e12).default_value(0).doc(
                    "CPU cycles a process spends on its first hardware request, before it prepares it: "
                    "opening the cores for itself (on the Cell: its SPU context created and its SPU program "
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
           .doc("the state a process keeps in the cores it uses (runtime/process_contexts.h)")},
      {"driver", driver_schema().doc("costs of the OS drivers of the cores")},
      {"scheduler",
       scheduler_schema().doc("the OS scheduler: one run queue for every hardware thread of every CPU")},
  });
}

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

// Workload.hsm: the HSM firmware and its clients.
Schema hsm_schema() {
  // The firmware's software, step by step along its code path (scenarios/hsm_rsa2048.md): CPU cycles, none of
  // them yielding unless the description says so.
  auto step = [](long long def, const char* what) { return cycles(def, 1000000000000LL).doc(what); };
  Schema hsm_cycles = Schema::object({
      {"rx_per_byte", step(0, "per request byte: SLIP decoding in the tick interrupt")},
      {"dispatch", step(0, "RPC decoding (XDR), handle look-ups, dispatch to the signing code")},
      {"keystore_fetch", step(0, "keystore index search, under the keystore lock")},
      {"copy_per_word",
       step(0, "copying the wrapped key out of the keystore, per 32-bit word (under the lock)")},
      {"kek", step(0, "reading the key-encryption key from the master key memory")},
      {"unwrap_per_block",
       step(0,
            "key unwrap loop per AES block operation (counter XOR, loop, calls); runs between the "
            "yields of the block's status reads")},
      {"key_parse", step(0, "DER decoding of the unwrapped key into bignums")},
      {"pad", step(0, "PKCS#1 v1.5 encoding of the digest")},
      {"blinding_hit", step(0, "blinding factors from the cache: two squarings mod n")},
      {"blinding_miss",
       step(0, "fresh blinding factors: random r and r^-1 mod n (r^e mod n runs on a modexp core)")},
      {"blind", step(0, "blinding the message: m * bf mod n")},
      {"operand_unpack",
       step(0, "the message, exponents and primes from bignums to the cores' byte buffers")},
      {"core_alloc", step(300,
                          "one attempt to take cores (the core table searched in a critical section); a "
                          "task that finds none yields and tries again")},
      {"result_read", step(0, "the cores' results back into bignums")},
      {"crt", step(0, "CRT recombination (Garner)")},
      {"unblind", step(0, "unblinding (s * ubf mod n) and the signature to bytes")},
      {"encode", step(0, "RPC response encoding (XDR)")},
      {"tx_per_byte", step(0,
                           "per response byte: SLIP encoding and the UART write (then the CPU polls the "
                           "UART, busy, until the byte is on the line)")},
      {"remainder", step(0,
                         "calibrated: what the firmware does per signature beyond the steps above (runs "
                         "where remainder_at puts it)")},
  });

  return Schema::object({
      {"clients",
       Schema::integer().min(1).max(4096).default_value(1).doc("client hosts, each a closed loop")},
      {"signatures_per_client",
       Schema::integer().min(1).max(1e9).default_value(20).doc("signatures each client asks for")},
      {"rpc_tasks", Schema::integer().min(1).max(256).default_value(4).doc("RPC tasks of the firmware")},
      {"task_priority", Schema::integer().min(0).max(99).default_value(10).doc("priority of the RPC tasks")},
      {"host_us", Schema::number().unit("us").min(0).max(1e12).default_value(20000.0).doc(
                      "client-side work per signature (host software, framing, the serial link's driver), "
                      "inside the latency the client measures")},
      {"host_jitter", Schema::number().min(0).max(1).default_value(0.0).doc(
                          "spread of each client's host work: uniform in host_us * (1 +- host_jitter), drawn "
                          "from the seed")},
      {"uart", Schema::string().doc("name of the UART (platform.uarts) that links the clients and the HSM")},
      {"rx_tick_us",
       Schema::number().unit("us").min(0).max(1e9).default_value(1000.0).doc(
           "received bytes are taken from the UART's DMA buffer on this tick: a request is seen "
           "at the first tick after its last byte; 0: at once")},
      {"request_bytes", Schema::integer().unit("bytes").min(1).max(1e9).default_value(80).doc(
                            "a sign request on the line (framing included)")},
      {"response_bytes", Schema::integer().unit("bytes").min(1).max(1e9).default_value(280).doc(
                             "a signature response on the line (framing included)")},
      {"key_bits", Schema::integer().unit("bits").min(2048).max(4096).default_value(2048).doc(
                       "RSA modulus size: 2048 or 4096 (the CRT halves run as modexp of half the size)")},
      {"key_record_bytes", Schema::integer().unit("bytes").min(64).max(1 << 20).default_value(3290).doc(
                               "the keystore record of the private key, before wrapping")},
      {"keystore_memory", Schema::string().doc("memory holding the wrapped key")},
      {"keystore_address", Schema::address().doc("CPU address of the wrapped key in that memory")},
      {"blinding_cache", Schema::integer().min(0).max(64).default_value(2).doc(
                             "entries of the blinding-factor cache (by modulus, least recently used "
                             "replaced); 0: fresh factors for every signature")},
      {"cycles", hsm_cycles.doc("CPU cycles of the firmware's software, by step")},
      {"remainder_at", Schema::enumeration(runtime::kRemainderAtNames.names())
                           .default_value("bignum")
                           .doc("where cycles.remainder runs: bignum (the bignum steps, each slower in "
                                "proportion), unwrap (a share before every AES block of the key unwrap) or "
                                "dispatch (one step before the keystore)")},
  });
}

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

// Section outputs: which result files are written.
Schema outputs_section() {
  std::vector<Schema::Field> time_window = {
      {"start_ms", Schema::number().unit("ms").min(0).max(1e9).default_value(0.0).doc(
                       "start of the window of simulated time")},
      {"end_ms", Schema::number().unit("ms").exclusive_min(0).max(1e9).nullable().default_value(nullptr).doc(
                     "end of the window (after start_ms); null: the end of the run")},
  };
  std::vector<Schema::Field> trace = time_window;
  trace.push_back({"bus_merge_gap_us", Schema::number().unit("us").min(0).max(1e9).default_value(10.0).doc(
                                           "bus transfers closer than this are drawn as one activity span")});

  return Schema::object({
      {"requests_csv", Schema::boolean().default_value(true).doc("write requests.csv (one row per request)")},
      {"stats_json", Schema::boolean().default_value(true).doc("write stats.json (per-resource statistics)")},
      {"trace",
       Schema::object(trace).nullable().default_value(nullptr).doc(
           "write trace.json, a Chrome/Perfetto trace of a window of the run (requests, processes on the "
           "CPU, bus activity, reconfigurations, core work, DMA transfers); null: none")},
      {"vcd", Schema::object(time_window)
                  .nullable()
                  .default_value(nullptr)
                  .doc("write timeline.vcd, slot states and bus activity as waveforms of a window of the run "
                       "(GTKWave); null: none")},
      {"breakdown_csv", Schema::boolean().default_value(true).doc(
                            "write breakdown.csv (one row per request: where its latency went)")},
  });
}

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
                 {"scrubbing",
                  Schema::object(
                      {
                          {"mode",
                           Schema::enumeration(with_none(models::kScrubModeNames.names()))
                               .default_value("none")
                               .doc("blind: rewrite every configured slot's frames each period; readback: "
                                    "read them back, compare, rewrite a corrupted frame")},
                          {"period_ms",
                           Schema::number().unit("ms").exclusive_min(0).max(1e9).default_value(100.0).doc(
                               "from the start of one scrubbing round to the next")},
                          {"frame_words",
                           Schema::integer().unit("words").min(1).max(1 << 20).default_value(101).doc(
                               "readback: words of the frame rewritten to repair an upset (7-series: "
                               "101)")},
                      })
                      .doc("scrubbing: repairs upsets, using the configuration port")},
                 {"buses",
                  Schema::map(
                      Schema::object({
                                         {"error_rate",
                                          Schema::number().min(0).max(1).default_value(0.0).doc(
                                              "chance that an access (a burst is one) fails: an on-chip bus "
                                              "answers with an error response; on an async FMC bus NWAIT "
                                              "never clears and the CPU gives up after max_polls polls")},
                                     })
                          .doc("faults of one bus"))
                      .key_name("bus")
                      .default_value(nlohmann::json::object())
                      .doc("bus faults, by bus name")},
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
      {"limits",
       Schema::object(
           {
               {"simulated_s", Schema::number().unit("s").min(1e-6).max(9e6).default_value(86400.0).doc(
                                   "the run fails when its simulated time passes this before the workload is "
                                   "done (at most 9e6 s: "
                                   "simulated time is counted in 64-bit picoseconds)")},
               {"events",
                Schema::integer()
                    .min(1000)
                    .max(1e13)
                    .default_value(1000000000)
                    .doc("the run fails after this many kernel evaluation cycles (SystemC delta cycles, at "
                         "least "
                         "one per timed wait) before the workload is done: a bound on the work of one run")},
           })
           .doc("bounds of one simulation, so that no scenario runs forever")},
  });
}

// Section energy: the power model (models/energy.h), by component name.
Schema energy_section() {
  constexpr double kMaxMw = 1e7, kMaxPj = 1e9, kMaxNj = 1e6;
  auto by_name = [](Schema value, const char* key, const char* what, const char* counted = "") {
    value.doc(std::string(what) + " of one " + key);
    return Schema::map(std::move(value))
        .key_name(key)
        .default_value(nlohmann::json::object())
        .doc(std::string(what) + ", by name: one entry for every one of the platform's" + counted);
  };
  const char* counted = " (an entry with a count by its name: all its instances)";
  return Schema::object(
             {
                 {"baseline_mw",
                  Schema::number().unit("mW").min(0).max(kMaxMw).default_value(0.0).doc(
                      "always-on power no component models (device static power, interconnect, memory "
                      "controller, clocks), over the whole run")},
                 {"cpus",
                  by_name(Schema::object({
                              {"active_mw", Schema::number().unit("mW").min(0).max(kMaxMw).doc(
                                                "power with one hardware thread busy (computing or stalled "
                                                "on a device); each busy thread adds active_mw - idle_mw")},
                              {"idle_mw", Schema::number().unit("mW").min(0).max(kMaxMw).doc(
                                              "power while no hardware thread is busy, over the whole run")},
                              {"at_clock_mhz",
                               Schema::number()
                                   .unit("MHz")
                                   .exclusive_min(0)
                                   .max(1e6)
                                   .nullable()
                                   .default_value(nullptr)
                                   .doc("the clock the powers were measured at: active_mw - idle_mw "
                                        "scales with the CPU's clock_mhz over it (fixed voltage); "
                                        "null: the CPU's own clock")},
                          }),
                          "cpu", "CPU power")},
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

}  // namespace

const Schema& scenario_schema() {
  static const Schema schema = build();
  return schema;
}

}  // namespace rsoc::platform
