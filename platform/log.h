#pragma once
// How much rsoc says on stderr: quiet (errors only), normal (what a command does and where its results
// went: the default) or verbose (also each result file written, each child process's command, timings).
// The level comes from -q/--quiet and -v/--verbose, else from the environment variable RSOC_LOG
// (quiet|normal|verbose). Errors are always printed, whatever the level; results on stdout never depend on
// it.

#include <optional>
#include <ostream>
#include <string>

namespace rsoc::platform::logging {

enum class Level { kQuiet, kNormal, kVerbose };

void set_level(Level level);
Level level();

// "quiet", "normal", "verbose".
const char* name(Level level);
// The level a name gives, or nothing.
std::optional<Level> from_name(const std::string& text);
// The level RSOC_LOG gives, or nothing when it is unset or empty. Throws std::invalid_argument naming the
// variable and the accepted values when it holds anything else.
std::optional<Level> from_environment();

// The stream of normal messages (stderr, unless quiet) and of verbose details (stderr, when verbose); both
// swallow what they are given otherwise.
std::ostream& note();
std::ostream& detail();
// Whether normal messages (verbose details) are shown.
inline bool notes() {
  return level() != Level::kQuiet;
}
inline bool details() {
  return level() == Level::kVerbose;
}

}  // namespace rsoc::platform::logging
