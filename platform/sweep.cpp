#include "platform/sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "platform/crossover.h"
#include "platform/digest.h"
#include "platform/interrupt.h"
#include "platform/json_file.h"
#include "platform/log.h"
#include "platform/scenario.h"
#include "platform/scenario_error.h"
#include "platform/scenario_schema.h"
#include "platform/schema.h"
#include "platform/session.h"
#include "rsoc/version.h"

namespace rsoc::platform {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// DIR/points and DIR/logs. Throws OutputDirError naming DIR.
void make_folders(const fs::path& dir) {
  std::error_code ec;
  for (const char* folder : {"points", "logs"}) {
    fs::create_directories(dir / folder, ec);
    if (ec) throw analysis::write_error(dir, ec.message());
  }
}

}  // namespace

std::vector<std::string> split_outside_json(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      in_string = !(c == '"' && !escaped);
      escaped = !escaped && c == '\\';
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == separator && depth == 0) {
      out.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  out.push_back(current);
  return out;
}

namespace {

std::optional<double> number_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::size_t used = 0;
  try {
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// start:stop:step, stop included (to a millionth of a step), formatted without float noise.
std::optional<std::vector<std::string>> range_values(const std::string& text, const std::string& path) {
  const auto first = text.find(':'), second = text.find(':', first + 1);
  if (first == std::string::npos || second == std::string::npos ||
      text.find(':', second + 1) != std::string::npos)
    return std::nullopt;
  const auto start = number_of(text.substr(0, first)),
             stop = number_of(text.substr(first + 1, second - first - 1)),
             step = number_of(text.substr(second + 1));
  if (!start || !stop || !step) return std::nullopt;
  if (*step <= 0 || *stop < *start)
    throw SweepError("--param " + path + "=" + text +
                     ": a range start:stop:step needs step > 0 and stop >= start");
  const double n = std::floor((*stop - *start) / *step + 1e-6) + 1;
  if (n > static_cast<double>(kMaxPoints))
    throw SweepError("--param " + path + "=" + text + ": more than " + std::to_string(kMaxPoints) +
                     " values");
  std::vector<std::string> values;
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.12g", *start + static_cast<double>(i) * *step);
    values.emplace_back(buf);
  }
  return values;
}

json to_json(const SweepSpec& spec) {
  json doc;
  doc["rsoc_sweep"] = 1;
  doc["rsoc_version"] = kVersion;
  doc["command"] = spec.command;
  doc["scenario_name"] = spec.scenario_name;
  doc["scenario_text"] = spec.scenario_text;
  doc["scenario_folder"] = spec.scenario_folder;
  doc["overrides"] = spec.overrides;
  doc["seed"] = spec.seed ? json(*spec.seed) : json(nullptr);
  doc["parameters"] = json::array();
  for (const auto& p : spec.parameters) doc["parameters"].push_back({{"path", p.path}, {"values", p.values}});
  // Only when used, so that the description of a grid sweep stays as it was.
  if (!spec.points.empty()) {
    doc["points"] = json::array();
    for (const auto& point : spec.points) {
      json assignments = json::array();
      for (const auto& a : point) assignments.push_back({{"path", a.path}, {"value", a.value}});
      doc["points"].push_back(assignments);
    }
  }
  doc["max_blocks"] = spec.max_blocks;
  doc["table_blocks"] = spec.table_blocks;
  doc["functionalities"] = spec.functionalities;
  if (spec.sensitivity) doc["sensitivity"] = {{"metrics", spec.sensitivity->metrics}};
  return doc;
}

// What the points run: the description without the sensitivity table's choice of metrics.
json points_part(json doc) {
  if (doc.contains("sensitivity") && doc["sensitivity"].is_object()) doc["sensitivity"].erase("metrics");
  return doc;
}

fs::path outcome_file(const SweepSpec& spec, const fs::path& dir, std::size_t index) {
  return dir / "points" / (point_name(spec, index) + ".json");
}

void write_outcome(const SweepSpec& spec, const fs::path& dir, const analysis::SweepPoint& point);

// One line per problem, joined: a CSV cell and a log line.
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '\n' ? std::string("; ") : std::string(1, c);
  return out;
}

}  // namespace

