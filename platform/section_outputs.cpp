// Configuration unit: sections outputs and limits: the result files written, and the bounds of one
// simulation. Its schema and its resolution (platform/scenario_sections.h).
#include "platform/scenario_sections.h"

namespace rsoc::platform::sections {

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

// Section limits: bounds of one simulation.
Schema limits_section() {
  return Schema::object(
             {
                 {"simulated_s",
                  Schema::number().unit("s").min(1e-6).max(9e6).default_value(86400.0).doc(
                      "the run fails when its simulated time passes this before the workload is "
                      "done (at most 9e6 s: "
                      "simulated time is counted in 64-bit picoseconds)")},
                 {"events",
                  Schema::integer()
                      .min(1000)
                      .max(1e13)
                      .default_value(1000000000)
                      .doc(
                          "the run fails after this many kernel evaluation cycles (SystemC delta cycles, at "
                          "least "
                          "one per timed wait) before the workload is done: a bound on the work of one run")},
             })
      .doc("bounds of one simulation, so that no scenario runs forever");
}

void Resolver::outputs(ScenarioParams& p) {
  p.requests_csv = doc_["outputs"]["requests_csv"].get<bool>();
  p.stats_json = doc_["outputs"]["stats_json"].get<bool>();
  const json& trace = doc_["outputs"]["trace"];
  p.trace = window(trace, "/outputs/trace");
  if (p.trace) p.trace_bus_merge_gap = sc_time(trace["bus_merge_gap_us"].get<double>(), sc_core::SC_US);
  p.vcd = window(doc_["outputs"]["vcd"], "/outputs/vcd");
  p.breakdown_csv = doc_["outputs"]["breakdown_csv"].get<bool>();
  p.limits.simulated = sc_time(doc_["limits"]["simulated_s"].get<double>(), sc_core::SC_SEC);
  p.limits.events = u64(doc_["limits"]["events"]);
}

}  // namespace rsoc::platform::sections
