#include "analysis/output_dir.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <utility>

#include "analysis/output_file.h"

namespace rsoc::analysis {

namespace fs = std::filesystem;

namespace {

// The temporary folder and the destination of every OutputDir alive in this process, for messages.
std::vector<std::pair<fs::path, fs::path>>& live_folders() {
  static std::vector<std::pair<fs::path, fs::path>> folders;
  return folders;
}

// The files a result written before manifests holds: those of `rsoc run` and `rsoc crossover`.
const std::set<std::string> kResultFilesBeforeManifests = {
    "requests.csv", "breakdown.csv", "summary.csv",  "stats.json",    "resolved_scenario.json",
    "host.json",    "trace.json",    "timeline.vcd", "crossover.csv", "crossover_summary.csv"};

// The files the manifest of `dir` lists; for a result written before manifests, those of its files rsoc
// writes.
std::set<std::string> written_files(const fs::path& dir) {
  std::set<std::string> files;
  std::ifstream manifest(dir / kManifestName);
  if (!manifest) return kResultFilesBeforeManifests;
  std::string line;
  while (std::getline(manifest, line))
    if (!line.empty()) files.insert(line);
  return files;
}

// Every file below `dir`, relative to it, as the manifest lists them (an empty folder as "name/").
void list_files(const fs::path& dir, const fs::path& relative, std::vector<std::string>& out) {
  for (const auto& entry : fs::directory_iterator(dir / relative)) {
    const fs::path path = relative / entry.path().filename();
    if (!entry.is_directory() || entry.is_symlink())
      out.push_back(path.generic_string());
    else if (fs::is_empty(entry.path()))
      out.push_back(path.generic_string() + "/");
    else
      list_files(dir, path, out);
  }
}

// The figures the list of tools/plot.py in dir/relative names (relative to `dir`) that are there, and the
// commands that drew them (new ones added to `commands`).
std::set<std::string> listed_figures(const fs::path& dir, const fs::path& relative,
                                     std::vector<std::string>* commands = nullptr) {
  static const std::string kDrawnBy = "# drawn by: ";
  std::set<std::string> files;
  std::ifstream list(dir / relative / kFiguresListName);
  std::string line;
  std::error_code ec;
  while (std::getline(list, line)) {
    if (line.rfind(kDrawnBy, 0) == 0) {
      const std::string command = line.substr(kDrawnBy.size());
      if (commands && std::find(commands->begin(), commands->end(), command) == commands->end())
        commands->push_back(command);
    } else if (!line.empty() && line[0] != '#' && fs::is_regular_file(dir / relative / line, ec)) {
      files.insert((relative / line).generic_string());
    }
  }
  return files;
}

// Whether the folder dir/relative holds nothing but figures tools/plot.py drew (and their lists).
bool only_figures(const fs::path& dir, const fs::path& relative) {
  const std::set<std::string> drawn = listed_figures(dir, relative);
  std::error_code ec;
  bool any = false;
  for (const auto& entry : fs::directory_iterator(dir / relative, ec)) {
    const fs::path name = relative / entry.path().filename();
    if (entry.path().filename() == kFiguresListName) continue;
    any = true;
    const bool figure = entry.is_directory() && !entry.is_symlink() ? only_figures(dir, name)
                                                                    : drawn.count(name.generic_string()) > 0;
    if (!figure) return false;
  }
  return any && !ec;
}

void foreign_below(const fs::path& dir, const fs::path& relative, const std::set<std::string>& written,
                   std::vector<std::string>& out) {
  const std::set<std::string> drawn = listed_figures(dir, relative);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir / relative, ec)) {
    const std::string name = (relative / entry.path().filename()).generic_string();
    if (name == kManifestName || entry.path().filename() == kFiguresListName) continue;
    if (!entry.is_directory() || entry.is_symlink()) {
      if (!written.count(name) && !drawn.count(name)) out.push_back(name);
      continue;
    }
    // A folder holding something rsoc wrote (or itself an empty folder rsoc made, "name/"): look inside.
    const auto below = written.lower_bound(name + "/");
    if (below != written.end() && below->rfind(name + "/", 0) == 0)
      foreign_below(dir, name, written, out);
    else if (!only_figures(dir, name))
      out.push_back(name + "/");
  }
}

void figures_below(const fs::path& dir, const fs::path& relative, DrawnFigures& out) {
  const std::set<std::string> drawn = listed_figures(dir, relative, &out.commands);
  out.files.insert(out.files.end(), drawn.begin(), drawn.end());
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir / relative, ec))
    if (entry.is_directory() && !entry.is_symlink())
      figures_below(dir, relative / entry.path().filename(), out);
}

std::string listed(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 5;
  std::string text;
  for (std::size_t i = 0; i < std::min(names.size(), kShown); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  if (names.size() > kShown) text += " and " + std::to_string(names.size() - kShown) + " more";
  return text;
}

// Refuses a destination that must not be replaced.
void check_destination(const fs::path& dir) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(dir, ec);
  if (!fs::exists(status)) return;
  if (!fs::is_directory(status))
    throw OutputDirError(dir.string() + ": is a file, not a folder; choose another --out");
  if (fs::is_empty(dir, ec)) return;
  if (!is_result_folder(dir))
    throw OutputDirError(dir.string() +
                         ": exists and does not hold an rsoc result; refusing to replace it — choose another "
                         "--out");
  refuse_foreign(dir, foreign_entries(dir));
}

}  // namespace