SweepParameter parse_parameter(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw SweepError("--param " + text + ": expected path=v1,v2,... or path=start:stop:step");
  SweepParameter p;
  p.path = text.substr(0, eq);
  const std::string values = text.substr(eq + 1);
  if (auto range = range_values(values, p.path)) {
    p.values = std::move(*range);
  } else if (const auto colon = values.find(':');
             colon != std::string::npos && values.find(':', colon + 1) == std::string::npos &&
             number_of(values.substr(0, colon)) && number_of(values.substr(colon + 1))) {
    throw SweepError("--param " + text + ": a range is start:stop:step (" + values +
                     ":1 for every whole number from " + values.substr(0, colon) + " to " +
                     values.substr(colon + 1) + "); a list of values is v1,v2,...");
  } else {
    p.values = split_outside_json(values, ',');
    for (const auto& v : p.values)
      if (v.empty()) throw SweepError("--param " + text + ": empty value");
  }
  return p;
}

namespace {

// `number` (decimal digits) times `factor`, exactly: the size of a grid however large.
std::string times(const std::string& number, std::size_t factor) {
  std::string out;
  std::uint64_t carry = 0;  // below 10 x factor: factor is a count of values held in memory
  for (auto it = number.rbegin(); it != number.rend(); ++it) {
    carry += static_cast<std::uint64_t>(*it - '0') * factor;
    out += static_cast<char>('0' + static_cast<int>(carry % 10));
    carry /= 10;
  }
  for (; carry > 0; carry /= 10) out += static_cast<char>('0' + static_cast<int>(carry % 10));
  while (out.size() > 1 && out.back() == '0') out.pop_back();
  return std::string(out.rbegin(), out.rend());
}

}  // namespace

std::size_t point_count(const SweepSpec& spec) {
  if (spec.parameters.empty()) return spec.points.size();
  // The product is checked at every step: a grid of 2^64 + 4 points must not wrap around to 4.
  std::size_t n = 1;
  bool too_many = false;
  for (const auto& p : spec.parameters) {
    if (p.values.empty()) return 0;
    too_many = too_many || p.values.size() > kMaxPoints || n > kMaxPoints / p.values.size();
    if (!too_many) n *= p.values.size();
  }
  if (!too_many) return n;
  std::string factors, product = "1";
  for (const auto& p : spec.parameters) {
    factors += (factors.empty() ? "" : " x ") + ("--param " + p.path) + " (" +
               std::to_string(p.values.size()) + (p.values.size() == 1 ? " value)" : " values)");
    product = times(product, p.values.size());
  }
  throw SweepError("the grid of " + factors + " has " + product + " points; a sweep has at most " +
                   std::to_string(kMaxPoints));
}

namespace {

// The JSON pointer a dotted path or a pointer names ("a.b.0" and "/a/b/0": "/a/b/0").
std::string pointer_of(const std::string& path) {
  if (!path.empty() && path.front() == '/') return path;
  std::string out = "/";
  for (char c : path)
    out += c == '.'   ? std::string("/")
           : c == '~' ? std::string("~0")
           : c == '/' ? std::string("~1")
                      : std::string(1, c);
  return out;
}

}  // namespace

