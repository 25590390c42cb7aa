// rsoc reproduce: every shipped reference system against its published figures.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/interrupt.h"
#include "platform/log.h"
#include "platform/reproduce.h"
#include "platform/session.h"
#include "tools/child_process.h"
#include "tools/cli.h"
#include "tools/openssl_des_reference.h"
#include "tools/progress.h"

namespace rsoc::cli {

namespace {

// Every experiment of `systems` in its own process, `jobs` at a time, each in <system>/<name>/ of `out`; then
// reproduce.csv. A failed experiment fails the reproduction: with 2 when one exited with 2 (a scenario or an
// output error), else 1.
int reproduce(const std::vector<std::string>& systems, const fs::path& scenarios, const fs::path& out,
              unsigned jobs, Format format) {
  rsoc::analysis::OutputDir dir(out);
  const fs::path work = dir.file("");
  std::vector<std::pair<std::string, std::string>> experiments;
  for (const auto& s : systems)
    for (const auto& e : rsoc::platform::reproduction_experiments(s)) experiments.emplace_back(s, e);
  // Started longest first (the pool stays busy to the end); the figures are gathered in report order below.
  std::vector<std::pair<std::string, std::string>> start_order = experiments;
  std::stable_sort(start_order.begin(), start_order.end(), [](const auto& a, const auto& b) {
    return rsoc::platform::reproduction_cost(a.first, a.second) >
           rsoc::platform::reproduction_cost(b.first, b.second);
  });
  rsoc::tools::TaskProgress progress(experiments.size(), "experiments", "reproducing");
  rsoc::tools::ChildPool pool(jobs);
  std::string failures;
  int code = kOk;
  std::size_t next = 0;
  while (next < start_order.size() || !pool.empty()) {
    while (next < start_order.size() && pool.has_room()) {
      const auto& [s, e] = start_order[next];
      std::error_code ec;
      fs::create_directories(work / s, ec);
      if (ec) throw rsoc::analysis::write_error(work / s, ec.message());
      const std::vector<std::string> child{"reproduce",       "--run-experiment",      s + "/" + e,
                                           "--out",           (work / s / e).string(), "--scenarios",
                                           scenarios.string()};
      progress.started(s + " " + e, child, work / s / (e + ".log"));
      pool.start(next++, child, work / s / (e + ".log"));
    }
    const auto [index, status] = pool.wait();
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    progress.ended(start_order[index].first + " " + start_order[index].second, ok);
    if (ok) continue;
    const auto& [s, e] = start_order[index];
    std::ifstream log(work / s / (e + ".log"));
    std::stringstream text;
    text << log.rdbuf();
    failures +=
        s + " " + e + " " + rsoc::tools::ending(status) + ":\n" + rsoc::analysis::shown_in(text.str());
    code = std::max(code, WIFEXITED(status) && WEXITSTATUS(status) == kUsage ? kUsage : kSimulationFailure);
  }
  if (!failures.empty()) throw Failure(code, "reproduction failed; " + failures);
  std::vector<rsoc::platform::ReproducedFigure> figures;
  for (const auto& [s, e] : experiments) {
    const auto these = rsoc::platform::read_figures(work / s / e / "figures.csv");
    figures.insert(figures.end(), these.begin(), these.end());
  }
  const auto derived = rsoc::platform::derived_figures(work, figures);
  figures.insert(figures.end(), derived.begin(), derived.end());
  rsoc::platform::write_reproduce_csv(dir.file("reproduce.csv"), figures);
  rsoc::platform::throw_if_interrupted();
  if (const std::string gone = dir.commit(); !gone.empty())
    rsoc::platform::logging::note() << "rsoc: " << gone << "\n";
  if (format == Format::kJson) {
    nlohmann::ordered_json doc;
    doc["command"] = "reproduce";
    doc["out"] = out.string();
    doc["systems"] = systems;
    doc["figures"] = nlohmann::ordered_json::array();
    for (const auto& f : figures) {
      std::optional<double> error_pct;
      if (f.published && *f.published != 0) error_pct = (f.simulated - *f.published) / *f.published * 100;
      doc["figures"].push_back({{"system", f.system},
                                {"figure", f.figure},
                                {"kind", f.kind},
                                {"published", maybe(f.published)},
                                {"simulated", f.simulated},
                                {"error_pct", maybe(error_pct)}});
    }
    print_json(doc);
  } else {
    std::cout << rsoc::platform::reproduce_table(figures) << "\n"
              << rsoc::platform::reproduce_summary(figures);
  }
  report_files(out);
  logging::note() << "rsoc: " << figures.size() << " figures; results in " << out.string() << "\n";
  return kOk;
}

int cmd_reproduce(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc reproduce --out DIR [options]\n\nRuns every shipped reference system (each experiment in its own "
      "process, --jobs at a\ntime) and writes DIR/reproduce.csv: system, figure, kind, published, simulated, "
      "error_pct.\nkind says how far a figure can be trusted: calibrated (a model input was fitted to it),\n"
      "predicted (no input was fitted to it) or derived (it follows from calibrated inputs by\narithmetic "
      "alone). Each system's own results are in DIR/<system>/. On a terminal, a line\nsays how many "
      "experiments are done, which are running and the time elapsed.\n\noptions");
  opts.add_options()("help,h", "this help")("out,o", po::value<std::string>(), "output folder (required)")(
      "system", po::value<std::vector<std::string>>()->composing(),
      "only this system, by its name or its scenario's: soc (os_aes_des), hsm (hsm_rsa2048), cell "
      "(cell_rsa4096), desrnd (desrnd_3des); repeatable")(
      "scenarios", po::value<std::string>(), "folder of the shipped scenarios (default: the source tree's)")(
      "jobs,j", po::value<std::string>(),
      "experiments run at once, each its own process (default: the number "
      "of cores); the results are the same whatever it is")(
      "run-experiment", po::value<std::string>(),
      "(internal) run one experiment (SYSTEM/NAME) here and write its figures to --out");
  add_format_option(opts);
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  const Format format = output_format(vm);
  if (!vm.count("out")) throw UsageError("reproduce needs --out DIR");
  if (vm.count("scenario"))
    throw UsageError("reproduce takes no scenario: it runs the shipped reference ones");
  const fs::path scenarios = rsoc::platform::scenario_dir(
      vm.count("scenarios") ? std::optional<fs::path>(vm["scenarios"].as<std::string>()) : std::nullopt);
  const fs::path out(vm["out"].as<std::string>());
  if (vm.count("run-experiment")) {  // a child: one experiment, in this process
    const std::string which = vm["run-experiment"].as<std::string>();
    const auto slash = which.find('/');
    if (slash == std::string::npos) throw UsageError("--run-experiment takes SYSTEM/NAME");
    const auto figures =
        rsoc::platform::reproduce_experiment(which.substr(0, slash), which.substr(slash + 1), scenarios, out);
    rsoc::platform::write_figures(out / "figures.csv", figures);
    logging::note() << "rsoc: " << which << ": " << figures.size() << " figures in " << out.string() << "\n";
    return kOk;
  }
  const auto known = rsoc::platform::reproduction_systems();
  std::vector<std::string> systems = known;
  if (vm.count("system")) {
    systems.clear();
    for (const auto& name : vm["system"].as<std::vector<std::string>>()) {
      const auto system = rsoc::platform::reproduction_system(name);
      if (!system)
        throw UsageError("--system " + name + ": not a reference system (known: " + [&] {
          std::string k;
          for (const auto& n : known)
            k += (k.empty() ? "" : ", ") + n + " (" + rsoc::platform::reproduction_scenario(n) + ")";
          return k;
        }() + ")");
      if (std::find(systems.begin(), systems.end(), *system) != systems.end())
        throw UsageError("--system " + name + ": " + *system + " is given twice");
      systems.push_back(*system);
    }
  }
  const std::uint64_t jobs = vm.count("jobs")
                                 ? whole_number("jobs", vm["jobs"].as<std::string>(), 1, kMaxJobs)
                                 : std::max(1u, std::thread::hardware_concurrency());
  return writing(out,
                 [&] { return reproduce(systems, scenarios, out, static_cast<unsigned>(jobs), format); });
}

}  // namespace

extern const Command kReproduceCommand = {
    "reproduce", "reproduce", "run every shipped reference system and compare with the published figures",
    true, cmd_reproduce};

}  // namespace rsoc::cli
