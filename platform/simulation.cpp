#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "platform/simulation.h"

#include <tlm_utils/tlm_quantumkeeper.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <type_traits>
#include <variant>

#include "models/bitstream.h"
#include "platform/estimate.h"
#include "platform/hsm.h"

namespace rsoc::platform {

using sc_core::sc_time;

namespace {

// The faults of section faults each model is built with (its Params), each drawn from a stream of its own.

// The configuration errors at the port: each slot's, and the port's bit errors.
models::ConfigurationFaults configuration_faults(const FaultSpec& f, const ScenarioParams& p) {
  models::ConfigurationFaults faults;
  for (std::size_t i = 0; i < p.slots.size(); ++i)
    faults.per_configuration.emplace_back(f.configuration_probability,
                                          models::fault_seed(f.seed, "configuration", p.slots[i].name));
  faults.per_bit =
      models::FaultStream(f.bit_error_rate, models::fault_seed(f.seed, "bit_error", "config_port"));
  for (const auto& w : f.windows)
    if (w.fault == models::FaultKind::kConfiguration) faults.per_configuration[w.slot].arm(w.at);
  return faults;
}

// A stream of `probability` drawn from `seed`, armed at the windows of section faults that `planned` picks;
// none when it can never fault.
template <class Planned>
std::optional<models::FaultStream> fault_stream(double probability, std::uint64_t seed, const FaultSpec& f,
                                                Planned planned) {
  models::FaultStream stream(probability, seed);
  bool armed = false;
  for (const auto& w : f.windows)
    if (planned(w)) {
      stream.arm(w.at);
      armed = true;
    }
  if (armed || stream.probability() > 0) return stream;
  return std::nullopt;
}

// The bus faults of bus `name`.
std::optional<models::FaultStream> bus_faults(const FaultSpec& f, const std::string& name) {
  const auto rate = f.bus_error_rate.find(name);
  return fault_stream(rate == f.bus_error_rate.end() ? 0.0 : rate->second,
                      models::fault_seed(f.seed, "bus", name), f,
                      [&](const auto& w) { return w.fault == models::FaultKind::kBus && w.bus == name; });
}

// The configuration upsets of slot `i` (none without a rate, a window or scrubbing).
std::optional<models::UpsetParams> slot_upsets(const FaultSpec& f, const ScenarioParams& p, std::size_t i) {
  models::UpsetParams u;
  u.per_bit_per_s = f.upsets_per_bit_per_s;
  u.seed = models::fault_seed(f.seed, "upset", p.slots[i].name);
  for (const auto& c : p.cores) u.bits[c.id] = c.bitstream_bytes * 8;
  for (const auto& w : f.windows)
    if (w.fault == models::FaultKind::kUpset && w.slot == i) u.windows.push_back(w.at);
  if (u.per_bit_per_s > 0 || !u.windows.empty() || f.scrubbing) return u;
  return std::nullopt;
}

// The core hangs of slot `i`.
std::optional<models::FaultStream> slot_hangs(const FaultSpec& f, const ScenarioParams& p, std::size_t i) {
  return fault_stream(f.hang_probability, models::fault_seed(f.seed, "hang", p.slots[i].name), f,
                      [&](const auto& w) { return w.fault == models::FaultKind::kHang && w.slot == i; });
}

}  // namespace

// Every model of one platform, bound and mapped; each built with its faults (section faults) and energy
// (section energy), and registered as it is built when it counts something.
struct Platform {
  std::vector<std::unique_ptr<models::SoftCpu>> cpus;
  std::map<std::string, std::unique_ptr<models::RoutingBus>> buses;
  std::map<std::string, models::OnChipBus*> onchip;
  std::map<std::string, models::FmcBus*> fmc;
  std::map<std::string, std::unique_ptr<models::Memory>> memories;
  std::map<std::string, std::unique_ptr<models::DmaEngine>> dmas;
  std::map<std::string, std::unique_ptr<runtime::DmaChannel>> dma_channels;  // the OS view of each engine
  std::vector<std::unique_ptr<models::FpgaSlot>> slots;
  std::unique_ptr<models::ConfigPort> port;
  std::map<std::string, std::unique_ptr<models::Uart>> uarts;
  std::unique_ptr<models::Scrubber> scrubber;  // with faults.scrubbing