void check_grid(const SweepSpec& spec) {
  for (std::size_t i = 0; i < spec.parameters.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (pointer_of(spec.parameters[i].path) == pointer_of(spec.parameters[j].path))
        throw SweepError("--param " + spec.parameters[i].path + " sweeps the same input as --param " +
                         spec.parameters[j].path + "; give its values in one --param");
  point_count(spec);
}

std::vector<std::string> parameter_paths(const SweepSpec& spec) {
  std::vector<std::string> out;
  for (const auto& p : spec.parameters) out.push_back(p.path);
  for (const auto& point : spec.points)
    for (const auto& a : point)
      if (std::find(out.begin(), out.end(), a.path) == out.end()) out.push_back(a.path);
  return out;
}

std::vector<std::string> point_values(const SweepSpec& spec, std::size_t index) {
  if (spec.parameters.empty()) {
    const auto paths = parameter_paths(spec);
    std::vector<std::string> values(paths.size());
    for (const auto& a : spec.points.at(index))
      values[std::find(paths.begin(), paths.end(), a.path) - paths.begin()] = a.value;
    return values;
  }
  std::vector<std::string> values(spec.parameters.size());
  for (std::size_t i = spec.parameters.size(); i-- > 0;) {  // the last parameter varies fastest
    const auto& v = spec.parameters[i].values;
    values[i] = v[index % v.size()];
    index /= v.size();
  }
  return values;
}

std::vector<std::string> point_overrides(const SweepSpec& spec, std::size_t index) {
  std::vector<std::string> out;
  if (spec.parameters.empty()) {
    for (const auto& a : spec.points.at(index)) out.push_back(a.path + "=" + a.value);
    return out;
  }
  const auto values = point_values(spec, index);
  for (std::size_t i = 0; i < spec.parameters.size(); ++i)
    out.push_back(spec.parameters[i].path + "=" + values[i]);
  return out;
}

std::string point_name(const SweepSpec& spec, std::size_t index) {
  const std::size_t width = std::max<std::size_t>(4, std::to_string(point_count(spec) - 1).size());
  std::string name = std::to_string(index);
  return std::string(width - std::min(width, name.size()), '0') + name;
}

void prepare_sweep(const SweepSpec& spec, const fs::path& dir, bool resume) {
  if (!spec.parameters.empty() && !spec.points.empty())
    throw SweepError("a sweep has a grid of parameters or a list of points, not both");
  if (point_count(spec) == 0 || point_count(spec) > kMaxPoints)
    throw SweepError("a sweep needs 1 to " + std::to_string(kMaxPoints) + " points, the " +
                     (spec.parameters.empty() ? "list" : "grid") + " has " +
                     std::to_string(point_count(spec)));
  const json doc = to_json(spec);
  const std::string text = doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(dir, ec);
  if (fs::exists(status) && !fs::is_directory(status))
    throw analysis::OutputDirError(dir.string() + ": is a file, not a folder; choose another --out");
  if (fs::exists(dir / "sweep.json")) {
    if (resume) {
      const json existing = read_json_file((dir / "sweep.json").string());
      if (points_part(existing) != points_part(doc))
        throw SweepError(
            dir.string() +
            " holds a different sweep (scenario, overrides, grid or rsoc version differ): run without "
            "--resume to replace it, or choose another --out");
      make_folders(dir);
      fs::remove(dir / "sensitivity.csv", ec);  // until it is written again, from every point
      if (existing != doc) analysis::write_file_atomically(dir / "sweep.json", text);  // other metrics
      return;
    }
    // An earlier sweep: replaced, as `rsoc run` replaces an earlier result — never with what rsoc did not
    // write in it.
    analysis::refuse_foreign(dir, foreign_sweep_entries(dir));
    const analysis::DrawnFigures gone = analysis::drawn_figures(dir);
    fs::remove_all(dir, ec);
    if (ec) throw analysis::write_error(dir, "cannot remove the earlier sweep: " + ec.message());
    if (const std::string note = analysis::figures_gone_note(dir, gone); !note.empty())
      logging::note() << "rsoc: " << note << "\n";
  } else if (fs::exists(status) && !fs::is_empty(dir, ec)) {
    throw SweepError(dir.string() + " exists and is not an rsoc sweep folder (no sweep.json): not touched");
  }
  make_folders(dir);
  analysis::write_file_atomically(dir / "sweep.json", text);
}

std::vector<std::string> foreign_sweep_entries(const fs::path& dir) {
  static const std::set<std::string> kOwn = {"sweep.json",  "sweep.csv", "sensitivity.csv", "jobs.txt",
                                             "sweep.slurm", "logs",      "points"};
  const auto digits = [](const std::string& name) {
    return !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
  };
  std::vector<std::string> out;
  std::error_code ec;
  const std::vector<std::string> drawn = analysis::drawn_figures(dir).files;  // a heatmap drawn into it
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (kOwn.count(name) || analysis::is_temporary_name(name) || name == analysis::kFiguresListName) continue;
    if (entry.is_directory() && !entry.is_symlink() ? analysis::holds_only_figures(entry.path())
                                                     : std::count(drawn.begin(), drawn.end(), name) > 0)
      continue;
    out.push_back(entry.is_directory() ? name + "/" : name);
  }
  for (const auto& entry : fs::directory_iterator(dir / "points", ec)) {
    const std::string name = entry.path().filename().string();
    const std::string stem = name.substr(0, name.rfind(".json"));
    if (analysis::is_temporary_name(name) ||
        (!entry.is_directory() && digits(stem) && stem + ".json" == name))
      continue;
    const std::string at = "points/" + name;
    if (!entry.is_directory() || entry.is_symlink() || !digits(name) ||
        !analysis::is_result_folder(entry.path())) {
      out.push_back(entry.is_directory() ? at + "/" : at);
      continue;
    }
    for (const auto& f : analysis::foreign_entries(entry.path())) out.push_back(at + "/" + f);
  }
  std::sort(out.begin(), out.end());
  return out;
}

