#include "platform/log.h"

#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace rsoc::platform::logging {

namespace {

Level g_level = Level::kNormal;

// A stream that formats nothing and writes nowhere (no buffer: every insertion fails at once).
std::ostream& nowhere() {
  static std::ostream stream(nullptr);
  return stream;
}

}  // namespace

void set_level(Level level) {
  g_level = level;
}

Level level() {
  return g_level;
}

const char* name(Level level) {
  switch (level) {
    case Level::kQuiet:
      return "quiet";
    case Level::kVerbose:
      return "verbose";
    case Level::kNormal:
      break;
  }
  return "normal";
}

std::optional<Level> from_name(const std::string& text) {
  for (Level level : {Level::kQuiet, Level::kNormal, Level::kVerbose})
    if (text == name(level)) return level;
  return std::nullopt;
}

std::optional<Level> from_environment() {
  const char* value = std::getenv("RSOC_LOG");
  if (value == nullptr || *value == '\0') return std::nullopt;
  const auto level = from_name(value);
  if (!level)
    throw std::invalid_argument(std::string("RSOC_LOG=") + value + ": expected quiet, normal or verbose");
  return level;
}

std::ostream& note() {
  return notes() ? std::cerr : nowhere();
}

std::ostream& detail() {
  return details() ? std::cerr : nowhere();
}

}  // namespace rsoc::platform::logging
