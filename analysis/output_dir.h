#pragma once
// OutputDir: results are written into a temporary sibling folder and renamed into place by commit(), so a run
// that fails never leaves a folder that looks complete. An existing folder is replaced only when it holds an
// earlier rsoc result (it has resolved_scenario.json); anything else is left alone and reported.

#include <filesystem>
#include <string>

namespace rsoc::analysis {

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
  // Moves the results into place (replacing an earlier result folder).
  void commit();

 private:
  std::filesystem::path destination_, temp_;
  bool committed_ = false;
};

// Writes `text` to `path` through a temporary file beside it, renamed into place: an interrupted or failed
// write (a full disk) leaves the previous file or none, never a truncated one. Throws OutputDirError.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace rsoc::analysis
