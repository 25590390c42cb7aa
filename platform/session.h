#pragma once
// A simulation session: builds the platform described by a Scenario (models, bindings, bitstream images, the
// OS runtime and the applications), runs it to completion, and writes the results into an output folder.
// One process runs one session: SystemC cannot be elaborated twice.

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analysis/request_log.h"
#include "analysis/run_summary.h"
#include "platform/scenario.h"
#include "platform/simulation.h"

namespace rsoc::platform {

using analysis::energy_text;
using analysis::RunSummary;

// Runs `scenario` and writes requests.csv, breakdown.csv, summary.csv, stats.json, resolved_scenario.json
// (and host.json with wall-clock facts; trace.json and timeline.vcd when the scenario's outputs ask) into
// `out`, atomically. Throws SimulationError (elaboration or simulation failure) or analysis::OutputDirError.
RunSummary run_session(const Scenario& scenario, const std::filesystem::path& out);

}  // namespace rsoc::platform