  Platform(const ScenarioParams& p, models::StatisticsRegistry& registry) : statistics(registry) {
    add_buses(p);
    add_cpus(p);
    add_memories(p);
    add_dmas(p);
    add_slots(p);
    if (p.config_port) add_config_port(p);
    for (const auto& u : p.uarts) {
      uarts[u.name] = std::make_unique<models::Uart>(u.name, u.params);
      statistics.add(*uarts[u.name], u.name);
    }
  }

  models::StatisticsRegistry& statistics;  // the run's

  // Maps a device's target `socket` at CPU address `base` on `bus` (whose window starts at its window base).
  void map(const ScenarioParams& p, const std::string& bus, models::TargetSocket& socket, std::uint64_t base,
           std::uint64_t size, const std::string& device) {
    std::uint64_t window_base = 0;
    for (const auto& b : p.buses)
      if (b.name == bus) window_base = b.window_base;
    buses.at(bus)->add_target(socket, base - window_base, size, device);
  }

  // The buses, each of its kind with its faults and energy, and the bridges between them.
  void add_buses(const ScenarioParams& p) {
    for (const auto& b : p.buses)
      std::visit(
          [&](auto params) {
            using Model = std::conditional_t<std::is_same_v<decltype(params), models::FmcBusParams>,
                                             models::FmcBus, models::OnChipBus>;
            if (p.faults) params.faults = bus_faults(*p.faults, b.name);
            if (p.energy) params.energy_pj_per_word = p.energy->bus_pj_per_word.at(b.name);
            auto bus = std::make_unique<Model>(b.name.c_str(), params);
            statistics.add(*bus, b.name);
            if constexpr (std::is_same_v<Model, models::FmcBus>)
              fmc[b.name] = bus.get();
            else
              onchip[b.name] = bus.get();
            buses[b.name] = std::move(bus);
          },
          b.params);
    for (const auto& b : p.buses)
      if (!b.parent.empty())
        map(p, b.parent, buses.at(b.name)->target, b.window_base, b.window_bytes, b.name);
  }

  // The CPUs, each with its power.
  void add_cpus(const ScenarioParams& p) {
    for (const auto& c : p.cpus) {
      models::CpuParams params = c.params;
      if (p.energy) params.power = p.energy->cpus.at(c.name);
      cpus.push_back(std::make_unique<models::SoftCpu>(c.name.c_str(), params));
      statistics.add(*cpus.back(), c.name);
      if (c.desrnd) cpus.back()->attach_extension(models::DesrndExtension(*c.desrnd));
      buses.at(c.bus)->add_initiator(cpus.back()->initiator);
    }
  }

  // The memories with their energy, and each core's bitstream image in its memory.
  void add_memories(const ScenarioParams& p) {
    for (const auto& m : p.memories) {
      models::MemoryParams params = m.params;
      if (p.energy) params.energy = p.energy->memories.at(m.name);
      auto mem = std::make_unique<models::Memory>(m.name.c_str(), params);
      statistics.add(*mem, m.name);
      map(p, m.bus, mem->target, m.base, m.params.size_bytes, m.name);
      memories[m.name] = std::move(mem);
    }
    for (const auto& c : p.cores) {
      const MemorySpec* m = nullptr;
      for (const auto& mm : p.memories)
        if (mm.name == c.memory) m = &mm;
      const auto image = models::make_bitstream(c.id, c.bitstream_bytes);
      memories.at(c.memory)->load(c.bitstream_address - m->base, image.data(), image.size());
    }
  }

