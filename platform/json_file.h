#pragma once
// Strict JSON reading for scenario files: malformed text is reported with its line and column, a missing or
// unreadable file with the system's reason, and a key given twice in one object is an error (plain
// nlohmann::json silently keeps the last one). Every problem is thrown as a ScenarioError.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "platform/scenario_error.h"

namespace rsoc::platform {

// Reads and parses the file at `path`. Errors:
//   PATH: cannot open: No such file or directory
//   PATH:LINE:COLUMN: malformed JSON: <reason>
//   PATH: /platform/cpus/0: duplicate key "clock_mhz"   (every duplicate is reported)
nlohmann::json read_json_file(const std::string& path);
// Containers may nest this deep: scenarios need a handful of levels; far deeper text is refused before it is
// parsed (it would only exhaust the stack or memory of whatever walks it).
inline constexpr std::size_t kMaxJsonDepth = 256;
// The offset of the bracket of `text` that nests deeper than kMaxJsonDepth (strings skipped), if any.
std::optional<std::size_t> json_too_deep(std::string_view text);
// Parses `text` with the same errors, naming it `name` (e.g. an embedded scenario).
nlohmann::json parse_json_text(std::string_view text, std::string_view name);

// The same, keeping object keys in source order (so that resolve() reports issues in the order of the text):
// the readers of scenarios, which also refuse a text of more than 16 MiB before parsing it
//   PATH: the file is 52428800 bytes; a scenario is at most 16777216 bytes (16 MiB)
nlohmann::ordered_json read_ordered_json_file(const std::string& path);
nlohmann::ordered_json parse_ordered_json_text(std::string_view text, std::string_view name);

}  // namespace rsoc::platform
