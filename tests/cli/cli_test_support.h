#pragma once
// What the end-to-end tests of the `rsoc` command line share: running rsoc in a scratch folder and reading
// what it wrote.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/test_paths.h"

namespace rsoc_cli_test {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("rsoc_cli_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Runs the shell command `command` in `cwd`, capturing stdout and stderr.
inline Result shell(const std::string& command, const fs::path& cwd) {
  const fs::path out = cwd / "stdout.txt", err = cwd / "stderr.txt";
  const std::string cmd =
      "cd '" + cwd.string() + "' && " + command + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  Result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// Runs `rsoc ARGS` in `cwd`, capturing stdout and stderr.
inline Result run_rsoc(const std::string& args, const fs::path& cwd) {
  return shell(std::string(rsoc_test::kRsocBinary) + " " + args, cwd);
}

// Whether `text` holds `part`.
inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Writes `text` as `file`, making its folder.
inline void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

inline const std::string kScenarios = std::string(rsoc_test::kSourceDir) + "/scenarios";
inline const std::string kBroken = std::string(rsoc_test::kSourceDir) + "/tests/broken_scenarios";
inline const std::string kSmoke = kScenarios + "/smoke_aes.json";
inline const std::string kReference = kScenarios + "/os_aes_des.json";

}  // namespace rsoc_cli_test
