#include "platform/timeline.h"

#include <cstdio>

#include "models/kernel_time.h"

namespace rsoc::platform {

Timeline::Timeline(const ScenarioParams& p, Simulation& sim, const analysis::OutputDir& out,
                   const analysis::Provenance& provenance) {
  const std::vector<models::LaneInfo> lanes = sim.activity_lanes();
  if (p.trace) start_.trace = p.trace->start;
  if (p.vcd) start_.vcd = p.vcd->start;
  if (p.trace) {
    analysis::TraceWindow window;
    window.start_ps = models::to_ps(p.trace->start);
    if (p.trace->end) window.end_ps = models::to_ps(*p.trace->end);
    trace_ = std::make_unique<analysis::TraceEventWriter>(out.file("trace.json").string(), lanes, window,
                                                          models::to_ps(p.trace_bus_merge_gap), provenance);
  }
  if (p.vcd)
    vcd_ = std::make_unique<VcdTimeline>("timeline", out.file("timeline").string(), lanes, p.vcd->start,
                                         p.vcd->end.value_or(sc_core::sc_max_time()));
  sim.set_activity(this);
}

void Timeline::request(const runtime::RequestRecord& r) {
  if (trace_) trace_->request(r);
}

std::vector<std::string> Timeline::finish() {
  if (trace_) trace_->finish();
  if (vcd_) vcd_->close();
  // A window that begins after the run ended shows nothing: said, since the file alone looks like an idle
  // run.
  std::vector<std::string> warnings;
  const sc_core::sc_time end = sc_core::sc_time_stamp();
  const auto ms = [](const sc_core::sc_time& t) {
    char text[48];
    std::snprintf(text, sizeof text, "%.6g ms", t.to_seconds() * 1e3);
    return std::string(text);
  };
  const auto check = [&](const char* file, const char* key, const sc_core::sc_time& start) {
    if (start > end)
      warnings.push_back(std::string(file) + " shows nothing: its window (" + key + ") starts at " +
                         ms(start) + ", after the run ended at " + ms(end));
  };
  if (trace_) check("trace.json", "outputs.trace.start_ms", start_.trace);
  if (vcd_) check("timeline.vcd", "outputs.vcd.start_ms", start_.vcd);
  return warnings;
}

void Timeline::bus_transfer(models::Lane bus, std::uint64_t start_ps, std::uint64_t end_ps,
                            std::uint64_t words, models::BurstRef burst, std::uint64_t now_ps) {
  if (trace_) trace_->bus_transfer(bus, start_ps, end_ps, words, burst, now_ps);
  if (vcd_) vcd_->bus_transfer(bus, start_ps, end_ps);
}

void Timeline::configuration_began(models::Lane slot, std::uint64_t at_ps) {
  if (trace_) trace_->configuration_began(slot, at_ps);
  if (vcd_) vcd_->configuration_began(slot, at_ps);
}

void Timeline::fault(models::Lane lane, const char* what, std::uint64_t at_ps) {
  if (trace_) trace_->fault(lane, what, at_ps);  // (the VCD draws states: a hung core stays busy)
}

void Timeline::configuration_ended(models::Lane slot, std::uint64_t at_ps, const std::string* core) {
  if (trace_) trace_->configuration_ended(slot, at_ps, core);
  if (vcd_) vcd_->configuration_ended(slot, at_ps, core != nullptr);
}

void Timeline::core_work(models::Lane slot, const char* operation, std::uint64_t start_ps,
                         std::uint64_t end_ps) {
  if (trace_) trace_->core_work(slot, operation, start_ps, end_ps);
  if (vcd_) vcd_->core_work(slot, start_ps, end_ps);
}

void Timeline::port_configuration(models::Lane port, const std::string& slot, std::uint64_t start_ps,
                                  std::uint64_t end_ps, std::uint64_t words, bool ok) {
  if (trace_) trace_->port_configuration(port, slot, start_ps, end_ps, words, ok);
}

void Timeline::dma_transfer(models::Lane dma, std::uint64_t start_ps, std::uint64_t end_ps,
                            std::uint64_t words, const std::string& bottleneck, bool ok) {
  if (trace_) trace_->dma_transfer(dma, start_ps, end_ps, words, bottleneck, ok);
}

void Timeline::process_ran(models::Lane cpu_thread, const std::string& process, std::uint64_t start_ps,
                           std::uint64_t end_ps) {
  if (trace_) trace_->process_ran(cpu_thread, process, start_ps, end_ps);
}

}  // namespace rsoc::platform
