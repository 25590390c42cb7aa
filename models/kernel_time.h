#pragma once
// The kernel's current time for models that read it on every access.

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <systemc>

namespace rsoc::models {

// Exactly sc_core::sc_time_stamp(), which returns this, but inline instead of a call into the SystemC
// library.
inline const sc_core::sc_time& kernel_time() {
  return sc_core::sc_get_curr_simcontext()->time_stamp();
}

// `t` in picoseconds, the kernel's default time resolution (rsoc never changes it): the time unit of the
// records models hand out (models/activity.h).
inline std::uint64_t to_ps(const sc_core::sc_time& t) {
  return t.value();
}

// `t` in milliseconds: the time unit of statistics (models/statistics.h).
inline double to_ms(const sc_core::sc_time& t) {
  return t.to_seconds() * 1e3;
}

// `count` periods of `period`: a clock's cycles as a time. Simulated time is counted in 64-bit picoseconds;
// a duration of 2^57 ps (about 40 hours) or more in one piece is refused (std::overflow_error naming
// `what`) rather than left to wrap, leaving room for the runtime's sums and for slower shared cores.
[[noreturn, gnu::cold, gnu::noinline]] inline void too_long(const sc_core::sc_time& period, double count,
                                                          const char* what) {
  char cycles[32];
  std::snprintf(cycles, sizeof cycles, "%.0f", count);
  throw std::overflow_error(std::string(what) + ": " + cycles + " cycles of " + period.to_string() +
                            " would last 2^57 ps (about 40 hours) or more in one piece");
}
inline sc_core::sc_time periods(const sc_core::sc_time& period, double count, const char* what) {
  constexpr double kLongestPs = 144115188075855872.0;  // 2^57
  if (static_cast<double>(period.value()) * count >= kLongestPs) too_long(period, count, what);
  return period * count;  // the cold path apart, this inlines into the models' hot loops
}

// The same for a whole number of periods, in integer arithmetic (no conversion to and from double): equal to
// periods() wherever the product is exact in a double (below 2^53 ps, about 2.5 hours), exact beyond.
inline sc_core::sc_time whole_periods(const sc_core::sc_time& period, std::uint64_t count, const char* what) {
  constexpr std::uint64_t kLongestPs = std::uint64_t{1} << 57;
  std::uint64_t ps = 0;  // a multiplication checked for overflow (no division on the models' hot paths)
  if (__builtin_mul_overflow(period.value(), count, &ps) || ps >= kLongestPs)
    too_long(period, static_cast<double>(count), what);
  return sc_core::sc_time::from_value(ps);
}
// The whole periods of `period` that cover `t` (the ceiling of t / period; period > 0).
inline std::uint64_t periods_covering(const sc_core::sc_time& t, const sc_core::sc_time& period) {
  return t.value() / period.value() + (t.value() % period.value() != 0 ? 1 : 0);
}

// `s` seconds as a time (a duration computed in seconds), refused as periods() refuses one: 2^57 ps or more.
inline sc_core::sc_time seconds(double s, const char* what) {
  constexpr double kLongestPs = 144115188075855872.0;  // 2^57
  if (!(s * 1e12 < kLongestPs))
    throw std::overflow_error(std::string(what) + ": " + std::to_string(s) +
                              " s would last 2^57 ps (about 40 hours) or more in one piece");
  return sc_core::sc_time(s, sc_core::SC_SEC);
}

}  // namespace rsoc::models
