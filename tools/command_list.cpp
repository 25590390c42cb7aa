// rsoc list: the shipped scenarios.
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/json_file.h"
#include "platform/log.h"
#include "platform/reproduce.h"
#include "tools/cli.h"
#include "tools/openssl_des_reference.h"

namespace rsoc::cli {

namespace {

// Columns a UTF-8 text takes (one per code point).
std::size_t columns(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The first sentence of `text` (up to its first '.' that ends the text or is followed by a space), on one
// line and cut at a word to at most `width` columns, "..." saying so.
std::string first_sentence(std::string text, std::size_t width) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  for (std::size_t dot = text.find('.'); dot != std::string::npos; dot = text.find('.', dot + 1))
    if (dot + 1 == text.size() || text[dot + 1] == ' ') {
      text.erase(dot + 1);
      break;
    }
  if (columns(text) <= width) return text;
  // The longest prefix of whole words that leaves room for "...".
  std::size_t cut = 0, used = 0, last_space = std::string::npos;
  for (; cut < text.size(); ++cut) {
    const bool starts = (static_cast<unsigned char>(text[cut]) & 0xC0) != 0x80;
    if (starts && used + 3 == width) break;
    if (starts) ++used;
    if (text[cut] == ' ') last_space = cut;
  }
  if (last_space != std::string::npos && last_space > 0) cut = last_space;
  while (cut > 0 && text[cut - 1] == ' ') --cut;
  return text.substr(0, cut) + "...";
}

// One problem of a scenario file without the file's name: "line 3, column 5: malformed JSON: ...",
// "/description: expected a string".
std::string problem_text(const ScenarioError& e) {
  std::string text;
  for (const auto& issue : e.issues()) {
    std::string one;
    if (issue.line > 0)
      one = "line " + std::to_string(issue.line) + ", column " + std::to_string(issue.column) + ": ";
    if (!issue.pointer.empty()) one += issue.pointer + ": ";
    text += (text.empty() ? "" : "; ") + one + issue.message;
  }
  return text;
}

int cmd_list(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc list [options]\n\nLists the shipped scenarios (the folder scenarios/ of the source tree this\n"
      "rsoc was built from, as reproduce finds it), one per line: the name (the file's,\nwithout .json) and "
      "the first sentence of its description, cut to the terminal's\nwidth (100 columns when stdout is not a "
      "terminal). A file that is not valid JSON is\nlisted as \"(cannot be read: REASON)\" and reported on "
      "stderr; the others are still\nlisted, and the exit code is 2.\n\noptions");
  opts.add_options()("help,h", "this help")("scenarios", po::value<std::string>(),
                                            "list the scenarios of this folder instead");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  if (vm.count("scenario")) throw UsageError("list takes no scenario (--scenarios DIR names a folder)");
  const bool given = vm.count("scenarios") > 0;
  const fs::path folder = rsoc::platform::scenario_dir(
      given ? std::optional<fs::path>(vm["scenarios"].as<std::string>()) : std::nullopt);
  const std::string named = given ? "--scenarios " + folder.string() : folder.string();
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->path().extension() == ".json" && fs::is_regular_file(it->path(), type_ec))
      files.push_back(it->path());
  }
  if (ec)
    throw UsageError(named + ": cannot list: " + ec.message() +
                     (given ? "" : " (the shipped scenarios' folder; --scenarios DIR names another)"));
  if (files.empty()) throw UsageError(named + ": no scenario files (*.json)");
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    return a.filename().string() < b.filename().string();
  });
  std::size_t name_width = 0;
  for (const auto& f : files) name_width = std::max(name_width, columns(f.stem().string()));
  std::size_t width = 100;
  if (::isatty(STDOUT_FILENO)) {
    struct winsize size {};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) width = size.ws_col;
  }
  const std::size_t text_width =
      std::max<std::size_t>(width > name_width + 2 ? width - name_width - 2 : 0, 20);
  logging::note() << "rsoc: scenarios in " << folder.string() << "\n";
  int code = kOk;
  for (const auto& f : files) {
    std::string description;
    try {
      const nlohmann::json doc = rsoc::platform::read_json_file(f.string());
      if (!doc.is_object()) throw ScenarioError(f.string(), "", "expected a JSON object (a scenario)");
      const auto it = doc.find("description");
      if (it == doc.end()) {
        description = "(no description)";
      } else if (!it->is_string()) {
        throw ScenarioError(f.string(), "/description", "expected a string");
      } else {
        description = first_sentence(it->get<std::string>(), text_width);
      }
    } catch (const ScenarioError& e) {
      description = "(cannot be read: " + problem_text(e) + ")";
      std::cerr << e.what() << "\n";
      code = kUsage;
    }
    const std::string name = f.stem().string();
    std::cout << name << std::string(name_width - columns(name) + 2, ' ') << description << "\n";
  }
  return code;
}

}  // namespace

extern const Command kListCommand = {"list", "list",
                                     "the shipped scenarios, each with the first sentence of its description",
                                     false, cmd_list};

}  // namespace rsoc::cli
