#pragma once
// OutputDir: results are written into a temporary sibling folder and renamed into place by commit(), so a run
// that fails or is interrupted never leaves a folder that looks complete. commit() lists every file of the
// result in its manifest (.rsoc-files), written with it.
//
// An existing folder is replaced only when it is an rsoc result (it has a manifest, or — a result written
// before manifests — resolved_scenario.json) holding nothing but what rsoc wrote and the figures tools/plot.py
// drew from it (listed in the folder's .rsoc-plots): those go with the results they show, and commit() says
// so. Other files rsoc did not write (a user's notes) are never deleted: the command is refused, naming them,
// before anything runs and again at commit(). Anything that is not an rsoc result is left alone and reported.
// Every message names the destination the user gave, never the temporary folder.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace rsoc::analysis {

// A result or sweep folder that cannot be written, or a write that failed: the command's output failed.
class OutputDirError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutputDir {
 public:
  // Checks the destination and creates the temporary folder. Throws OutputDirError.
  explicit OutputDir(std::filesystem::path destination);
  ~OutputDir();  // removes the temporary folder unless committed
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  std::filesystem::path file(const std::string& name) const { return temp_ / name; }
  const std::filesystem::path& destination() const { return destination_; }
  // Writes the manifest and moves the results into place (replacing an earlier result). Throws
  // OutputDirError, leaving the destination as it was. Returns what the user should know of the figures
  // drawn from the replaced results ("res: the 6 figures drawn from the previous results went with them
  // (tools/plot.py crossover res); draw them again"), or nothing.
  std::string commit();

 private:
  std::filesystem::path destination_, temp_;
  bool committed_ = false;
};

// The list tools/plot.py keeps of the figures it drew into a folder: their names, one per line, relative to
// it, and the commands that drew them ("# drawn by: tools/plot.py crossover res").
inline constexpr const char* kFiguresListName = ".rsoc-plots";

// The figures tools/plot.py drew into `dir` and its folders (relative to it, sorted), and the commands that
// drew them.
struct DrawnFigures {
  std::vector<std::string> files;
  std::vector<std::string> commands;
};
DrawnFigures drawn_figures(const std::filesystem::path& dir);
// Whether the folder `dir` holds figures tools/plot.py drew and nothing else.
bool holds_only_figures(const std::filesystem::path& dir);
// "DIR: the N figures drawn from the previous results went with them (COMMANDS); draw them again", or "".
std::string figures_gone_note(const std::filesystem::path& dir, const DrawnFigures& figures);

// The manifest of a result folder: the paths of the files rsoc wrote there, one per line, relative to it.
inline constexpr const char* kManifestName = ".rsoc-files";

// Whether `dir` is an rsoc result folder (see OutputDir).
bool is_result_folder(const std::filesystem::path& dir);
// The entries of the rsoc result folder `dir` that rsoc did not write, relative to it, sorted: files, and
// folders ("figs/") holding nothing rsoc wrote; not the figures tools/plot.py drew (drawn_figures()).
std::vector<std::string> foreign_entries(const std::filesystem::path& dir);
// Throws OutputDirError when `foreign` (entries of `dir`) is not empty: "DIR holds files rsoc did not write:
// a, b and 3 more; ...".
void refuse_foreign(const std::filesystem::path& dir, const std::vector<std::string>& foreign);

// Whether `name` is a temporary name rsoc gives what it is writing: ".NAME.partial-PID", ".NAME.old-PID"
// (OutputDir) or "NAME.tmp-PID" (write_file_atomically).
bool is_temporary_name(const std::string& name);

// How messages name `path`: a path inside the temporary folder of an OutputDir of this process by its place
// in the destination ("res/requests.csv", not ".res.partial-42/requests.csv").
std::string shown(const std::filesystem::path& path);
// `text` with every temporary folder of an OutputDir of this process replaced by its destination (the log of
// a child process that wrote into it).
std::string shown_in(std::string text);
// "PATH: cannot write: REASON" (PATH as shown()), the message of every failed write.
OutputDirError write_error(const std::filesystem::path& path, const std::string& reason);

// Writes `text` to `path` through a temporary file beside it, renamed into place: an interrupted or failed
// write (a full disk) leaves the previous file or none, never a truncated one. Throws OutputDirError.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace rsoc::analysis