SweepSpec load_sweep(const fs::path& dir) {
  const fs::path file = dir / "sweep.json";
  if (!fs::exists(file)) throw SweepError(dir.string() + ": not a sweep folder (no sweep.json)");
  const json doc = read_json_file(file.string());
  try {
    SweepSpec spec;
    spec.command = doc.at("command").get<std::string>();
    spec.scenario_name = doc.at("scenario_name").get<std::string>();
    spec.scenario_text = doc.at("scenario_text").get<std::string>();
    spec.scenario_folder = doc.value("scenario_folder", std::string());
    spec.overrides = doc.at("overrides").get<std::vector<std::string>>();
    if (!doc.at("seed").is_null()) spec.seed = doc.at("seed").get<std::uint64_t>();
    for (const auto& p : doc.at("parameters"))
      spec.parameters.push_back(
          {p.at("path").get<std::string>(), p.at("values").get<std::vector<std::string>>()});
    if (doc.contains("points"))
      for (const auto& point : doc.at("points")) {
        auto& assignments = spec.points.emplace_back();
        for (const auto& a : point)
          assignments.push_back({a.at("path").get<std::string>(), a.at("value").get<std::string>()});
      }
    spec.max_blocks = doc.at("max_blocks").get<std::uint64_t>();
    spec.table_blocks = doc.value("table_blocks", std::min<std::uint64_t>(200, spec.max_blocks));
    spec.functionalities = doc.at("functionalities").get<std::vector<std::string>>();
    if (doc.contains("sensitivity"))
      spec.sensitivity = SensitivitySpec{doc.at("sensitivity").at("metrics").get<std::vector<std::string>>()};
    if (spec.command != "run" && spec.command != "crossover")
      throw SweepError("unknown command " + spec.command);
    if (!spec.parameters.empty() && !spec.points.empty())
      throw SweepError(file.string() + ": not a sweep description rsoc wrote (a grid and a list of points)");
    std::size_t points = 0;
    try {
      points = point_count(spec);
    } catch (const SweepError& e) {
      throw SweepError(file.string() + ": " + e.what());
    }
    if (points == 0)
      throw SweepError(file.string() + ": not a sweep description rsoc wrote (a sweep without points)");
    return spec;
  } catch (const json::exception& e) {
    throw SweepError(file.string() + ": not a sweep description rsoc wrote (" + e.what() + ")");
  }
}