DrawnFigures drawn_figures(const fs::path& dir) {
  DrawnFigures out;
  figures_below(dir, "", out);
  std::sort(out.files.begin(), out.files.end());
  return out;
}

bool holds_only_figures(const fs::path& dir) {
  return only_figures(dir, "");
}

std::string figures_gone_note(const fs::path& dir, const DrawnFigures& figures) {
  if (figures.files.empty()) return "";
  std::string text = dir.string() + ": the " +
                     (figures.files.size() == 1 ? std::string("figure") : std::to_string(figures.files.size()) + " figures") +
                     " drawn from the previous results went with them";
  for (std::size_t i = 0; i < figures.commands.size(); ++i)
    text += (i == 0 ? " (" : "; ") + figures.commands[i] + (i + 1 == figures.commands.size() ? ")" : "");
  return text + "; draw " + (figures.files.size() == 1 ? "it" : "them") + " again";
}

bool is_result_folder(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / kManifestName, ec) || fs::exists(dir / "resolved_scenario.json", ec);
}

std::vector<std::string> foreign_entries(const fs::path& dir) {
  std::vector<std::string> out;
  foreign_below(dir, "", written_files(dir), out);
  std::sort(out.begin(), out.end());
  return out;
}

void refuse_foreign(const fs::path& dir, const std::vector<std::string>& foreign) {
  if (foreign.empty()) return;
  throw OutputDirError(dir.string() + " holds " + (foreign.size() == 1 ? "a file" : "files") +
                       " rsoc did not write: " + listed(foreign) + "; move " +
                       (foreign.size() == 1 ? "it" : "them") + " away or choose another --out (nothing was changed)");
}

bool is_temporary_name(const std::string& name) {
  const auto dash = name.rfind('-');
  if (dash == std::string::npos || dash + 1 == name.size() ||
      name.find_first_not_of("0123456789", dash + 1) != std::string::npos)
    return false;
  const std::string stem = name.substr(0, dash);
  const auto ends = [&](const std::string& suffix) {
    return stem.size() > suffix.size() &&
           stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".tmp") || (name[0] == '.' && (ends(".partial") || ends(".old")));
}

std::string shown(const fs::path& path) {
  for (auto it = live_folders().rbegin(); it != live_folders().rend(); ++it) {
    const auto& [temp, destination] = *it;
    const auto [in_temp, rest] = std::mismatch(temp.begin(), temp.end(), path.begin(), path.end());
    if (in_temp != temp.end()) continue;
    fs::path out = destination;
    for (auto part = rest; part != path.end(); ++part) out /= *part;
    return out.string();
  }
  return path.string();
}

std::string shown_in(std::string text) {
  for (const auto& [temp, destination] : live_folders()) {
    const std::string from = temp.string(), to = destination.string();
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  }
  return text;
}

OutputDirError write_error(const fs::path& path, const std::string& reason) {
  return OutputDirError(shown(path) + ": cannot write: " + reason);
}

OutputDir::OutputDir(fs::path destination) : destination_(std::move(destination)) {
  if (destination_.empty()) throw OutputDirError("output folder: empty path");
  if (destination_.filename().empty()) destination_ = destination_.parent_path();
  check_destination(destination_);
  std::error_code ec;
  const fs::path parent = destination_.has_parent_path() ? destination_.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) throw write_error(destination_, ec.message());
  temp_ = parent / ("." + destination_.filename().string() + ".partial-" + std::to_string(::getpid()));
  fs::remove_all(temp_, ec);
  fs::create_directory(temp_, ec);
  if (ec) throw write_error(destination_, ec.message());
  live_folders().emplace_back(temp_, destination_);
}

OutputDir::~OutputDir() {
  auto& live = live_folders();
  live.erase(std::remove(live.begin(), live.end(), std::make_pair(temp_, destination_)), live.end());
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(temp_, ec);
}

std::string OutputDir::commit() {
  std::vector<std::string> files;
  list_files(temp_, "", files);
  std::sort(files.begin(), files.end());
  std::string manifest;
  for (const auto& f : files) manifest += f + "\n";
  write_text_file(temp_ / kManifestName, manifest);

  check_destination(destination_);  // files may have come into it while the results were written
  std::error_code ec;
  fs::path old;
  DrawnFigures gone;
  if (fs::exists(fs::symlink_status(destination_, ec))) {
    gone = drawn_figures(destination_);
    old = destination_.parent_path() /
          ("." + destination_.filename().string() + ".old-" + std::to_string(::getpid()));
    fs::remove_all(old, ec);
    fs::rename(destination_, old, ec);
    if (ec) throw write_error(destination_, "cannot move the previous result away: " + ec.message());
  }
  fs::rename(temp_, destination_, ec);
  if (ec) {
    if (!old.empty()) fs::rename(old, destination_, ec);
    throw write_error(destination_, "cannot move the results into place: " + ec.message());
  }
  committed_ = true;
  if (!old.empty()) fs::remove_all(old, ec);
  return figures_gone_note(destination_, gone);
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  const fs::path temp = path.string() + ".tmp-" + std::to_string(::getpid());
  std::error_code ec;
  try {
    OutputFile out(temp, path);
    out << text;
    out.close();
  } catch (const OutputDirError&) {
    fs::remove(temp, ec);
    throw;
  }
  fs::rename(temp, path, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw write_error(path, "cannot move into place: " + ec.message());
  }
}

}  // namespace rsoc::analysis