  // The DMA engines with their energy, each with the OS view of it.
  void add_dmas(const ScenarioParams& p) {
    for (const auto& d : p.dmas) {
      models::DmaParams params = d.params;
      if (p.energy) params.energy_pj_per_word = p.energy->dmas.at(d.name).pj_per_word;
      auto dma = std::make_unique<models::DmaEngine>(d.name.c_str(), params);
      statistics.add(*dma, d.name);
      map(p, d.bus, dma->target, d.base, models::dma_reg::kSize, d.name);
      buses.at(d.bus)->add_initiator(dma->initiator);
      dma_channels[d.name] = std::make_unique<runtime::DmaChannel>(d.base, *dma);
      dmas[d.name] = std::move(dma);
    }
  }

  // The slots with their faults and static power, each holding a model of every core that fits it (its static
  // core preloaded), each core with its energy.
  void add_slots(const ScenarioParams& p) {
    for (std::size_t i = 0; i < p.slots.size(); ++i) {
      const SlotSpec& s = p.slots[i];
      models::SlotParams params = s.params;
      if (p.faults) {
        params.upsets = slot_upsets(*p.faults, p, i);
        params.hangs = slot_hangs(*p.faults, p, i);
      }
      if (p.energy) params.static_mw = p.energy->slot_static_mw.at(s.name);
      auto slot = std::make_unique<models::FpgaSlot>(s.name.c_str(), params);
      statistics.add(*slot, s.name);
      for (const auto& c : p.cores)
        if (c.bitstream_bytes <= s.params.capacity_bytes || c.name == s.core) {
          models::CoreParams core = c.params;
          if (p.energy) core.energy_pj_per_cycle = p.energy->core_pj_per_cycle.at(c.name);
          slot->add_candidate(c.id, models::make_core(s.name + "." + c.name, core));
        }
      for (const auto& c : p.cores)
        if (c.name == s.core) slot->preload(c.id);
      map(p, s.bus, slot->target, s.base, s.window_bytes, s.name);
      slots.push_back(std::move(slot));
    }
  }