bool point_finished(const SweepSpec& spec, const fs::path& dir, std::size_t index) {
  return check_outcome(spec, dir, index).state == OutcomeState::kKept;
}

namespace {

// The scenario of point `index` is loaded with these: the sweep's --set, then the point's values, each named
// after its flag in messages.
LoadOptions load_options(const SweepSpec& spec, std::size_t index) {
  LoadOptions options;
  options.overrides = spec.overrides;
  options.sources.resize(options.overrides.size());
  for (auto& assignment : point_overrides(spec, index)) {
    options.sources.push_back(spec.parameters.empty() ? "point " + point_name(spec, index) + ": " + assignment
                                                      : "--param " + assignment);
    options.overrides.push_back(std::move(assignment));
  }
  options.seed = spec.seed;
  options.folder = spec.scenario_folder;
  return options;
}

}  // namespace

void validate_parameters(const SweepSpec& spec) {
  std::vector<ScenarioIssue> all;
  for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
    std::vector<ScenarioIssue> found;  // a wrong path is the same problem at every value: once
    for (const auto& value : spec.parameters[i].values) {
      LoadOptions options;
      options.overrides = spec.overrides;
      options.sources.resize(options.overrides.size());
      for (std::size_t j = 0; j < spec.parameters.size(); ++j) {
        const std::string assignment =
            spec.parameters[j].path + "=" + (j == i ? value : spec.parameters[j].values.front());
        options.overrides.push_back(assignment);
        options.sources.push_back("--param " + assignment);
      }
      options.seed = spec.seed;
      options.folder = spec.scenario_folder;
      const std::string source =
          printable_text("--param " + spec.parameters[i].path + "=" + value);  // as issues name it
      try {
        load_scenario_text(spec.scenario_text, spec.scenario_name, options);
      } catch (const ScenarioError& e) {
        for (const auto& issue : e.issues()) {
          const auto same = [&](const ScenarioIssue& other) {
            return other.pointer == issue.pointer && other.message == issue.message;
          };
          if (issue.file == source && std::none_of(found.begin(), found.end(), same)) found.push_back(issue);
        }
      }
    }
    all.insert(all.end(), found.begin(), found.end());
  }
  if (!all.empty()) throw ScenarioError(all);
  // The input each --param sets, in the scenario (an element named or indexed): two naming one are refused.
  nlohmann::ordered_json doc;
  try {
    doc = nlohmann::ordered_json::parse(spec.scenario_text);
  } catch (const nlohmann::json::exception&) {
    return;  // the loader has said what is wrong with it
  }
  IssueList ignored;
  for (const auto& o : spec.overrides) apply_override(doc, o, scenario_schema(), ignored, "", nullptr);
  std::vector<std::string> inputs;
  for (const auto& p : spec.parameters) {
    std::string pointer;
    nlohmann::ordered_json copy = doc;
    apply_override(copy, p.path + "=" + p.values.front(), scenario_schema(), ignored, "", &pointer);
    for (std::size_t j = 0; j < inputs.size(); ++j)
      if (!pointer.empty() && inputs[j] == pointer)
        throw SweepError("--param " + p.path + " sweeps the same input as --param " + spec.parameters[j].path +
                         " (" + pointer + "); give its values in one --param");
    inputs.push_back(pointer);
  }
}

