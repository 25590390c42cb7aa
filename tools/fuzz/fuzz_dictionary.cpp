// Prints a libFuzzer dictionary of the scenario schema on stdout: every key (quoted, as scenario JSON has
// it), every enumeration value and restricted map key, and every key path as `--set` takes it
// ("platform.cpus.0.clock_mhz="), so that mutations reach deep into the loader rather than stopping at
// unknown keys.
#include <iostream>
#include <set>
#include <string>

#include "platform/scenario_schema.h"

namespace {

using rsoc::platform::Schema;

// A dictionary entry: the text between double quotes, with '"' and '\' escaped.
std::string entry(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void walk(const Schema& node, const std::string& path, std::set<std::string>& entries) {
  const auto key = [&](const std::string& k) {
    entries.insert(entry("\"" + k + "\""));
    const std::string child = path.empty() ? k : path + "." + k;
    entries.insert(entry(child + "="));
    return child;
  };
  for (const auto& value : node.enum_values()) entries.insert(entry("\"" + value + "\""));
  switch (node.kind()) {
    case Schema::Kind::kObject:
      for (const auto& field : node.fields()) walk(field.schema, key(field.key), entries);
      break;
    case Schema::Kind::kMap:
      if (node.key_values().empty()) {
        walk(node.element(), key(node.key_name_text()), entries);
      } else {
        for (const auto& k : node.key_values()) walk(node.element(), key(k), entries);
      }
      break;
    case Schema::Kind::kArray:
      walk(node.element(), path + ".0", entries);
      break;
    default:
      break;
  }
}

}  // namespace

int main() {
  std::set<std::string> entries;
  walk(rsoc::platform::scenario_schema(), "", entries);
  for (const char* extra : {"0x", "null", "true", "false", "1e308", "1e-300", "-1", "-0", "0.5", "[]", "{}",
                            ":", ",", "18446744073709551616", "9223372036854775807"})
    entries.insert(entry(extra));
  for (const auto& e : entries) std::cout << e << "\n";
  return 0;
}