  // The configuration port with its faults and energy, and the scrubber when faults.scrubbing asks for one.
  void add_config_port(const ScenarioParams& p) {
    std::vector<models::FpgaSlot*> all;
    for (const auto& s : slots) all.push_back(s.get());
    models::ConfigPortParams params = p.config_port->params;
    if (p.faults) params.faults = configuration_faults(*p.faults, p);
    if (p.energy) params.energy_nj_per_word = p.energy->config_port_nj_per_word;
    port = std::make_unique<models::ConfigPort>("config_port", params, all);
    statistics.add(*port);
    map(p, p.config_port->bus, port->target, p.config_port->base, models::port_reg::kSize, "config_port");
    if (p.faults && p.faults->scrubbing) {
      scrubber = std::make_unique<models::Scrubber>("scrubber", *p.faults->scrubbing, *port, all);
      statistics.add(*scrubber);
    }
  }
};

namespace {

std::unique_ptr<runtime::Manager> make_manager(const ScenarioParams& p, Platform& pf,
                                               const runtime::CostModel* costs, runtime::Manager::Sink sink) {
  std::vector<runtime::SlotView> views;
  for (std::size_t i = 0; i < p.slots.size(); ++i)
    views.push_back(runtime::SlotView{p.slots[i].name, pf.slots[i].get(), p.slots[i].base,
                                      static_cast<unsigned>(i), p.slots[i].params.reconfigurable,
                                      p.slots[i].params.capacity_bytes});
  std::vector<runtime::CoreDesign> designs;
  for (const auto& c : p.cores) designs.push_back(c.design());
  std::unique_ptr<runtime::ReconfigurationDriver> reconf;
  if (p.config_port) {
    runtime::ReconfigurationFeed feed;
    if (p.config_port->dma_feed) feed.dma = pf.dma_channels.at(p.config_port->dma).get();
    feed.cpu_copy_cycles_per_word = p.config_port->cpu_copy_cycles_per_word;
    reconf = std::make_unique<runtime::ReconfigurationDriver>(p.config_port->base, feed);
  }
  runtime::DataPath path;
  if (p.data_dma) {
    for (const auto& engine : p.data_dma->engines) path.engines.push_back(pf.dma_channels.at(engine).get());
    for (std::size_t i = 0; i < p.slots.size(); ++i)
      path.engine_of[p.slots[i].base] = i % path.engines.size();
    path.buffer = p.data_dma->buffer;
    path.buffer_bytes = p.data_dma->buffer_bytes;
  }
  return std::make_unique<runtime::Manager>(p.runtime, views, designs, std::move(reconf), costs,
                                            std::move(sink), path);
}

// Block count of request `r` of an application.
std::uint64_t blocks_of(const BlockCounts& b, std::uint64_t r, std::mt19937_64& rng) {
  switch (b.kind) {
    case BlockCounts::Kind::kFixed:
      return b.list.front();
    case BlockCounts::Kind::kList:
      return b.list[r % b.list.size()];
    case BlockCounts::Kind::kUniform:
      return std::uniform_int_distribution<std::uint64_t>(b.min, b.max)(rng);
    case BlockCounts::Kind::kGeometric: {
      const double extra = std::max(b.mean - static_cast<double>(b.min), 0.0);
      const std::uint64_t n = b.min + std::geometric_distribution<std::uint64_t>(1.0 / (extra + 1.0))(rng);
      return std::min(n, b.max);
    }
  }
  return 1;
}

// The scheduler's threads a process placed at `where` may run on (empty: any). The scheduler's threads are
// every CPU's in turn: CPU c's thread t is first_thread[c] + t.
std::vector<unsigned> affinity(const Placement& where, const ScenarioParams& p,
                               const std::vector<unsigned>& first_thread) {
  std::vector<unsigned> threads;
  if (where.hw_thread) {
    threads.push_back(first_thread[where.cpus.empty() ? 0 : where.cpus.front()] + *where.hw_thread);
    return threads;
  }
  for (std::size_t c : where.cpus)
    for (unsigned t = 0; t < p.cpus[c].params.hw_threads; ++t) threads.push_back(first_thread[c] + t);
  return threads;
}

// When an application has completed its last request (for those that start after it).
struct AppEnd {
  bool done = false;
  sc_core::sc_event event;
};

// Applications and the HSM firmware's tasks and clients, each application a process under the scheduler of
// its hardware thread. The simulation stops when the last application (and the HSM's last client) is done.
void spawn_workload(const ScenarioParams& p, runtime::Manager& manager, runtime::Scheduler& scheduler,
                    const std::vector<unsigned>& first_thread, runtime::HsmFirmware* hsm,
                    const std::function<void()>& app_done) {
  if (hsm) hsm->start(app_done);
  auto ends = std::make_shared<std::vector<AppEnd>>(p.apps.size());
  // Every application's key, each drawn once: the copies of an entry (its count) share their entry's.
  auto keys = std::make_shared<std::vector<std::vector<std::uint8_t>>>(p.apps.size());
  std::map<std::pair<runtime::Functionality, std::uint64_t>, std::size_t> drawn;  // -> the first app's
  for (std::size_t a = 0; a < p.apps.size(); ++a) {
    const AppSpec& app = p.apps[a];
    if (!app.key_seed) {
      (*keys)[a] = app.key;
    } else if (const auto [it, first] = drawn.emplace(std::pair(app.functionality, *app.key_seed), a);
               first) {
      (*keys)[a] = key_of(app);
    } else {
      (*keys)[a] = (*keys)[it->second];
    }
  }
  for (std::size_t a = 0; a < p.apps.size(); ++a) {
    const AppSpec& app = p.apps[a];
    scheduler.spawn(
        app.name, app.priority,
        [&p, &manager, &app, a, app_done, ends, keys](runtime::Process& proc) {
          std::mt19937_64 sizes((p.seed + 17) * 0xD1B54A32D192ED03ull ^ a);
          std::mt19937_64 arrivals((p.seed + 29) * 0x94D049BB133111EBull ^ a);
          sc_time next_arrival = app.start;
          if (app.after) {  // start_us counts from the end of the application it follows
            AppEnd& before = (*ends)[*app.after];
            if (!before.done) proc.wait_for(before.event);
            next_arrival = proc.cpu().now() + app.start;
            if (!app.poisson && app.start != sc_core::SC_ZERO_TIME) proc.sleep(app.start);
          }
          sc_time first_issued;
          for (std::uint64_t r = 0; r < app.requests; ++r) {
            // Closed loop: the request was issued when the process woke up to issue it (it may have waited
            // for the CPU since), or without a pause as the previous one ended (the process's local time);
            // open loop: at its arrival time.
            sc_time issued =
                (r == 0 || app.think != sc_core::SC_ZERO_TIME) ? proc.ready_since() : proc.cpu().now();
            if (app.poisson) {
              if (r > 0)
                // An interval past the run's limit is as good as forever: never wrapped around.
                next_arrival +=
                    sc_time(std::min(std::exponential_distribution<double>(app.rate_per_s)(arrivals),
                                     p.limits.simulated.to_seconds()),
                            sc_core::SC_SEC);
              if (r > app.warmup && app.duration && next_arrival > first_issued + *app.duration) break;
              const sc_time now = proc.cpu().now();
              if (next_arrival > now) proc.sleep(next_arrival - now);
              issued = next_arrival;
            }
            if (r == app.warmup) first_issued = issued;  // the clock starts after the warm-up requests
            if (r > app.warmup && app.duration && issued > first_issued + *app.duration) break;
            std::vector<std::uint8_t> data(blocks_of(app.blocks, r, sizes) *
                                           runtime::unit_bytes(p.runtime.unit_bytes, app.functionality));
            runtime::draw_data((p.seed + 1) * 0x9E3779B97F4A7C15ull ^ (a << 32) ^ r, data);
            runtime::shape_data(app.functionality, data);
            manager.request(proc, app.name, app.functionality, (*keys)[a], data, app.encrypt, issued);
            if (!app.poisson && app.think != sc_core::SC_ZERO_TIME) proc.sleep(app.think);
          }
          proc.cpu().sync();  // the simulation ends when the last request did, not a quantum earlier
          (*ends)[a].done = true;
          (*ends)[a].event.notify(sc_core::SC_ZERO_TIME);
          app_done();
        },
        app.after ? sc_core::SC_ZERO_TIME : app.start,  // after another: start_us counts from its end
        affinity(app.placement, p, first_thread));
  }
}

// Background processes load the CPU until the simulation stops.
void spawn_background_processes(const ScenarioParams& p, runtime::Scheduler& scheduler,
                                const std::vector<unsigned>& first_thread) {
  for (const auto& bg : p.background) {
    scheduler.spawn(
        bg.name, bg.priority,
        [&bg](runtime::Process& proc) {
          for (;;) {
            proc.compute(static_cast<std::uint64_t>(bg.busy / proc.cpu().cpu().params().clock_period + 0.5));
            if (bg.idle != sc_core::SC_ZERO_TIME) proc.sleep(bg.idle);
          }
        },
        bg.start, affinity(bg.placement, p, first_thread));
  }
}

}  // namespace

// The run's energy by component (section energy): what each kind of model spent, and the powers over the
// run's time. mW x ms = 1e-3 mJ.
class EnergyStatistics final : public models::StatisticsSource {
 public:
  EnergyStatistics(const EnergySpec& e, const Platform& pf) : e_(e), pf_(pf) {}
  models::StatisticsRank statistics_rank() const override { return models::StatisticsRank::kEnergy; }
  void statistics(double end_ms, std::vector<models::StatGroup>& out) const override {
    out.push_back(group(e_, pf_, end_ms));
  }