analysis::SweepPoint run_point(const fs::path& dir, std::size_t index) {
  const SweepSpec spec = load_sweep(dir);
  if (index >= point_count(spec))
    throw SweepError("point " + std::to_string(index) + " does not exist: the sweep in " + dir.string() +
                     " has " + std::to_string(point_count(spec)) + " points (0.." +
                     std::to_string(point_count(spec) - 1) + ")");
  analysis::SweepPoint point;
  point.index = index;
  point.status = "failed";
  point.values = point_values(spec, index);
  point.version = kVersion;
  try {
    const Scenario scenario =
        load_scenario_text(spec.scenario_text, spec.scenario_name, load_options(spec, index));
    point.scenario_sha256 = scenario.sha256;
    point.seed = std::to_string(scenario.params.seed);
    const fs::path result = dir / "points" / point_name(spec, index);
    if (spec.command == "run") {
      const RunSummary summary = run_session(scenario, result);
      point.metrics = summary.metrics;
      if (summary.failed == 0)
        point.status = "ok";
      else
        point.error =
            std::to_string(summary.failed) + " of " + std::to_string(summary.requests) + " requests failed";
    } else {
      CrossoverOptions crossover;
      crossover.max_blocks = spec.max_blocks;
      crossover.table_blocks = spec.table_blocks;
      crossover.functionalities = spec.functionalities;
      analysis::OutputDir out(result);
      const CrossoverResult r = run_crossover(scenario, crossover);
      write_crossover(r, scenario, out);
      for (const auto& s : r.summary) {
        const std::string f = runtime::info(s.functionality).name;
        if (s.simulated)
          point.metrics.emplace_back(f + ".crossover_blocks", static_cast<double>(*s.simulated));
        if (s.analytic)
          point.metrics.emplace_back(f + ".analytic_crossover_blocks", static_cast<double>(*s.analytic));
        if (s.energy)
          point.metrics.emplace_back(f + ".energy_crossover_blocks", static_cast<double>(*s.energy));
        // How far it was searched: an empty crossover is beyond it.
        point.metrics.emplace_back(f + ".searched_to_blocks", static_cast<double>(s.searched_to));
      }
      point.status = "ok";
    }
  } catch (const Interrupted&) {
    throw;  // not an outcome: the point runs again when the sweep is resumed
  } catch (const analysis::OutputDirError&) {
    throw;  // the sweep's folder cannot take the point's results: nor its outcome, or not for long
  } catch (const std::exception& e) {
    point.error = one_line(e.what());
  }
  throw_if_interrupted();
  write_outcome(spec, dir, point);
  return point;
}

void record_point_failure(const fs::path& dir, std::size_t index, const std::string& error) {
  const SweepSpec spec = load_sweep(dir);
  analysis::SweepPoint point;
  point.index = index;
  point.status = "failed";
  point.error = one_line(error);
  point.values = point_values(spec, index);
  point.version = kVersion;
  write_outcome(spec, dir, point);
}

namespace {

// The format of the outcome files this rsoc writes.
constexpr int kOutcomeFormat = 2;

// What the points of `spec` run, as a digest: an outcome names the sweep it belongs to.
std::string sweep_digest(const SweepSpec& spec) {
  return sha256_hex(points_part(to_json(spec)).dump(-1, ' ', false, json::error_handler_t::replace));
}

// The digest of an outcome's content: every key but outcome_sha256 itself.
std::string outcome_digest(json outcome) {
  outcome.erase("outcome_sha256");
  return sha256_hex(outcome.dump(-1, ' ', false, json::error_handler_t::replace));
}

// The files of the result folder `folder` with their digests — its manifest and every file the manifest
// lists ("name/": an empty folder) — or null when the point left no result folder.
json result_digests(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec) || !fs::exists(folder / analysis::kManifestName, ec)) return nullptr;
  json files = json::object();
  std::ifstream manifest(folder / analysis::kManifestName);
  std::string line;
  while (std::getline(manifest, line)) {
    if (line.empty()) continue;
    if (line.back() == '/') {
      files[line] = "folder";
      continue;
    }
    const auto digest = sha256_file(folder / line);
    files[line] = digest ? json(*digest) : json(nullptr);
  }
  const auto digest = sha256_file(folder / analysis::kManifestName);
  files[analysis::kManifestName] = digest ? json(*digest) : json(nullptr);
  return files;
}

std::string joined_values(const std::vector<std::string>& paths, const std::vector<std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < paths.size() && i < values.size(); ++i)
    out += (out.empty() ? "" : ", ") + paths[i] + "=" + (values[i].empty() ? "(scenario)" : values[i]);
  return out.empty() ? "no values" : out;
}

