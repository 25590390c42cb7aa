#pragma once
// Child processes of the rsoc command line: the same executable with other arguments (one simulation per
// process, since SystemC cannot be elaborated twice), its stdout and stderr in a log file.

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace rsoc::tools {

// The path of the running rsoc executable.
std::filesystem::path self_executable();

// Starts `rsoc ARGS...` with stdout and stderr in `log`; returns its pid. Throws std::runtime_error.
pid_t spawn_self(const std::vector<std::string>& args, const std::filesystem::path& log);

// Waits for any child; returns its pid and sets `status` (as waitpid). Throws std::runtime_error.
pid_t wait_child(int& status);

// "exited with 3", "killed by signal 9": how a child ended, for messages.
std::string ending(int status);

}  // namespace rsoc::tools