 private:
  static analysis::StatGroup group(const EnergySpec& e, const Platform& pf, double end_ms);
  const EnergySpec& e_;
  const Platform& pf_;
};

analysis::StatGroup EnergyStatistics::group(const EnergySpec& e, const Platform& pf, double end_ms) {
  double cpu = 0, cpu_idle = 0, bus = 0, memory = 0, dma = 0, dma_idle = 0, core = 0, slot_static = 0;
  for (const auto& c : pf.cpus) {
    double busy_ms = 0;
    for (unsigned i = 0; i < c->thread_count(); ++i) busy_ms += models::to_ms(c->thread(i).busy_time());
    cpu += c->busy_thread_mw() * busy_ms * 1e-3;
    cpu_idle += c->idle_mw() * end_ms * 1e-3;
  }
  for (const auto& [name, b] : pf.buses) bus += b->energy().total_nj() * 1e-6;
  for (const auto& [name, m] : pf.memories) memory += m->energy().total_nj() * 1e-6;
  for (const auto& [name, d] : pf.dmas) {
    dma += d->energy().total_nj() * 1e-6;
    dma_idle += e.dmas.at(name).idle_mw * end_ms * 1e-3;
  }
  const double port = pf.port ? pf.port->energy().total_nj() * 1e-6 : 0.0;
  for (const auto& s : pf.slots) {
    core += s->core_energy_nj() * 1e-6;
    slot_static += s->static_power_mw() * end_ms * 1e-3;
  }
  const double baseline = e.baseline_mw * end_ms * 1e-3;
  const double dynamic = cpu + bus + memory + dma + port + core;
  const double floor = cpu_idle + dma_idle + slot_static + baseline;
  analysis::StatGroup g{"energy", "energy", {}};
  g.add("total_mj", dynamic + floor, "mJ", "everything the platform spent during the run")
      .add("dynamic_mj", dynamic, "mJ", "what its components spent working (the parts below)")
      .add("cpu_mj", cpu, "mJ", "CPU threads busy, above idle")
      .add("bus_mj", bus, "mJ", "words the buses carried")
      .add("memory_mj", memory, "mJ", "words read and written")
      .add("dma_mj", dma, "mJ", "words the DMA engines moved (their own part)")
      .add("config_port_mj", port, "mJ", "words the configuration port took")
      .add("core_mj", core, "mJ", "cycles the cores computed")
      .add("floor_mj", floor, "mJ", "the power with nothing busy, over the run (the parts below)")
      .add("cpu_idle_mj", cpu_idle, "mJ", "CPUs idle")
      .add("dma_idle_mj", dma_idle, "mJ", "DMA engines idle")
      .add("slot_static_mj", slot_static, "mJ", "the slots' static power")
      .add("baseline_mj", baseline, "mJ", "energy.baseline_mw")
      .add("mean_power_mw", end_ms > 0 ? (dynamic + floor) / end_ms * 1e3 : 0.0, "mW",
           "total energy over simulated time");
  return g;
}

Simulation::Simulation(const ScenarioParams& p, runtime::Manager::Sink sink) : p_(p) {
  try {
    tlm_utils::tlm_quantumkeeper::set_global_quantum(p.quantum);
    platform_ = std::make_unique<Platform>(p, statistics_);
    costs_ = std::make_unique<runtime::CostModel>(estimate_costs(p));
    manager_ = make_manager(p, *platform_, costs_.get(), sink);
    statistics_.add(*manager_);
    // One OS over every hardware thread of every CPU.
    std::vector<models::CpuThread*> threads;
    for (const auto& cpu : platform_->cpus) {
      first_thread_.push_back(static_cast<unsigned>(threads.size()));
      for (unsigned i = 0; i < cpu->thread_count(); ++i) threads.push_back(&cpu->thread(i));
    }
    scheduler_ = std::make_unique<runtime::Scheduler>(threads, p.scheduler);
    statistics_.add(*scheduler_);
    if (p.hsm) {
      Platform& pf = *platform_;
      hsm_ =
          make_hsm_firmware(p, *scheduler_, *manager_, *pf.uarts.at(p.hsm->uart),
                            [&p, &pf](std::uint64_t address, const std::vector<std::uint8_t>& bytes) {
                              for (const auto& m : p.memories)
                                if (address >= m.base && address - m.base < m.params.size_bytes)
                                  pf.memories.at(m.name)->load(address - m.base, bytes.data(), bytes.size());
                            });
    }
    if (hsm_) statistics_.add(*hsm_);
    if (p.energy) {
      energy_ = std::make_unique<EnergyStatistics>(*p.energy, *platform_);
      statistics_.add(*energy_);
    }
  } catch (const models::ElaborationError& e) {
    throw SimulationError(std::string("elaboration failed: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw SimulationError(std::string("elaboration failed: ") + e.what());
  }
}

Simulation::~Simulation() = default;

std::vector<unsigned> Simulation::affinity(const Placement& where) const {
  return platform::affinity(where, p_, first_thread_);
}

void Simulation::spawn_apps() {
  // The simulation stops when the applications and the HSM's clients are all done.
  auto left = std::make_shared<std::size_t>(p_.apps.size() + (hsm_ ? 1 : 0));
  auto one_done = [this, left] {
    if (--*left == 0) finish();  // background processes may still be running
  };
  workload_spawned_ = true;
  spawn_workload(p_, *manager_, *scheduler_, first_thread_, hsm_.get(), one_done);
}

void Simulation::spawn_background() {
  spawn_background_processes(p_, *scheduler_, first_thread_);
  if (p_.runtime.prefetch.predictor != runtime::Predictor::kNone) {
    runtime::Manager& manager = *manager_;
    scheduler_->spawn(
        "prefetcher", p_.runtime.prefetch.priority,
        [&manager](runtime::Process& p) { manager.run_prefetcher(p); }, sc_core::SC_ZERO_TIME);
  }
}

void Simulation::finish() {
  finished_ = true;
  sc_core::sc_pause();
}

void Simulation::run(const std::function<void(const sc_core::sc_time&)>& progress) {
  using Clock = std::chrono::steady_clock;
  const std::uint64_t first_event = sc_core::sc_delta_count();
  const auto started = Clock::now();
  auto reported = started;
  // Slices of simulated time: each returns to this loop within a fraction of a second of wall time however
  // dense the events are (doubled while fast, halved while slow), so that the limits are checked often.
  sc_time slice(1, sc_core::SC_US);
  const sc_time shortest(1, sc_core::SC_NS), longest(1, sc_core::SC_SEC);
  const auto at = [] { return std::to_string(sc_core::sc_time_stamp().to_seconds() * 1e3) + " ms"; };
  throw_if_interrupted();
  try {
    while (!finished_) {
      const sc_time now = sc_core::sc_time_stamp();
      if (now >= p_.limits.simulated)
        throw SimulationError("the workload is not done after " +
                              std::to_string(p_.limits.simulated.to_seconds()) +
                              " s of simulated time (limits.simulated_s); raise it if the run needs longer");
      const auto t0 = Clock::now();
      sc_core::sc_start(std::min(slice, p_.limits.simulated - now));
      throw_if_interrupted();  // an interrupt pauses the kernel within a delta cycle
      if (finished_) break;
      const auto wall = Clock::now() - t0;
      if (sc_core::sc_delta_count() - first_event >= p_.limits.events)
        throw SimulationError("the workload is not done after " + std::to_string(p_.limits.events) +
                              " kernel evaluation cycles (limits.events), at " + at() +
                              " of simulated time; raise it if the run needs more");
      if (!sc_core::sc_pending_activity()) {
        if (!workload_spawned_) break;  // processes a caller spawned itself: they are all done
        throw SimulationError(
            "nothing is left to simulate at " + at() +
            ", but the workload is not done: a process waits for something that never happens");
      }
      if (wall < std::chrono::milliseconds(20) && slice < longest) slice = slice * 2;
      if (wall > std::chrono::milliseconds(200) && slice > shortest) slice = slice / 2;
      if (progress && Clock::now() - reported >= std::chrono::seconds(2)) {
        reported = Clock::now();
        progress(sc_core::sc_time_stamp());
      }
    }
  } catch (const sc_core::sc_report& e) {
    // An exception a process let escape (a duration past 2^57 ps) comes as SystemC's report E549: its own
    // message, with the process and the time, on one line.
    const std::string type = e.get_msg_type() ? e.get_msg_type() : "";
    const std::string process = e.get_process_name() ? e.get_process_name() : "";
    throw SimulationError("simulation failed" + (process.empty() ? std::string() : " in " + process) +
                          " at " + std::to_string(e.get_time().to_seconds() * 1e3) + " ms: " +
                          (type == "uncaught exception" ? std::string() : type + ": ") + e.get_msg());
  }
  throw_if_interrupted();
}

std::vector<analysis::StatGroup> Simulation::stats(double end_ms) const {
  return statistics_.collect(end_ms);
}

namespace {
// Visits every resource a timeline observes, in lane order: visit(kind, name, attach), where attach(sink,
// lane) makes it report (processes report nothing themselves: their requests come from the manager's
// records).
template <class Visit>
void for_each_observed(const ScenarioParams& p, Platform& pf, runtime::Scheduler& scheduler, Visit visit) {
  using models::LaneKind;
  unsigned t = 0;  // the scheduler's threads: every CPU's in turn
  for (const auto& cpu : pf.cpus)
    for (unsigned i = 0; i < cpu->thread_count(); ++i, ++t)
      visit(LaneKind::kCpuThread, std::string(cpu->name()) + ".thread" + std::to_string(i),
            [&scheduler, t](models::ActivitySink* sink, models::Lane lane) {
              scheduler.set_activity(t, sink, lane);
            });
  auto none = [](models::ActivitySink*, models::Lane) {};
  for (const auto& app : p.apps) visit(LaneKind::kProcess, app.name, none);
  if (p.hsm)
    for (unsigned c = 0; c < p.hsm->params.clients; ++c)
      visit(LaneKind::kProcess, "client" + std::to_string(c), none);
  for (const auto& bg : p.background) visit(LaneKind::kProcess, bg.name, none);
  for (const auto& b : p.buses)
    visit(LaneKind::kBus, b.name,
          [&bus = *pf.buses.at(b.name)](models::ActivitySink* sink, models::Lane lane) {
            bus.set_activity(sink, lane);
          });
  if (pf.port)
    visit(
        LaneKind::kConfigPort, pf.port->basename(),
        [&port = *pf.port](models::ActivitySink* sink, models::Lane lane) { port.set_activity(sink, lane); });
  for (const auto& slot : pf.slots)
    visit(LaneKind::kSlot, slot->basename(),
          [&s = *slot](models::ActivitySink* sink, models::Lane lane) { s.set_activity(sink, lane); });
  for (const auto& d : p.dmas)
    visit(LaneKind::kDma, d.name,
          [&dma = *pf.dmas.at(d.name)](models::ActivitySink* sink, models::Lane lane) {
            dma.set_activity(sink, lane);
          });
}
}  // namespace

std::vector<models::LaneInfo> Simulation::activity_lanes() const {
  std::vector<models::LaneInfo> lanes;
  for_each_observed(p_, *platform_, *scheduler_, [&](models::LaneKind kind, const std::string& name, auto&&) {
    lanes.push_back(models::LaneInfo{kind, name});
  });
  return lanes;
}

void Simulation::set_activity(models::ActivitySink* sink) {
  models::Lane lane = 0;
  for_each_observed(p_, *platform_, *scheduler_,
                    [&](models::LaneKind, const std::string&, auto&& attach) { attach(sink, lane++); });
}

}  // namespace rsoc::platform