void write_outcome(const SweepSpec& spec, const fs::path& dir, const analysis::SweepPoint& point) {
  json outcome;
  outcome["rsoc_outcome"] = kOutcomeFormat;
  outcome["point"] = point.index;
  outcome["sweep_sha256"] = sweep_digest(spec);
  outcome["status"] = point.status;
  outcome["error"] = printable_text(point.error);
  outcome["values"] = point.values;
  outcome["metrics"] = json::array();
  for (const auto& [name, value] : point.metrics) outcome["metrics"].push_back({name, value});
  outcome["rsoc_version"] = point.version;
  outcome["scenario_sha256"] = point.scenario_sha256;
  outcome["seed"] = point.seed;
  outcome["results"] = result_digests(dir / "points" / point_name(spec, point.index));
  outcome["outcome_sha256"] = outcome_digest(outcome);
  analysis::write_file_atomically(outcome_file(spec, dir, point.index),
                                  outcome.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

}  // namespace

RecordedOutcome check_outcome(const SweepSpec& spec, const fs::path& dir, std::size_t index) {
  RecordedOutcome r;
  analysis::SweepPoint& p = r.point;
  p.index = index;
  p.values = point_values(spec, index);
  const fs::path file = outcome_file(spec, dir, index);
  const std::string name = point_name(spec, index);
  const std::string shown = (fs::path("points") / (name + ".json")).string();
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    r.state = OutcomeState::kMissing;
    p.status = "missing";
    return r;
  }
  const auto reject = [&](const std::string& problem) {
    r.state = OutcomeState::kRejected;
    r.problem = problem;
    p = analysis::SweepPoint{};
    p.index = index;
    p.values = point_values(spec, index);
    p.status = "missing";
    p.error = "recorded outcome not kept: " + problem;
    return r;
  };
  json doc;
  try {
    doc = read_json_file(file.string());
  } catch (const ScenarioError& e) {
    return reject(shown + " is not an outcome rsoc wrote (" + one_line(e.what()) + ")");
  }
  try {
    if (!doc.is_object() || !doc.contains("outcome_sha256") || doc.value("rsoc_outcome", 0) != kOutcomeFormat)
      return reject(shown + " is not an outcome this rsoc wrote (no checksum of its format)");
    if (doc.at("outcome_sha256").get<std::string>() != outcome_digest(doc))
      return reject(shown + " was changed after it was written (its outcome_sha256 does not match)");
    if (doc.at("sweep_sha256").get<std::string>() != sweep_digest(spec))
      return reject(shown + " is the outcome of a point of another sweep");
    const std::size_t recorded = doc.at("point").get<std::size_t>();
    if (recorded != index)
      return reject(shown + " is the outcome of point " +
                    (recorded < point_count(spec) ? point_name(spec, recorded) : std::to_string(recorded)));
    const auto values = doc.at("values").get<std::vector<std::string>>();
    if (values != p.values)
      return reject(shown + " records the values " + joined_values(parameter_paths(spec), values) +
                    ", not this point's " + joined_values(parameter_paths(spec), p.values));
    const json& results = doc.at("results");
    const fs::path folder = dir / "points" / name;
    if (!results.is_null()) {
      if (!fs::is_directory(folder, ec))
        return reject("its result folder " + (fs::path("points") / name).string() + " is gone");
      const json now = result_digests(folder);
      for (const auto& [f, digest] : results.items()) {
        const std::string at = (fs::path("points") / name / f).string();
        if (now.is_null() || !now.contains(f) || now.at(f).is_null()) return reject(at + " is gone");
        if (now.at(f) != digest) return reject(at + " was changed after the point ran");
      }
    }
    p.status = doc.at("status").get<std::string>();
    p.error = doc.at("error").get<std::string>();
    for (const auto& m : doc.at("metrics"))
      p.metrics.emplace_back(m.at(0).get<std::string>(), m.at(1).get<double>());
    p.version = doc.at("rsoc_version").get<std::string>();
    p.scenario_sha256 = doc.at("scenario_sha256").get<std::string>();
    p.seed = doc.at("seed").get<std::string>();
    if (p.status != "ok" && p.status != "failed")
      return reject(shown + " has the unknown status " + p.status);
  } catch (const json::exception& e) {
    return reject(shown + " is not an outcome rsoc wrote (" + std::string(e.what()) + ")");
  }
  r.state = OutcomeState::kKept;
  return r;
}

