#pragma once
// Numbers in rsoc's JSON results: a value computed in binary floating point (a mean, a ratio, milliseconds
// from picoseconds) carries noise in its last bits, which the shortest round-trip printing shows in full
// (2235.4300000000003). Results hold every float rounded to 15 significant digits, the most a double always
// keeps, so that each prints as the shortest decimal that reads back as it (2235.43).

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rsoc::analysis {

inline double to_15_digits(double value) {
  if (!std::isfinite(value) || value == 0) return value;
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  return std::strtod(text, nullptr);
}

// Rounds every float of `doc` (a nlohmann::json or ordered_json) to 15 significant digits, in place.
template <typename Json>
void round_floats(Json& doc) {
  if (doc.is_number_float()) {
    doc = to_15_digits(doc.template get<double>());
  } else if (doc.is_structured()) {
    for (auto& element : doc) round_floats(element);
  }
}

}  // namespace rsoc::analysis
