#pragma once
// A Simulation elaborates the platform of a scenario (models bound and mapped, bitstream images loaded), the
// OS runtime (schedulers, manager with its cost model) and lets callers spawn the scenario's processes or
// their own (experiments). One per process: SystemC cannot be elaborated twice.

#include <functional>
#include <memory>
#include <vector>

#include "analysis/stats.h"
#include "models/activity.h"
#include "platform/interrupt.h"
#include "platform/scenario.h"
#include "runtime/cost_model.h"
#include "runtime/hsm_firmware.h"
#include "runtime/manager.h"
#include "runtime/scheduler.h"

namespace rsoc::platform {

class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Platform;
class EnergyStatistics;

class Simulation {
 public:
  // Elaborates; throws SimulationError when the platform cannot be built.
  Simulation(const ScenarioParams& p, runtime::Manager::Sink sink);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // The scenario's applications; the simulation stops when the last one is done.
  void spawn_apps();
  // The scenario's background processes (they run until the simulation stops).
  void spawn_background();
  // The workload is done (the last application, or an experiment's process): run() returns, although
  // background processes may still be running.
  void finish();
  // Runs until finish(), in slices of simulated time sized to a fraction of a second of wall time each;
  // `progress`, when given, is called about every 2 s of wall time with the simulated time. Throws
  // SimulationError on a SystemC error, and when the run passes its limits (limits.simulated_s,
  // limits.events), or has nothing left to do before the workload of spawn_apps() is done (processes a caller
  // spawned itself end the run when nothing is left). Throws Interrupted when rsoc is interrupted (a SIGINT
  // or SIGTERM pauses the kernel within a delta cycle: platform/interrupt.h).
  void run(const std::function<void(const sc_core::sc_time&)>& progress = {});

  runtime::Manager& manager() { return *manager_; }
  runtime::HsmFirmware* hsm() { return hsm_.get(); }  // the scenario's HSM firmware, if it has one
  // The OS: one scheduler over every hardware thread of every CPU, in the order of the scenario's CPUs.
  runtime::Scheduler& scheduler() { return *scheduler_; }
  // The scheduler's threads a process placed at `where` may run on (for Scheduler::spawn; empty: any).
  std::vector<unsigned> affinity(const Placement& where) const;
  const runtime::CostModel& costs() const { return *costs_; }
  // Every statistics source's groups (each registered as it was built), in the order of stats.json.
  std::vector<analysis::StatGroup> stats(double end_ms) const;
  // The lanes of a timeline of this simulation, one per observed resource, in this order: CPU hardware
  // threads (every CPU's in turn), the scenario's processes (applications, the HSM's clients, then
  // background), buses, the configuration port, slots, DMA engines. Lane ids are indices into this list.
  std::vector<models::LaneInfo> activity_lanes() const;
  // Makes every model and scheduler of those lanes report to `sink` (null: none). Before run(); the sink must
  // outlive the simulation.
  void set_activity(models::ActivitySink* sink);

 private:
  const ScenarioParams& p_;
  SimulationInterrupt interrupt_;
  models::StatisticsRegistry statistics_;
  std::unique_ptr<Platform> platform_;
  std::unique_ptr<runtime::CostModel> costs_;
  std::unique_ptr<runtime::Manager> manager_;
  std::unique_ptr<runtime::Scheduler> scheduler_;
  std::vector<unsigned> first_thread_;  // by CPU: its thread 0 among the scheduler's threads
  std::unique_ptr<runtime::HsmFirmware> hsm_;
  std::unique_ptr<EnergyStatistics> energy_;  // with section energy
  bool finished_ = false, workload_spawned_ = false;
};

}  // namespace rsoc::platform
