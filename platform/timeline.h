#pragma once
// Timeline: the timelines a scenario asks for (outputs.trace: trace.json, analysis/trace_events.h;
// outputs.vcd: timeline.vcd, platform/vcd_timeline.h), attached to a simulation as the one observer of its
// models and schedulers, and fed the manager's request records. Opt-in: a run without them attaches nothing.

#include <memory>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "analysis/provenance.h"
#include "analysis/trace_events.h"
#include "models/activity.h"
#include "platform/scenario.h"
#include "platform/simulation.h"
#include "platform/vcd_timeline.h"
#include "runtime/request_record.h"

namespace rsoc::platform {

class Timeline final : public models::ActivitySink {
 public:
  // Creates the files in `out` and attaches to `sim`: before sim.run(), and destroyed after `sim` (which
  // keeps a pointer to it). Throws analysis::OutputDirError.
  Timeline(const ScenarioParams& p, Simulation& sim, const analysis::OutputDir& out,
           const analysis::Provenance& provenance);
  // A completed request (the manager's record).
  void request(const runtime::RequestRecord& r);
  // Completes the files, after the run. Returns warnings for the user: a window that starts after the run
  // ended.
  std::vector<std::string> finish();

  void bus_transfer(models::Lane bus, std::uint64_t start_ps, std::uint64_t end_ps, std::uint64_t words,
                    models::BurstRef burst, std::uint64_t now_ps) override;
  void configuration_began(models::Lane slot, std::uint64_t at_ps) override;
  void configuration_ended(models::Lane slot, std::uint64_t at_ps, const std::string* core) override;
  void core_work(models::Lane slot, const char* operation, std::uint64_t start_ps,
                 std::uint64_t end_ps) override;
  void port_configuration(models::Lane port, const std::string& slot, std::uint64_t start_ps,
                          std::uint64_t end_ps, std::uint64_t words, bool ok) override;
  void dma_transfer(models::Lane dma, std::uint64_t start_ps, std::uint64_t end_ps, std::uint64_t words,
                    const std::string& bottleneck, bool ok) override;
  void process_ran(models::Lane cpu_thread, const std::string& process, std::uint64_t start_ps,
                   std::uint64_t end_ps) override;
  void fault(models::Lane lane, const char* what, std::uint64_t at_ps) override;

 private:
  std::unique_ptr<analysis::TraceEventWriter> trace_;  // null unless outputs.trace
  std::unique_ptr<VcdTimeline> vcd_;                   // null unless outputs.vcd
  struct {
    sc_core::sc_time trace, vcd;
  } start_;  // the windows' starts
};

}  // namespace rsoc::platform
