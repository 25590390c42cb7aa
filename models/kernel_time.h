#pragma once
// The kernel's current time for models that read it on every access.

#include <systemc>

namespace rsoc::models {

// Exactly sc_core::sc_time_stamp(), which returns this, but inline instead of a call into the SystemC
// library.
inline const sc_core::sc_time& kernel_time() {
  return sc_core::sc_get_curr_simcontext()->time_stamp();
}

}  // namespace rsoc::models
