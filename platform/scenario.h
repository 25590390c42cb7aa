#pragma once
// Scenario loading: JSON file -> validated, defaults-filled JSON (the schema's mirror of the file: the Config
// layer) -> resolved Params (units converted to sc_time and bytes, names resolved, cross-field checks).
// Every problem is reported in one ScenarioError naming the file, the JSON pointer and what was expected.

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <systemc>
#include <variant>
#include <vector>

#include "models/config_port.h"
#include "models/desrnd_extension.h"
#include "models/dma_engine.h"
#include "models/fmc_bus.h"
#include "models/fpga_slot.h"
#include "models/ip_core.h"
#include "models/memory.h"
#include "models/name_table.h"
#include "models/onchip_bus.h"
#include "models/scrubber.h"
#include "models/soft_cpu.h"
#include "models/uart.h"
#include "platform/scenario_error.h"
#include "runtime/functionality.h"
#include "runtime/hsm_firmware.h"
#include "runtime/manager.h"

namespace rsoc::platform {

struct CpuSpec {
  std::string name, bus;
  models::CpuParams params;
  std::optional<models::DesrndParams> desrnd;  // the desrnd extension unit, when the CPU has one
};

// The scenario's two-way choices, each the name table of the flag it sets: the schema lists their names and
// the resolver reads them through it.
// platform.buses[].kind: the alternative BusSpec::params holds (true: the FMC's)
inline constexpr models::NameTable<bool, 2> kBusKindNames{{{{false, "onchip"}, {true, "fmc"}}}};
// platform.cpus[].model: whether CpuParams::iss is set (an instruction-set model besides the cost model)
inline constexpr models::NameTable<bool, 2> kCpuModelNames{{{{false, "cost"}, {true, "iss"}}}};
// platform.config_port.feed: ConfigPortSpec::dma_feed
inline constexpr models::NameTable<bool, 2> kPortFeedNames{{{{false, "cpu"}, {true, "dma"}}}};
// platform.cores[].custom.interface: CustomCoreParams::pio
inline constexpr models::NameTable<bool, 2> kCustomInterfaceNames{{{{true, "pio"}, {false, "stream"}}}};
// runtime.driver.data_path: through DMA (ScenarioParams::data_dma)
inline constexpr models::NameTable<bool, 2> kDataPathNames{{{{false, "pio"}, {true, "dma"}}}};
// runtime.when_no_slot: ManagerParams::wait_for_slot
inline constexpr models::NameTable<bool, 2> kWhenNoSlotNames{{{{true, "wait"}, {false, "software"}}}};
// runtime.recovery.fallback: RecoveryParams::fallback_to_software
inline constexpr models::NameTable<bool, 2> kFallbackNames{{{{false, "none"}, {true, "software"}}}};
// workload.apps[].arrival: AppSpec::poisson
inline constexpr models::NameTable<bool, 2> kArrivalNames{{{{false, "closed"}, {true, "poisson"}}}};
// workload.apps[].operation: AppSpec::encrypt
inline constexpr models::NameTable<bool, 2> kOperationNames{{{{true, "encrypt"}, {false, "decrypt"}}}};

struct BusSpec {
  std::string name;
  // Its kind (platform.buses[].kind) with that kind's parameters.
  std::variant<models::OnChipBusParams, models::FmcBusParams> params;
  const models::OnChipBusParams* onchip() const { return std::get_if<models::OnChipBusParams>(&params); }
  const models::FmcBusParams* fmc() const { return std::get_if<models::FmcBusParams>(&params); }
  std::string parent;  // empty: not bridged
  std::uint64_t window_base = 0, window_bytes = 0;
};

struct MemorySpec {
  std::string name, bus;
  std::uint64_t base = 0;
  models::MemoryParams params;
};

struct DmaSpec {
  std::string name, bus;
  std::uint64_t base = 0;
  models::DmaParams params;
};

struct ConfigPortSpec {
  std::string bus;
  std::uint64_t base = 0;
  models::ConfigPortParams params;
  bool dma_feed = false;
  unsigned cpu_copy_cycles_per_word = 120;
  std::string dma;
};

struct SlotSpec {
  std::string name, bus;
  std::uint64_t base = 0, window_bytes = 0;
  models::SlotParams params;
  std::string core;  // configured at boot; empty: none
};

struct CoreSpec {
  std::string name;
  std::uint32_t id = 0;  // index in the scenario's core list, written in its bitstream
  models::CoreParams params;
  std::string memory;
  std::uint64_t bitstream_address = 0, bitstream_bytes = 0;
  std::optional<runtime::Functionality> serves;  // a custom core's functionality
  // As the runtime sees it.
  runtime::CoreDesign design() const {
    return {name,
            id,
            params.kind,
            bitstream_address,
            bitstream_bytes,
            params.kind == models::CoreKind::kModexp ? params.max_operand_bits : 0u,
            serves};
  }
};

struct BlockCounts {  // how many blocks each request of an application asks for
  enum class Kind { kFixed, kList, kUniform, kGeometric } kind = Kind::kFixed;
  std::vector<std::uint64_t> list;  // kFixed: one value; kList: cycled
  std::uint64_t min = 1, max = 1;
  double mean = 1;
};
// The distributions a block count is drawn from (workload.apps[].blocks.kind).
inline constexpr models::NameTable<BlockCounts::Kind, 2> kBlockDistributionNames{
    {{{BlockCounts::Kind::kUniform, "uniform"}, {BlockCounts::Kind::kGeometric, "geometric"}}}};

// Where a process may run (its affinity): on CPUs of ScenarioParams::cpus (indices; empty: any CPU), on any
// of their hardware threads or, with one CPU, pinned to one of its threads.
struct Placement {
  std::vector<std::size_t> cpus;
  std::optional<unsigned> hw_thread;  // of cpus.front() (then the only one)
};

struct AppSpec {
  std::string name;
  runtime::Functionality functionality = runtime::Functionality::kAes128;
  int priority = 10;
  BlockCounts blocks;
  std::uint64_t requests = 1;
  bool poisson = false;
  sc_core::sc_time think;
  double rate_per_s = 10;
  bool encrypt = true;
  std::vector<std::uint8_t> key;          // key_hex; empty when the key is drawn from key_seed
  std::optional<std::uint64_t> key_seed;  // without key_hex: the seed its key is drawn from (key_of)
  Placement placement;
  sc_core::sc_time start;                    // with `after`: from the end of that application
  std::uint64_t warmup = 0;                  // the first requests, left out of what is measured
  std::optional<sc_core::sc_time> duration;  // no request issued later than this after the first measured
  std::optional<std::size_t> after;          // index in ScenarioParams::apps of the application it follows
};

// The key of an application: key_hex as given, or the one drawn from its key_seed (runtime::draw_key). Keys
// are drawn when a simulation is built, not when its scenario is loaded: an RSA key takes a fraction of a
// second, and checking a scenario never waits for one.
std::vector<std::uint8_t> key_of(const AppSpec& app);

struct BackgroundSpec {
  std::string name;
  int priority = 0;
  sc_core::sc_time busy, idle, start;
  Placement placement;
};

struct UartSpec {
  std::string name;
  models::UartParams params;
};

// The HSM firmware of workload.hsm (runtime/hsm_firmware.h) and what it runs on.
struct HsmSpec {
  runtime::HsmParams params;
  unsigned key_bits = 2048;
  std::size_t key_record_bytes = 3290;
  std::string uart;  // platform.uarts
};

// A window of simulated time (outputs.trace, outputs.vcd); no end: to the end of the run.
struct TimeWindow {
  sc_core::sc_time start;
  std::optional<sc_core::sc_time> end;
};

// The DMA data path of the core drivers (runtime.driver.dma).
struct DataPathSpec {
  std::vector<std::string> engines;  // one, or one per slot in turn (a DMA entry with count)
  std::string memory;
  std::uint64_t buffer = 0, buffer_bytes = 0;
};

// Injected faults (section faults).
struct FaultSpec {
  std::uint64_t seed = 1;
  double configuration_probability = 0;  // per configuration
  double bit_error_rate = 0;             // per bitstream bit moved into the port
  double upsets_per_bit_per_s = 0;       // essential upsets of a configured bit
  double hang_probability = 0;           // per operation a core starts
  std::optional<models::ScrubParams> scrubbing;
  std::map<std::string, double> bus_error_rate;  // by bus name
  struct Window {                                // a fault at the first chance at or after `at`
    sc_core::sc_time at;
    models::FaultKind fault = models::FaultKind::kConfiguration;
    std::size_t slot = 0;  // configuration, upset, hang: index in ScenarioParams::slots
    std::string bus;       // bus: its name
  };
  std::vector<Window> windows;
};

// The power model (section energy, models/energy.h), by component name. CPU powers are at the CPU's clock
// (the loader scales them from at_clock_mhz).
struct EnergySpec {
  double baseline_mw = 0;
  std::map<std::string, models::CpuPower> cpus;
  std::map<std::string, double> bus_pj_per_word;
  std::map<std::string, models::MemoryEnergy> memories;
  struct Dma {
    double pj_per_word = 0, idle_mw = 0;
  };
  std::map<std::string, Dma> dmas;
  double config_port_nj_per_word = 0;
  std::map<std::string, double> slot_static_mw;
  std::map<std::string, double> core_pj_per_cycle;
  // The platform's power with nothing busy: the baseline, every CPU idle, every DMA engine idle and every
  // slot's static power. What a run spends is this over its time plus what its components spent.
  double floor_mw() const {
    double mw = baseline_mw;
    for (const auto& [name, c] : cpus) mw += c.idle_mw;
    for (const auto& [name, d] : dmas) mw += d.idle_mw;
    for (const auto& [name, s] : slot_static_mw) mw += s;
    return mw;
  }
};

struct ScenarioParams {
  std::uint64_t seed = 1;
  // The functionalities it knows: the built-in ones and its custom cores' (every Functionality in these
  // params points into it: keep it with them).
  std::shared_ptr<const runtime::FunctionalityCatalog> functionalities =
      std::make_shared<const runtime::FunctionalityCatalog>();
  sc_core::sc_time quantum;
  std::vector<CpuSpec> cpus;
  std::vector<BusSpec> buses;
  std::vector<MemorySpec> memories;
  std::vector<DmaSpec> dmas;
  std::optional<ConfigPortSpec> config_port;
  std::vector<SlotSpec> slots;
  std::vector<CoreSpec> cores;
  std::vector<UartSpec> uarts;
  runtime::RuntimeParams runtime;
  std::optional<DataPathSpec> data_dma;  // set when runtime.driver.data_path is dma
  std::optional<HsmSpec> hsm;            // set when workload.hsm is given
  std::optional<FaultSpec> faults;       // set when section faults is given
  std::optional<EnergySpec> energy;      // set when section energy is given
  runtime::SchedulerParams scheduler;
  std::vector<AppSpec> apps;
  std::vector<BackgroundSpec> background;
  bool requests_csv = true, stats_json = true, breakdown_csv = true;
  struct Limits {  // limits: a run fails when it passes either before its workload is done
    sc_core::sc_time simulated{86400, sc_core::SC_SEC};
    std::uint64_t events = 1000000000;
  } limits;
  std::optional<TimeWindow> trace;  // outputs.trace: trace.json of this window
  sc_core::sc_time trace_bus_merge_gap;
  std::optional<TimeWindow> vcd;  // outputs.vcd: timeline.vcd of this window
};

struct Scenario {
  std::string file;         // where it came from ("<embedded default>" for the built-in one)
  nlohmann::json resolved;  // every default filled in: written as resolved_scenario.json
  std::string sha256;       // of resolved.dump(): provenance of every output
  ScenarioParams params;
};

struct LoadOptions {
  std::vector<std::string> overrides;  // path=value, applied in order
  // The flag each override comes from, as messages name it ("--param a.b=1", "--trace-window 20:10"); an
  // override without one (empty, or beyond the end of this list) comes from "--set <override>". A problem of
  // a value an override set (at its JSON pointer or below) is named after the override's flag, not the file.
  std::vector<std::string> sources;
  std::optional<std::uint64_t> seed;  // --seed
  // Where the scenario's relative paths (programs, RTL sources) start; empty: the scenario file's folder (a
  // text without a file: the working folder). A sweep's points give their scenario file's.
  std::string folder;
};

Scenario load_scenario_file(const std::string& path, const LoadOptions& options = {});
Scenario load_scenario_text(std::string_view text, std::string_view name, const LoadOptions& options = {});

// The scenario `rsoc run` uses when none is given.
std::string_view default_scenario_text();
inline constexpr const char* kDefaultScenarioName = "<embedded default: scenarios/os_aes_des.json>";

}  // namespace rsoc::platform
