#include "platform/scenario.h"

#include <algorithm>

#include "platform/digest.h"
#include "platform/json_file.h"
#include "platform/scenario_schema.h"
#include "platform/scenario_sections.h"
#include "platform/schema.h"
#include "runtime/rsa_work.h"

namespace rsoc::platform {

using nlohmann::json;
using sc_core::sc_time;

namespace sections {

// The sections one after another (each unit's steps: platform/section_<unit>.cpp).
ScenarioParams Resolver::run() {
  ScenarioParams p;
  p.seed = doc_["seed"].get<std::uint64_t>();
  const json& pl = doc_["platform"];
  p.quantum = sc_time(pl["quantum_ns"].get<double>(), sc_core::SC_NS);
  collect_names(pl);
  buses(pl, p);
  cpus(pl, p);
  memories(pl, p);
  dmas(pl, p);
  cores(pl, p);
  slots(pl, p);
  config_port(pl, p);
  uarts(pl, p);
  address_maps(p);
  runtime(p);
  apps(p);
  hsm(p);
  faults(p);
  energy(p);
  idle_cpus(p);
  if (doc_["workload"]["apps"].empty() && !p.hsm)
    issues_.add("/workload/apps", "the workload needs at least one application (or an hsm firmware)");
  outputs(p);
  return p;
}

}  // namespace sections

namespace {

// Where each override put its value: a problem there (or below) is the override's, named after its flag.
class OverrideSources {
 public:
  void add(std::string pointer, std::string source) {
    set_.emplace_back(std::move(pointer), std::move(source));
  }
  void name(IssueList& issues) const {
    issues.update([this](ScenarioIssue& issue) {
      for (auto it = set_.rbegin(); it != set_.rend(); ++it)  // the last override of a value set it
        if (issue.pointer == it->first || issue.pointer.rfind(it->first + "/", 0) == 0) {
          issue.file = it->second;
          break;
        }
    });
  }

 private:
  std::vector<std::pair<std::string, std::string>> set_;  // pointer, flag
};

std::string source_of(const LoadOptions& options, std::size_t i) {
  return i < options.sources.size() && !options.sources[i].empty() ? options.sources[i]
                                                                   : "--set " + options.overrides[i];
}

// `doc` with `options` applied and resolved: the scenario, or every issue (the file's, or an override's when
// it lies at the value the override set).
Scenario load(nlohmann::ordered_json doc, const std::string& file, const LoadOptions& options) {
  const Schema& schema = scenario_schema();
  IssueList issues(file);
  OverrideSources sources;
  for (std::size_t i = 0; i < options.overrides.size(); ++i) {
    const std::string source = source_of(options, i);
    std::string pointer;
    if (apply_override(doc, options.overrides[i], schema, issues, source, &pointer))
      sources.add(pointer, source);
  }
  if (options.seed) {
    doc["seed"] = *options.seed;
    sources.add("/seed", "--seed " + std::to_string(*options.seed));
  }
  Resolution r = resolve(doc, schema, file);
  sources.name(r.issues);
  issues.append(r.issues);
  issues.throw_if_any();
  Scenario s;
  s.file = file;
  s.resolved = std::move(r.value);
  IssueList cross(file);
  std::string folder = options.folder;
  if (folder.empty()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(file, ec))
      folder = std::filesystem::path(file).parent_path().string();
  }
  s.params = sections::Resolver(s.resolved, cross, file, folder).run();
  sources.name(cross);
  cross.throw_if_any();
  s.sha256 = sha256_hex(s.resolved.dump());
  return s;
}

Scenario finish(const nlohmann::ordered_json& doc, const std::string& file, const LoadOptions& options) {
  try {
    return load(doc, file, options);
  } catch (const ScenarioError& e) {
    // A problem the file is blamed for may still come from an override that set another value (a slot made
    // too small for its bitstream): when the scenario loads without that override, it is named after it.
    // The last override without which it loads names them all: found once, however many issues there are.
    std::vector<ScenarioIssue> issues = e.issues();
    if (std::none_of(issues.begin(), issues.end(), [&](const ScenarioIssue& i) { return i.file == file; }))
      throw;
    for (std::size_t k = options.overrides.size(); k-- > 0;) {
      LoadOptions without = options;
      without.overrides.erase(without.overrides.begin() + static_cast<std::ptrdiff_t>(k));
      if (k < without.sources.size())
        without.sources.erase(without.sources.begin() + static_cast<std::ptrdiff_t>(k));
      try {
        load(doc, file, without);
      } catch (const ScenarioError&) {
        continue;
      }
      for (auto& issue : issues)
        if (issue.file == file) issue.file = source_of(options, k);
      break;
    }
    throw ScenarioError(issues);
  }
}

}  // namespace

std::vector<std::uint8_t> key_of(const AppSpec& app) {
  return app.key_seed ? runtime::draw_key(app.functionality, *app.key_seed) : app.key;
}

Scenario load_scenario_file(const std::string& path, const LoadOptions& options) {
  return finish(read_ordered_json_file(path), path, options);
}

Scenario load_scenario_text(std::string_view text, std::string_view name, const LoadOptions& options) {
  return finish(parse_ordered_json_text(text, name), std::string(name), options);
}

}  // namespace rsoc::platform
