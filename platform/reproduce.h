#pragma once
// Reproduction of the published reference systems (each scenario's md says what was published, what is
// derived and what is assumed): each system is a shipped scenario plus the experiment that measures its
// figures. `rsoc reproduce` runs every system in its own process and gathers the figures into reproduce.csv:
// system, figure, kind, published, simulated, error_pct. A figure with no published value has an empty
// `published`.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rsoc::platform {

// How far a figure can be trusted: `calibrated` (a model input was fitted to it), `predicted` (no input was
// fitted to it: the model's behaviour gives it) or `derived` (it follows from calibrated inputs by
// arithmetic alone, with no behaviour of the model in it). Each system's scenario md lists its fitted inputs
// and the figures each was fitted to.
namespace kind {
inline constexpr const char* kCalibrated = "calibrated";
inline constexpr const char* kPredicted = "predicted";
inline constexpr const char* kDerived = "derived";
}  // namespace kind

struct ReproducedFigure {
  std::string system, figure;
  std::string kind;  // kind::kCalibrated, kPredicted or kDerived
  std::optional<double> published;
  double simulated = 0;
};

// The systems `rsoc reproduce` knows, in report order.
std::vector<std::string> reproduction_systems();
// The shipped scenario of each system, by its file's stem: soc os_aes_des, hsm hsm_rsa2048, cell cell_rsa4096,
// desrnd desrnd_3des.
std::string reproduction_scenario(const std::string& system);
// The system a --system names: its own name or its scenario's (os_aes_des is soc); nothing for another name.
std::optional<std::string> reproduction_system(const std::string& name);
// The experiments of a system, each one simulation (one process): names like "crossover" or "clients=4".
std::vector<std::string> reproduction_experiments(const std::string& system);
// Roughly how many seconds of one core an experiment takes (measured on a 2-core reference machine), for
// starting the longest first when they run in parallel; it decides no result.
double reproduction_cost(const std::string& system, const std::string& experiment);
// The folder holding the shipped scenarios (the source tree's scenarios/ unless `override_dir` is given).
std::filesystem::path scenario_dir(const std::optional<std::filesystem::path>& override_dir);

// Runs one experiment of `system` in this process (one elaboration), writes its own result files into `out`
// and returns its figures. Throws SimulationError, ScenarioError, std::invalid_argument (unknown system or
// experiment).
std::vector<ReproducedFigure> reproduce_experiment(const std::string& system, const std::string& experiment,
                                                   const std::filesystem::path& scenarios,
                                                   const std::filesystem::path& out);

// The scenario overrides of an HSM variant ("half_cores", "aes_2x", "hw_nwait", "hw_byteswap", and
// "hw_nwait+hw_byteswap"), as `--set` takes them; scenarios/hsm_rsa2048.md documents the same lists.
std::vector<std::string> hsm_variant(const std::string& name);

// Figures computed from several experiments' results once all have run (`work`: the reproduction folder):
// the desrnd speed-ups over the baseline software, and the coupling trade-off gathered into
// work/desrnd/coupling.csv (functionality, implementation, blocks, latency_ms, throughput_kBps,
// cpu_left_pct: the share of the request's latency in which the CPU was free for other processes) with the
// block counts from which one implementation's latency stays at or below another's.
std::vector<ReproducedFigure> derived_figures(const std::filesystem::path& work,
                                              const std::vector<ReproducedFigure>& figures);

// Operations per second as `openssl speed -multi` reports them, from a session's requests.csv: for each
// functionality, the sum over the processes (apps) of the operations each completed over its own window, from
// its first issue to its last completion. Processes that run for the same fixed time (workload.apps.*.
// duration_ms) are measured as openssl speed measures its children. `warmup`: per application, how many of
// its first requests (by issue) are left out (workload.apps.*.warmup_requests: the operation openssl speed
// runs before it starts its clock).
std::map<std::string, double> speed_rates(const std::filesystem::path& requests_csv,
                                          const std::map<std::string, std::uint64_t>& warmup = {});

// figures.csv of one experiment, read back by the gathering process.
void write_figures(const std::filesystem::path& path, const std::vector<ReproducedFigure>& figures);
std::vector<ReproducedFigure> read_figures(const std::filesystem::path& path);
// reproduce.csv, and the same as an aligned table.
void write_reproduce_csv(const std::filesystem::path& path, const std::vector<ReproducedFigure>& figures);
std::string reproduce_table(const std::vector<ReproducedFigure>& figures);
// What the table comes to, a few lines: how many figures of each kind, in all and per system; per system the
// calibrated ones' worst error (a fit) and every predicted figure with a published value and its error (an
// out-of-sample check), worst first: how far to trust each system.
std::string reproduce_summary(const std::vector<ReproducedFigure>& figures);

}  // namespace rsoc::platform
