// rsoc run: simulate a scenario and write its results.

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/log.h"
#include "platform/scenario.h"
#include "platform/session.h"
#include "tools/cli.h"
#include "tools/openssl_des_reference.h"

namespace rsoc::cli {

namespace {

// The summary of a run as JSON: its figures, the rows of summary.csv, the verdict line and the folder.
nlohmann::ordered_json run_json(const rsoc::platform::RunSummary& summary, const std::string& scenario,
                                const fs::path& out) {
  nlohmann::ordered_json doc;
  doc["command"] = "run";
  doc["scenario"] = scenario;
  doc["out"] = out.string();
  doc["requests"] = summary.requests;
  doc["failed"] = summary.failed;
  doc["simulated_ms"] = summary.simulated_ms;
  doc["requests_per_s"] = summary.requests_per_s;
  doc["summary"] = nlohmann::ordered_json::array();
  for (const auto& r : summary.rows)
    doc["summary"].push_back({{"functionality", r.functionality},
                              {"decision", r.decision},
                              {"count", r.count},
                              {"failed", r.failed},
                              {"blocks", r.blocks},
                              {"bytes", r.bytes},
                              {"reconfigurations", r.reconfigurations},
                              {"latency_mean_ms", r.latency_mean_ms},
                              {"latency_p50_ms", r.latency_p50_ms},
                              {"latency_p99_ms", r.latency_p99_ms},
                              {"throughput_kBps", r.throughput_kBps}});
  for (std::size_t i = 0; i < summary.rows.size(); ++i)
    if (summary.rows[i].energy_mean_uj) doc["summary"][i]["energy_mean_uj"] = *summary.rows[i].energy_mean_uj;
  doc["verdict"] = summary.verdict;
  if (!summary.faults.empty()) doc["faults"] = summary.faults;
  if (!summary.replacement.empty()) doc["replacement"] = summary.replacement;
  if (!summary.energy.empty()) doc["energy"] = summary.energy;
  return doc;
}

int cmd_run(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc run [SCENARIO] [options]\n\nSimulates SCENARIO (a JSON file; without it, the "
      "embedded default scenario) and writes\nrequests.csv, breakdown.csv, summary.csv, stats.json, "
      "resolved_scenario.json and host.json into the output folder\n(and trace.json, timeline.vcd when "
      "asked). Ends by naming the busiest resource and the largest share of latency.\n\noptions");
  opts.add_options()("help,h", "this help")("set", po::value<std::vector<std::string>>()->composing(),
                                            "override a scenario value: --set path=value (path dotted like "
                                            "platform.cpus.0.clock_mhz, or a JSON pointer); "
                                            "repeatable")(
      "out,o", po::value<std::string>(), "output folder (default: rsoc-out/<scenario name>)")(
      "seed", po::value<std::string>(), "override the scenario seed")(
      "trace", "write trace.json, a Chrome/Perfetto trace of the whole run (sets outputs.trace)")(
      "trace-window", po::value<std::string>(),
      "START_MS:END_MS: trace only this window of simulated time (END_MS empty: to the end)")(
      "vcd", "write timeline.vcd, slot states and bus activity for GTKWave (sets outputs.vcd)")(
      "vcd-window", po::value<std::string>(), "START_MS:END_MS: the VCD of this window only");
  add_format_option(opts);
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  const Format format = output_format(vm);
  rsoc::platform::LoadOptions timelines;
  timeline_overrides(vm, "trace", timelines);
  timeline_overrides(vm, "vcd", timelines);
  const rsoc::platform::Scenario scenario = load_for(vm, "run", std::move(timelines));
  const fs::path out =
      vm.count("out") ? fs::path(vm["out"].as<std::string>()) : fs::path("rsoc-out") / scenario_stem(vm);
  logging::note() << "rsoc: running " << scenario.file << "\n";
  describe_scenario(scenario);
  const auto summary = writing(out, [&] { return rsoc::platform::run_session(scenario, out); });
  if (format == Format::kJson)
    print_json(run_json(summary, scenario.file, out));
  else
    std::cout << summary.table << summary.verdict << "\n"
              << (summary.replacement.empty() ? "" : summary.replacement + "\n")
              << (summary.faults.empty() ? "" : summary.faults + "\n")
              << (summary.energy.empty() ? "" : summary.energy + "\n");
  report_files(out);
  // Failed requests fail the command: said even when quiet.
  (summary.failed ? std::cerr : logging::note())
      << "rsoc: " << summary.requests << " requests (" << summary.failed << " failed), "
      << summary.simulated_ms << " ms simulated; results in " << out.string() << "\n";
  return summary.failed ? kSimulationFailure : kOk;
}

}  // namespace

extern const Command kRunCommand = {
    "run", "run [SCENARIO]",
    "simulate a scenario (the embedded default when none is given) and write results", true, cmd_run};

}  // namespace rsoc::cli