analysis::SweepPoint read_point(const SweepSpec& spec, const fs::path& dir, std::size_t index) {
  return check_outcome(spec, dir, index).point;
}

std::size_t merge_sweep(const fs::path& dir) {
  const SweepSpec spec = load_sweep(dir);
  std::vector<analysis::SweepPoint> points;
  std::size_t missing = 0;
  for (std::size_t i = 0; i < point_count(spec); ++i) {
    throw_if_interrupted();
    points.push_back(read_point(spec, dir, i));
    if (points.back().status == "missing") ++missing;
  }
  analysis::write_sweep_csv((dir / "sweep.csv").string(), parameter_paths(spec), points);
  return missing;
}

std::vector<std::size_t> points_to_run(const SweepSpec& spec, const fs::path& dir) {
  std::vector<std::size_t> todo;
  for (std::size_t i = 0, n = point_count(spec); i < n; ++i) {
    const auto recorded = check_outcome(spec, dir, i);
    if (recorded.state == OutcomeState::kKept) continue;
    if (recorded.state == OutcomeState::kRejected)
      std::cerr << "rsoc: point " << point_name(spec, i) << " runs again: " << recorded.problem << "\n";
    todo.push_back(i);
  }
  return todo;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

JobDescription write_job_description(JobRunner runner, const SweepSpec& spec, const fs::path& dir,
                                     const std::vector<std::size_t>& todo, const fs::path& rsoc,
                                     unsigned parallel_jobs, std::optional<std::uint64_t> array_limit) {
  const fs::path abs_dir = fs::absolute(dir);
  const std::string exe = shell_quote(rsoc.string());
  if (runner == JobRunner::kParallel) {
    std::ostringstream jobs_txt;
    for (std::size_t i : todo)
      jobs_txt << exe << " point " << shell_quote(abs_dir.string()) << " " << i << "\n";
    analysis::write_text_file(dir / "jobs.txt", jobs_txt.str());
    return {dir / "jobs.txt", "parallel --jobs " + std::to_string(parallel_jobs) + " < " +
                                  shell_quote((abs_dir / "jobs.txt").string())};
  }
  const std::size_t n = point_count(spec);
  std::ostringstream array;
  for (std::size_t k = 0; k < todo.size(); ++k) array << (k ? "," : "") << todo[k];
  if (todo.size() == n && n > 0) array.str("0-" + std::to_string(n - 1));
  std::ostringstream script;
  script << "#!/bin/bash\n"
         << "# rsoc sweep of " << spec.scenario_name << ": " << n << " points, one array task each.\n"
         << "# Submit: sbatch " << (abs_dir / "sweep.slurm").string() << "   then: rsoc merge "
         << abs_dir.string() << "\n"
         << "#SBATCH --job-name=rsoc-sweep\n"
         << "#SBATCH --array=" << (todo.empty() ? std::string("0") : array.str())
         << (array_limit ? "%" + std::to_string(*array_limit) : std::string()) << "\n"
         << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
         << "#SBATCH --output=" << (abs_dir / "logs" / "slurm-%a.log").string() << "\n"
         << "exec " << exe << " point " << shell_quote(abs_dir.string()) << " \"$SLURM_ARRAY_TASK_ID\"\n";
  analysis::write_text_file(dir / "sweep.slurm", script.str());
  return {dir / "sweep.slurm", "sbatch " + shell_quote((abs_dir / "sweep.slurm").string())};
}

}  // namespace rsoc::platform
