#pragma once
// A register or streaming-window access to an IP core without a kernel, at time `at`, for the core tests.

#include <tlm>
#include <utility>
#include <vector>

#include "models/ip_core.h"
#include "models/stream.h"

namespace rsoc::models::test {

// The response and the latency of an access of `words` at `offset` (inside `stream`, when given).
inline std::pair<tlm::tlm_response_status, sc_core::sc_time> core_access(IpCore& core, tlm::tlm_command cmd,
                                                                         std::uint32_t offset,
                                                                         std::vector<std::uint32_t>& words,
                                                                         sc_core::sc_time at,
                                                                         StreamExtension* stream = nullptr) {
  tlm::tlm_generic_payload p;
  p.set_command(cmd);
  p.set_address(offset);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(words.data()));
  p.set_data_length(static_cast<unsigned>(4 * words.size()));
  p.set_streaming_width(static_cast<unsigned>(4 * words.size()));
  if (stream) p.set_extension(stream);
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;
  core.access(p, at, latency);
  if (stream) p.clear_extension(stream);
  return {p.get_response_status(), latency};
}

}  // namespace rsoc::models::test
