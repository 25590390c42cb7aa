#include "analysis/output_dir.h"

#include <unistd.h>

#include <fstream>

namespace rsoc::analysis {

namespace fs = std::filesystem;

namespace {
bool replaceable(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return true;
  if (!fs::is_directory(dir, ec)) return false;
  if (fs::is_empty(dir, ec)) return true;
  return fs::exists(dir / "resolved_scenario.json", ec);
}
}  // namespace

OutputDir::OutputDir(fs::path destination) : destination_(std::move(destination)) {
  if (destination_.empty()) throw OutputDirError("output folder: empty path");
  if (destination_.filename().empty()) destination_ = destination_.parent_path();
  if (!replaceable(destination_))
    throw OutputDirError(destination_.string() +
                         ": exists and does not hold an rsoc result (no resolved_scenario.json); refusing to "
                         "replace it — choose another --out");
  std::error_code ec;
  const fs::path parent = destination_.has_parent_path() ? destination_.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) throw OutputDirError(parent.string() + ": cannot create folder: " + ec.message());
  temp_ = parent / ("." + destination_.filename().string() + ".partial-" + std::to_string(::getpid()));
  fs::remove_all(temp_, ec);
  fs::create_directory(temp_, ec);
  if (ec) throw OutputDirError(temp_.string() + ": cannot create folder: " + ec.message());
}

OutputDir::~OutputDir() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(temp_, ec);
}

void OutputDir::commit() {
  std::error_code ec;
  fs::path old;
  if (fs::exists(destination_, ec)) {
    old = destination_.parent_path() /
          ("." + destination_.filename().string() + ".old-" + std::to_string(::getpid()));
    fs::remove_all(old, ec);
    fs::rename(destination_, old, ec);
    if (ec)
      throw OutputDirError(destination_.string() + ": cannot move the previous result away: " + ec.message());
  }
  fs::rename(temp_, destination_, ec);
  if (ec) {
    if (!old.empty()) fs::rename(old, destination_, ec);
    throw OutputDirError(destination_.string() + ": cannot move results into place: " + ec.message());
  }
  committed_ = true;
  if (!old.empty()) fs::remove_all(old, ec);
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  const fs::path temp = path.string() + ".tmp-" + std::to_string(::getpid());
  std::error_code ec;
  {
    std::ofstream out(temp, std::ios::binary);
    out << text;
    out.flush();
    if (!out) {
      fs::remove(temp, ec);
      throw OutputDirError(path.string() + ": write failed");
    }
  }
  fs::rename(temp, path, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw OutputDirError(path.string() + ": cannot move into place: " + ec.message());
  }
}

}  // namespace rsoc::analysis
