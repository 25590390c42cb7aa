#include "platform/reproduce.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

#include "analysis/csv.h"
#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "platform/crossover.h"
#include "platform/json_file.h"
#include "platform/scenario.h"
#include "platform/session.h"
#include "platform/simulation.h"

namespace rsoc::platform {

namespace fs = std::filesystem;
using runtime::Functionality;

namespace {

const CrossoverRow& row_at(const CrossoverResult& r, Functionality f, std::uint64_t blocks) {
  for (const auto& row : r.rows)
    if (row.functionality == f && row.blocks == blocks) return row;
  throw SimulationError("no crossover row for " + std::string(runtime::info(f).name) + " at " +
                        std::to_string(blocks) + " blocks");
}

double kbps(const CrossoverRow& row, double seconds) {
  return static_cast<double>(row.blocks * row.unit_bytes) / seconds / 1e3;
}

// OS-managed AES and DES on a reconfigurable SoC (scenarios/os_aes_des.json; published: os_aes_des.md). One
// crossover experiment (1 to 200 blocks, software / hardware with reconfiguration / hardware cached) gives
// every figure: the crossovers, the cached throughputs (at 100 blocks; they are constant in size), one
// reconfiguration (hardware with minus without it, 1 AES block), and the software throughput with its
// variation over sizes, and with the scenario's energy model the energy crossovers and one reconfiguration's
// energy (predicted: nothing was published). A block is the scenario's unit (runtime.unit_bytes, an
// assumption the published figures cannot fix): the software throughput in kB/s is a prediction that depends
// on it (scenarios/os_aes_des.md).
std::vector<ReproducedFigure> reproduce_soc(const fs::path& scenarios, const fs::path& out) {
  const Scenario scenario = load_scenario_file((scenarios / "os_aes_des.json").string());
  CrossoverOptions options;
  options.functionalities = {"aes128", "des"};
  options.max_blocks = 200;
  analysis::OutputDir dir(out);
  const CrossoverResult r = run_crossover(scenario, options);
  write_crossover(r, scenario, dir);
  std::vector<ReproducedFigure> figures;
  auto add = [&](const std::string& figure, const char* kind, std::optional<double> published,
                 double simulated) {
    figures.push_back({"soc", figure, kind, published, simulated});
  };
  const std::pair<Functionality, double> published_crossover[] = {{Functionality::kAes128, 40},
                                                                  {Functionality::kDes, 80}};
  for (const auto& [f, published] : published_crossover) {
    const std::string name = runtime::info(f).name;
    for (const auto& s : r.summary)
      if (s.functionality == f) {
        if (!s.simulated) throw SimulationError("no " + name + " crossover up to 200 blocks");
        add("crossover_blocks." + name, kind::kCalibrated, published, static_cast<double>(*s.simulated));
      }
  }
  const std::pair<Functionality, double> published_cached[] = {{Functionality::kAes128, 436},
                                                               {Functionality::kDes, 246}};
  for (const auto& [f, published] : published_cached) {
    const CrossoverRow& at100 = row_at(r, f, 100);
    add(std::string("cached_throughput_kBps.") + runtime::info(f).name, kind::kCalibrated, published,
        kbps(at100, at100.hw_cached_s));
  }
  const CrossoverRow& one = row_at(r, Functionality::kAes128, 1);
  add("reconfiguration_ms", kind::kCalibrated, 150, (one.hw_cold_s - one.hw_cached_s) * 1e3);
  for (const Functionality f : {Functionality::kAes128, Functionality::kDes}) {
    const std::string name = runtime::info(f).name;
    const CrossoverRow &one_block = row_at(r, f, 1), &many = row_at(r, f, 200);
    const double at1 = kbps(one_block, one_block.sw_s), at200 = kbps(many, many.sw_s);
    add("software_throughput_kBps." + name, kind::kPredicted, std::nullopt, at200);
    add("software_throughput_change_pct_1_to_200_blocks." + name, kind::kPredicted, std::nullopt,
        (at200 - at1) / at1 * 100);
  }
  // With the scenario's energy model (section energy, derived in os_aes_des.md): predictions, nothing
  // published.
  if (r.energy) {
    for (const auto& s : r.summary)
      if (s.energy)
        add("energy_crossover_blocks." + std::string(runtime::info(s.functionality).name), kind::kPredicted,
            std::nullopt, static_cast<double>(*s.energy));
    add("reconfiguration_mj", kind::kPredicted, std::nullopt, (*one.hw_cold_j - *one.hw_cached_j) * 1e3);
  }
  return figures;
}

// The reference SoC with its software as code (scenarios/os_aes_des_iss.json, os_aes_des_iss.md): the
// programs' cycles per byte as measured at load on the instruction-set CPU (beside the calibrated 316.8 and
// 447.72), and the crossovers that follow, searched to 200 blocks, against the published 40 and 80. All
// predictions: nothing of the code or the profile was fitted.
std::vector<ReproducedFigure> reproduce_soc_iss(const fs::path& scenarios, const fs::path& out) {
  const Scenario scenario = load_scenario_file((scenarios / "os_aes_des_iss.json").string());
  CrossoverOptions options;
  options.functionalities = {"aes128", "des"};
  options.max_blocks = 200;
  options.table_blocks = 2;
  analysis::OutputDir dir(out);
  const CrossoverResult r = run_crossover(scenario, options);
  write_crossover(r, scenario, dir);
  std::vector<ReproducedFigure> figures;
  const std::pair<Functionality, double> published_crossover[] = {{Functionality::kAes128, 40},
                                                                  {Functionality::kDes, 80}};
  for (const auto& [f, published] : published_crossover) {
    const std::string name = runtime::info(f).name;
    const runtime::SoftwareCost& sw = scenario.params.runtime.software.at(f);
    const auto unit = static_cast<double>(runtime::unit_bytes(scenario.params.runtime.unit_bytes, f));
    figures.push_back({"soc", "software_cycles_per_byte." + name + ".iss", kind::kPredicted, std::nullopt,
                       static_cast<double>(sw.program->cycles_per_block) / unit});
    for (const auto& s : r.summary)
      if (s.functionality == f) {
        if (!s.simulated) throw SimulationError("no " + name + " crossover up to 200 blocks on the ISS");
        figures.push_back({"soc", "crossover_blocks." + name + ".iss", kind::kPredicted, published,
                           static_cast<double>(*s.simulated)});
      }
  }
  return figures;
}

// desrnd with its software as code (scenarios/desrnd_3des_iss.json, desrnd_3des_iss.md): each program's
// cycles per block as measured at load, with the unit and the table-based baseline, and their ratio against
// the published speed-ups. Predictions: a different ISA and compiler, nothing fitted.
std::vector<ReproducedFigure> reproduce_desrnd_iss(const fs::path& scenarios, const fs::path& out) {
  fs::create_directories(out);  // for the figures only
  const std::string path = (scenarios / "desrnd_3des_iss.json").string();
  LoadOptions baseline;
  for (const auto& [f, entry] :
       {std::pair<const char*, const char*>{"des", "des_ecb"}, {"3des", "tdes_ecb"}}) {
    baseline.overrides.push_back(std::string("software.") + f + ".program.elf=des.elf");
    baseline.overrides.push_back(std::string("software.") + f + ".program.entry=" + entry);
  }
  const Scenario with_unit = load_scenario_file(path), without = load_scenario_file(path, baseline);
  std::vector<ReproducedFigure> figures;
  const std::pair<Functionality, double> published[] = {{Functionality::kDes, 47},
                                                        {Functionality::kTripleDes, 92}};
  for (const auto& [f, speedup] : published) {
    const std::string name = runtime::info(f).name;
    const auto cycles = [f = f](const Scenario& s) {
      return static_cast<double>(s.params.runtime.software.at(f).program->cycles_per_block);
    };
    figures.push_back({"desrnd", "cycles_per_block." + name + ".iss.baseline", kind::kPredicted, std::nullopt,
                       cycles(without)});
    figures.push_back({"desrnd", "cycles_per_block." + name + ".iss.inline_asm", kind::kPredicted,
                       std::nullopt, cycles(with_unit)});
    figures.push_back({"desrnd", "speedup." + name + ".iss", kind::kPredicted, speedup,
                       cycles(without) / cycles(with_unit)});
  }
  return figures;
}

// The HSM (scenarios/hsm_rsa2048.json; published: hsm_rsa2048.md) with N clients, the full build or a
// variant. Throughput = signatures delivered over the simulated time (every client's closed loop starts at
// zero), as the published client counts them; latency = mean of the signatures' latencies (from the client's
// call to its answer, host part included). One client's rate is the calibration; its latency follows from it
// (no think time: latency = 1 / rate).
std::vector<ReproducedFigure> reproduce_hsm(const std::string& experiment, const fs::path& scenarios,
                                            const fs::path& out) {
  const auto dot = experiment.find('.');
  const std::string clients_part = experiment.substr(0, dot);
  const std::string variant = dot == std::string::npos ? "" : experiment.substr(dot + 1);
  if (clients_part.rfind("clients=", 0) != 0)
    throw std::invalid_argument("unknown hsm experiment " + experiment);
  const unsigned clients = static_cast<unsigned>(std::stoul(clients_part.substr(8)));
  LoadOptions options;
  options.overrides = {"workload.hsm.clients=" + std::to_string(clients),
                       "workload.hsm.signatures_per_client=" + std::to_string(clients <= 4 ? 80 : 40)};
  if (!variant.empty())
    for (const auto& o : hsm_variant(variant)) options.overrides.push_back(o);
  const Scenario scenario = load_scenario_file((scenarios / "hsm_rsa2048.json").string(), options);
  const RunSummary summary = run_session(scenario, out);
  if (summary.failed) throw SimulationError(std::to_string(summary.failed) + " signatures failed");
  double latency_ms = 0;
  for (const auto& [name, value] : summary.metrics)
    if (name == "rsa2048_sign.hardware.latency_mean_ms") latency_ms = value;
  std::vector<ReproducedFigure> figures;
  const std::optional<double> published =
      experiment == "clients=1" ? std::optional<double>(5.68) : std::nullopt;
  figures.push_back({"hsm", "sigs_per_s." + experiment, published ? kind::kCalibrated : kind::kPredicted,
                     published, summary.requests_per_s});
  if (variant.empty())
    figures.push_back({"hsm", "latency_ms." + experiment, clients == 1 ? kind::kDerived : kind::kPredicted,
                       std::nullopt, latency_ms});
  return figures;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

// The rows of a CSV file written by a session, as column -> cell.
std::vector<std::map<std::string, std::string>> read_rows(const fs::path& path) {
  std::ifstream csv(path);
  if (!csv) throw SimulationError(path.string() + ": cannot read");
  std::string line;
  std::getline(csv, line);
  const auto header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(csv, line)) {
    const auto cells = split(line);
    auto& row = rows.emplace_back();
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
  }
  return rows;
}

// The Cell engine (scenarios/cell_rsa4096.json; published: cell_rsa4096.md). Each setting is one `openssl
// speed rsa4096 [-engine] [-multi N]` run: N processes, each signing for a fixed time and then verifying for
// a fixed time (workload.apps: "sign", then "verify" after it). As openssl speed measures them, a process's
// rate is the operations it completed over the time from its first issue to its last completion (the one
// running when the time was up included); the processes' rates are summed. The engine replaces the private
// operation only (runtime.thresholds: rsa4096_crt); "<setting>.verify_offloaded" also sends the public
// operation through it (rsa4096_verify: 1), with the verify phase alone.
struct CellSetting {
  const char* name;
  bool engine, offloaded;
  unsigned procs;
  double sign, verify;  // published, per second
};
const CellSetting kCellSettings[] = {{"engine=off.procs=1", false, false, 1, 9.2, 574.1},
                                     {"engine=off.procs=15", false, false, 15, 11.0, 824.7},
                                     {"engine=on.procs=1", true, false, 1, 10.2, 579.7},
                                     {"engine=on.procs=15", true, false, 15, 47.8, 1832.2},
                                     {"engine=on.procs=1.verify_offloaded", true, true, 1, 10.2, 579.7},
                                     {"engine=on.procs=15.verify_offloaded", true, true, 15, 47.8, 1832.2}};

std::vector<ReproducedFigure> reproduce_cell(const std::string& experiment, const fs::path& scenarios,
                                             const fs::path& out) {
  for (const CellSetting& s : kCellSettings) {
    if (experiment != s.name) continue;
    const std::string file = (scenarios / "cell_rsa4096.json").string();
    LoadOptions options;
    options.overrides = {std::string("runtime.policy=") + (s.engine ? "threshold" : "software")};
    if (s.offloaded) {  // the scenario's verify entry alone, from the start
      const nlohmann::ordered_json doc = read_ordered_json_file(file);
      nlohmann::ordered_json verify;
      for (const auto& app : doc["workload"]["apps"])
        if (app.value("functionality", "") == "rsa4096_verify") verify = app;
      verify.erase("after");
      options.overrides.push_back("workload.apps=[" + verify.dump() + "]");
      options.overrides.push_back("runtime.thresholds.rsa4096_verify=1");
    }
    const std::size_t entries = s.offloaded ? 1 : 2;
    for (std::size_t i = 0; i < entries; ++i)
      options.overrides.push_back("workload.apps." + std::to_string(i) + ".count=" + std::to_string(s.procs));
    const Scenario scenario = load_scenario_file(file, options);
    const RunSummary summary = run_session(scenario, out);
    if (summary.failed) throw SimulationError(std::to_string(summary.failed) + " operations failed");
    std::map<std::string, std::uint64_t> warmup;
    for (const AppSpec& app : scenario.params.apps) warmup[app.name] = app.warmup;
    const auto rates = speed_rates(out / "requests.csv", warmup);
    auto rate = [&](const char* functionality) {
      const auto it = rates.find(functionality);
      if (it == rates.end()) throw SimulationError(std::string("no ") + functionality + " completed");
      return it->second;
    };
    std::vector<ReproducedFigure> figures;
    if (!s.offloaded)
      figures.push_back(
          {"cell", std::string("sign_per_s.") + s.name, kind::kCalibrated, s.sign, rate("rsa4096_crt")});
    figures.push_back(
        {"cell", std::string("verify_per_s.") + s.name, kind::kPredicted, s.verify, rate("rsa4096_verify")});
    return figures;
  }
  throw std::invalid_argument("unknown cell experiment " + experiment);
}

// The desrnd extension (scenarios/desrnd_3des.json, desrnd_3des_baseline.json; published: desrnd_3des.md).
// "baseline" and "<integration>.rpi=<n>": the data rate of DES and 3DES, 64 bits per block over the CPU time
// a block takes (clock x 64 / cycles per block), from the compute time of every request.
// "coupling.<functionality>.<implementation>": requests of 1 to 4,096 blocks one after the other, written
// to coupling.csv (see derived_figures in reproduce.h).
const char* const kCouplingImplementations[] = {"software", "extension", "core_static",
                                                "core_reconfigurable"};
const std::uint64_t kCouplingBlocks[] = {1, 4, 16, 64, 256, 1024, 4096};
const std::vector<std::string> kCouplingColumns = {"functionality", "implementation",  "blocks",
                                                   "latency_ms",    "throughput_kBps", "cpu_left_pct"};

std::vector<ReproducedFigure> reproduce_desrnd(const std::string& experiment, const fs::path& scenarios,
                                               const fs::path& out) {
  const std::string reference = (scenarios / "desrnd_3des.json").string();
  const std::string baseline = (scenarios / "desrnd_3des_baseline.json").string();
  LoadOptions options;
  if (experiment.rfind("coupling.", 0) == 0) {  // coupling.<functionality>.<implementation>
    const auto dot = experiment.find('.', 9);
    const std::string f = experiment.substr(9, dot == std::string::npos ? 0 : dot - 9);
    const std::string impl = dot == std::string::npos ? "" : experiment.substr(dot + 1);
    if ((f != "des" && f != "3des") ||
        std::find(std::begin(kCouplingImplementations), std::end(kCouplingImplementations), impl) ==
            std::end(kCouplingImplementations))
      throw std::invalid_argument("unknown desrnd experiment " + experiment);
    std::string list;
    for (std::uint64_t b : kCouplingBlocks) list += (list.empty() ? "" : ",") + std::to_string(b);
    options.overrides = {
        "workload.apps=[{\"name\":\"app\",\"functionality\":\"" + f + "\",\"blocks_list\":[" + list +
        "],\"requests\":" + std::to_string(std::size(kCouplingBlocks)) + ",\"think_us\":100}]"};
    if (impl != "software" && impl != "extension") options.overrides.push_back("runtime.policy=hardware");
    if (impl == "core_reconfigurable")
      for (const char* s :
           {"platform.slots.0.reconfigurable=true", "platform.slots.0.core=null", "runtime.caching=false"})
        options.overrides.push_back(s);
    const Scenario scenario = load_scenario_file(impl == "software" ? baseline : reference, options);
    const RunSummary summary = run_session(scenario, out);
    if (summary.failed) throw SimulationError(std::to_string(summary.failed) + " requests failed");
    analysis::OutputFile table(out / "coupling.csv");
    analysis::CsvWriter csv(table, kCouplingColumns);
    for (const auto& row : read_rows(out / "breakdown.csv")) {
      const double latency = std::stod(row.at("latency_ms"));
      const double cpu = std::stod(row.at("cpu_compute_ms")) + std::stod(row.at("cpu_io_ms"));
      const std::uint64_t blocks = std::stoull(row.at("blocks"));
      csv.cell(f)
          .cell(impl)
          .cell(blocks)
          .cell(latency, 6)
          .cell(static_cast<double>(8 * blocks) / latency, 3)
          .cell(100 * (1 - cpu / latency), 2)
          .end_row();
    }
    table.close();
    return {};
  }
  if (experiment != "baseline") {
    const auto dot = experiment.find(".rpi=");
    const std::string integration = experiment.substr(0, dot);
    if (dot == std::string::npos || (integration != "c_module" && integration != "inline_asm"))
      throw std::invalid_argument("unknown desrnd experiment " + experiment);
    options.overrides = {"platform.cpus.0.extensions.desrnd.rounds_per_instruction=" +
                         experiment.substr(dot + 5)};
    for (const char* f : {"des", "3des"})
      options.overrides.push_back(std::string("software.") + f + ".extension.integration=" + integration);
  }
  const Scenario scenario = load_scenario_file(experiment == "baseline" ? baseline : reference, options);
  const RunSummary summary = run_session(scenario, out);
  if (summary.failed) throw SimulationError(std::to_string(summary.failed) + " requests failed");
  std::map<std::string, std::pair<double, double>> per_functionality;  // blocks, CPU seconds
  for (const auto& row : read_rows(out / "breakdown.csv")) {
    auto& [blocks, seconds] = per_functionality[row.at("functionality")];
    blocks += std::stod(row.at("blocks"));
    seconds += std::stod(row.at("cpu_compute_ms")) / 1e3;
  }
  std::vector<ReproducedFigure> figures;
  for (const char* f : {"des", "3des"}) {
    const auto& [blocks, seconds] = per_functionality.at(f);
    // The baseline's rate follows from its calibrated cycles alone; the extension's from the model of the
    // routines on the unit.
    figures.push_back({"desrnd", std::string("data_rate_mbps.") + f + "." + experiment,
                       experiment == "baseline" ? kind::kDerived : kind::kPredicted, std::nullopt,
                       64 * blocks / seconds / 1e6});
  }
  return figures;
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

std::map<std::string, double> speed_rates(const fs::path& requests_csv,
                                          const std::map<std::string, std::uint64_t>& warmup) {
  // functionality -> app -> its completed operations, (issue, end) in ms
  std::map<std::string, std::map<std::string, std::vector<std::pair<double, double>>>> ops;
  for (const auto& row : read_rows(requests_csv)) {
    if (row.at("ok") != "true") continue;
    const double end = std::stod(row.at("end_ms")), issued = end - std::stod(row.at("latency_ms"));
    ops[row.at("functionality")][row.at("app")].emplace_back(issued, end);
  }
  std::map<std::string, double> out;
  for (auto& [functionality, apps] : ops)
    for (auto& [app, list] : apps) {
      std::sort(list.begin(), list.end());
      const auto w = warmup.find(app);
      const std::size_t skip = w == warmup.end() ? 0 : static_cast<std::size_t>(w->second);
      if (list.size() <= skip) continue;
      const double first = list[skip].first;
      double last = list[skip].second;
      for (std::size_t i = skip; i < list.size(); ++i) last = std::max(last, list[i].second);
      if (last > first)
        out[functionality] += static_cast<double>(list.size() - skip) / ((last - first) / 1e3);
    }
  return out;
}

std::vector<std::string> reproduction_systems() {
  return {"soc", "hsm", "cell", "desrnd"};
}

std::string reproduction_scenario(const std::string& system) {
  if (system == "soc") return "os_aes_des";
  if (system == "hsm") return "hsm_rsa2048";
  if (system == "cell") return "cell_rsa4096";
  if (system == "desrnd") return "desrnd_3des";
  return "";
}

std::optional<std::string> reproduction_system(const std::string& name) {
  for (const std::string& s : reproduction_systems())
    if (name == s || name == reproduction_scenario(s) || name == reproduction_scenario(s) + ".json") return s;
  return std::nullopt;
}

std::vector<std::string> reproduction_experiments(const std::string& system) {
  if (system == "soc") return {"crossover", "iss"};
  if (system == "desrnd") {
    std::vector<std::string> out{"baseline"};
    for (const char* integration : {"c_module", "inline_asm"})
      for (const char* rpi : {"1", "2"}) out.push_back(std::string(integration) + ".rpi=" + rpi);
    for (const char* f : {"des", "3des"})
      for (const char* impl : kCouplingImplementations)
        out.push_back(std::string("coupling.") + f + "." + impl);
    out.push_back("iss");
    return out;
  }
  if (system == "cell") {
    std::vector<std::string> out;
    for (const CellSetting& s : kCellSettings) out.emplace_back(s.name);
    return out;
  }
  if (system == "hsm") {
    std::vector<std::string> out;
    for (int n = 1; n <= 8; ++n) out.push_back("clients=" + std::to_string(n));
    for (const char* v : {"half_cores", "aes_2x", "hw_nwait", "hw_byteswap", "hw_nwait+hw_byteswap"})
      for (const char* n : {"1", "2", "4"}) out.push_back(std::string("clients=") + n + "." + v);
    return out;
  }
  throw std::invalid_argument("unknown reference system \"" + system + "\"");
}

double reproduction_cost(const std::string& system, const std::string& experiment) {
  if (system == "soc") return experiment == "iss" ? 1.0 : 4.6;  // 1,200 crossover points; a search on the ISS
  if (system == "cell") return experiment == "engine=on.procs=15" ? 2.8 : 1.0;
  if (system == "hsm") {  // from 0.5 s (one client) to 1.6 s (four or more, NWAIT in hardware slowest)
    const bool hw_nwait = experiment.find("hw_nwait") != std::string::npos;
    const bool one = experiment.rfind("clients=1.", 0) == 0 || experiment == "clients=1";
    return (one ? 0.6 : 1.3) + (hw_nwait ? 0.3 : 0.0);
  }
  return 0.01;  // desrnd: analytic
}

std::vector<std::string> hsm_variant(const std::string& name) {
  // The build with half the cores: 2 AES cores and 4 modexp cores instead of 4 and 8.
  if (name == "half_cores") return {"platform.slots.0.count=2", "platform.slots.1.count=4"};
  // An AES core twice as fast: half the cycles per block and per key expansion.
  if (name == "aes_2x") return {"platform.cores.0.block_cycles=22", "platform.cores.0.key_setup_cycles=6"};
  // An FMC whose controller waits for NWAIT: no NWAIT polling, no double read.
  const std::vector<std::string> nwait{"platform.buses.1.fmc.nwait=hardware",
                                       "platform.buses.1.fmc.double_read=false"};
  const std::vector<std::string> swap{"platform.buses.1.fmc.byteswap_cycles=0"};  // byte swapping in hardware
  if (name == "hw_nwait") return nwait;
  if (name == "hw_byteswap") return swap;
  if (name == "hw_nwait+hw_byteswap") {
    std::vector<std::string> both = nwait;
    both.insert(both.end(), swap.begin(), swap.end());
    return both;
  }
  throw std::invalid_argument("unknown hsm variant " + name);
}

fs::path scenario_dir(const std::optional<fs::path>& override_dir) {
  return override_dir ? *override_dir : fs::path(RSOC_SCENARIO_DIR);
}

std::vector<ReproducedFigure> reproduce_experiment(const std::string& system, const std::string& experiment,
                                                   const fs::path& scenarios, const fs::path& out) {
  if (system == "soc" && experiment == "crossover") return reproduce_soc(scenarios, out);
  if (system == "soc" && experiment == "iss") return reproduce_soc_iss(scenarios, out);
  if (system == "desrnd" && experiment == "iss") return reproduce_desrnd_iss(scenarios, out);
  if (system == "hsm") return reproduce_hsm(experiment, scenarios, out);
  if (system == "cell") return reproduce_cell(experiment, scenarios, out);
  if (system == "desrnd") return reproduce_desrnd(experiment, scenarios, out);
  throw std::invalid_argument("unknown reference experiment " + system + "/" + experiment);
}

std::vector<ReproducedFigure> derived_figures(const fs::path& work,
                                              const std::vector<ReproducedFigure>& figures) {
  std::vector<ReproducedFigure> out;
  const auto find = [&](const std::string& name) -> std::optional<double> {
    for (const auto& f : figures)
      if (f.system == "desrnd" && f.figure == name) return f.simulated;
    return std::nullopt;
  };
  // Speed-ups over the baseline software; the published ones are taken as those of in-line assembly with two
  // rounds per instruction (an assumption stated in scenarios/desrnd_3des.md).
  const std::pair<const char*, double> published[] = {{"des", 47}, {"3des", 92}};
  for (const auto& [f, value] : published) {
    const auto base = find(std::string("data_rate_mbps.") + f + ".baseline");
    if (!base) continue;
    for (const char* integration : {"c_module", "inline_asm"})
      for (const char* rpi : {"1", "2"}) {
        const std::string config = std::string(integration) + ".rpi=" + rpi;
        const auto rate = find(std::string("data_rate_mbps.") + f + "." + config);
        if (!rate) continue;
        const bool reference = config == "inline_asm.rpi=2";
        out.push_back({"desrnd", std::string("speedup.") + f + (reference ? "" : "." + config),
                       reference ? kind::kCalibrated : kind::kPredicted,
                       reference ? std::optional<double>(value) : std::nullopt, *rate / *base});
      }
  }
  // The coupling trade-off: every implementation's table in one coupling.csv, and where one implementation
  // overtakes another (the smallest size from which its latency stays at or below the other's).
  std::vector<std::map<std::string, std::string>> rows;
  for (const char* f : {"des", "3des"})
    for (const char* impl : kCouplingImplementations) {
      const fs::path part = work / "desrnd" / (std::string("coupling.") + f + "." + impl) / "coupling.csv";
      if (!fs::exists(part)) continue;
      const auto these = read_rows(part);
      rows.insert(rows.end(), these.begin(), these.end());
    }
  if (rows.empty()) return out;
  {
    analysis::OutputFile table(work / "desrnd" / "coupling.csv");
    analysis::CsvWriter csv(table, kCouplingColumns);
    for (const auto& r : rows) {
      for (const auto& column : kCouplingColumns) csv.cell(r.at(column));
      csv.end_row();
    }
    table.close();
  }
  // latency[f][impl][blocks]
  std::map<std::string, std::map<std::string, std::map<std::uint64_t, double>>> latency;
  for (const auto& r : rows)
    latency[r.at("functionality")][r.at("implementation")][std::stoull(r.at("blocks"))] =
        std::stod(r.at("latency_ms"));
  const std::pair<const char*, const char*> pairs[] = {{"extension", "software"},
                                                       {"core_static", "software"},
                                                       {"core_reconfigurable", "software"},
                                                       {"core_static", "extension"},
                                                       {"core_reconfigurable", "extension"}};
  for (const char* f : {"des", "3des"})
    for (const auto& [a, b] : pairs) {
      const auto& la = latency[f][a];
      const auto& lb = latency[f][b];
      std::optional<std::uint64_t> from;
      for (auto it = la.rbegin(); it != la.rend(); ++it) {
        const auto other = lb.find(it->first);
        if (other == lb.end() || it->second > other->second) break;
        from = it->first;
      }
      if (from)
        out.push_back({"desrnd", std::string("coupling.crossover_blocks.") + f + "." + a + "_beats_" + b,
                       kind::kPredicted, std::nullopt, static_cast<double>(*from)});
    }
  return out;
}

void write_figures(const fs::path& path, const std::vector<ReproducedFigure>& figures) {
  analysis::OutputFile out(path);
  analysis::CsvWriter csv(out, {"system", "figure", "kind", "published", "simulated"});
  for (const auto& f : figures)
    csv.cell(f.system)
        .cell(f.figure)
        .cell(f.kind)
        .cell(f.published ? number(*f.published) : "")
        .cell(number(f.simulated))
        .end_row();
  out.close();
}

std::vector<ReproducedFigure> read_figures(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot read");
  std::vector<ReproducedFigure> figures;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    const auto cells = split(line);
    if (cells.size() != 5) throw std::runtime_error(path.string() + ": malformed line \"" + line + "\"");
    ReproducedFigure f{cells[0], cells[1], cells[2], std::nullopt, std::stod(cells[4])};
    if (!cells[3].empty()) f.published = std::stod(cells[3]);
    figures.push_back(f);
  }
  return figures;
}

void write_reproduce_csv(const fs::path& path, const std::vector<ReproducedFigure>& figures) {
  analysis::OutputFile out(path);
  analysis::CsvWriter csv(out, {"system", "figure", "kind", "published", "simulated", "error_pct"});
  for (const auto& f : figures) {
    csv.cell(f.system).cell(f.figure).cell(f.kind).cell(f.published ? number(*f.published) : "");
    csv.cell(f.simulated, 3);
    csv.cell(f.published && *f.published != 0
                 ? analysis::fixed((f.simulated - *f.published) / *f.published * 100, 2)
                 : "");
    csv.end_row();
  }
  out.close();
}

std::string reproduce_summary(const std::vector<ReproducedFigure>& figures) {
  const auto error = [](const ReproducedFigure& f) {
    return (f.simulated - *f.published) / *f.published * 100;
  };
  const auto checked = [](const ReproducedFigure& f) { return f.published && *f.published != 0; };
  // "24 figures: 2 calibrated, 20 predicted, 2 derived" of the figures `in` accepts.
  const auto counts = [&](const std::function<bool(const ReproducedFigure&)>& in) {
    std::map<std::string, std::size_t> kinds;
    std::size_t n = 0;
    for (const auto& f : figures)
      if (in(f)) ++n, ++kinds[f.kind];
    return std::to_string(n) + " figures: " + std::to_string(kinds[kind::kCalibrated]) + " calibrated, " +
           std::to_string(kinds[kind::kPredicted]) + " predicted, " + std::to_string(kinds[kind::kDerived]) +
           " derived";
  };
  std::vector<std::string> systems;
  for (const auto& f : figures)
    if (std::find(systems.begin(), systems.end(), f.system) == systems.end()) systems.push_back(f.system);
  std::ostringstream t;
  t << counts([](const ReproducedFigure&) { return true; }) << (systems.size() > 1 ? " in all\n" : "\n");
  for (const auto& system : systems) {
    const ReproducedFigure* worst = nullptr;
    std::vector<std::pair<double, const ReproducedFigure*>> checks;
    for (const auto& f : figures) {
      if (f.system != system || !checked(f)) continue;
      if (f.kind == kind::kCalibrated && (!worst || std::fabs(error(f)) > std::fabs(error(*worst))))
        worst = &f;
      if (f.kind == kind::kPredicted) checks.emplace_back(std::fabs(error(f)), &f);
    }
    std::stable_sort(checks.begin(), checks.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    t << system << ": " << counts([&](const ReproducedFigure& f) { return f.system == system; }) << "\n";
    if (worst)
      t << "  calibrated: worst error " << analysis::fixed(error(*worst), 2) << " % (" << worst->figure
        << "): the fit\n";
    t << "  predicted with a published value: " << checks.size()
      << (checks.empty() ? "\n" : ", worst first:\n");
    for (const auto& [abs_error, f] : checks)
      t << "    " << f->figure << ": " << number(*f->published) << " published, "
        << analysis::fixed(f->simulated, 3) << " simulated, " << analysis::fixed(error(*f), 2) << " %\n";
  }
  return t.str();
}

std::string reproduce_table(const std::vector<ReproducedFigure>& figures) {
  std::ostringstream t;
  char line[256];
  std::snprintf(line, sizeof line, "%-8s %-66s %-10s %10s %12s %9s\n", "system", "figure", "kind",
                "published", "simulated", "error_%");
  t << line;
  for (const auto& f : figures) {
    const std::string err = f.published && *f.published != 0
                                ? analysis::fixed((f.simulated - *f.published) / *f.published * 100, 2)
                                : "";
    std::snprintf(line, sizeof line, "%-8s %-66s %-10s %10s %12.3f %9s\n", f.system.c_str(), f.figure.c_str(),
                  f.kind.c_str(), f.published ? number(*f.published).c_str() : "-", f.simulated,
                  err.empty() ? "-" : err.c_str());
    t << line;
  }
  return t.str();
}

}  // namespace rsoc::platform
