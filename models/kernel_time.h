#pragma once
// The kernel's current time for models that read it on every access.

#include <cstdint>
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

}  // namespace rsoc::models
