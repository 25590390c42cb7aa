#pragma once
// Helpers shared by the rsoc::models tests: time shorthands, a module running a test sequence as an
// SC_THREAD, a probe target with a configurable latency, and a raw TLM initiator.
//
// Every TEST that elaborates modules calls sc_core::sc_start() once: CTest runs each test in its own process.

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <systemc>
#include <tlm>
#include <utility>
#include <vector>

namespace rsoc::models::test {

inline sc_core::sc_time ps(std::uint64_t v) {
  return sc_core::sc_time(static_cast<double>(v), sc_core::SC_PS);
}
inline sc_core::sc_time ns(std::uint64_t v) {
  return sc_core::sc_time(static_cast<double>(v), sc_core::SC_NS);
}
inline sc_core::sc_time us(std::uint64_t v) {
  return sc_core::sc_time(static_cast<double>(v), sc_core::SC_US);
}

// Sets the global quantum of the loosely-timed initiators; call before elaborating any CPU.
inline void set_quantum(const sc_core::sc_time& q) {
  tlm_utils::tlm_quantumkeeper::set_global_quantum(q);
}

// Runs `body` once as an SC_THREAD.
class TestThread : public sc_core::sc_module {
 public:
  TestThread(const sc_core::sc_module_name& name, std::function<void()> body)
      : sc_module(name), body_(std::move(body)) {
    SC_HAS_PROCESS(TestThread);
    SC_THREAD(run);
  }
  bool finished() const { return finished_; }

 private:
  void run() {
    body_();
    finished_ = true;
  }
  std::function<void()> body_;
  bool finished_ = false;
};

// A word-addressed device: reads return what was written (or a pattern of the address when never written)
// and every access adds `latency` to the annotated delay. Records the addresses it sees.
class ProbeTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ProbeTarget> target{"target"};

  ProbeTarget(const sc_core::sc_module_name& name, const sc_core::sc_time& latency)
      : sc_module(name), latency_(latency) {
    target.register_b_transport(this, &ProbeTarget::b_transport);
    target.register_transport_dbg(this, &ProbeTarget::transport_dbg);
  }

  static std::uint32_t pattern(std::uint64_t address) {
    return 0xA5000000u | static_cast<std::uint32_t>(address);
  }
  std::uint32_t word(std::uint64_t address) const {
    auto it = words_.find(address);
    return it == words_.end() ? pattern(address) : it->second;
  }
  const std::vector<std::uint64_t>& addresses() const { return addresses_; }
  const std::vector<sc_core::sc_time>& arrivals() const { return arrivals_; }
  std::uint64_t accesses() const { return addresses_.size(); }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    addresses_.push_back(trans.get_address());
    arrivals_.push_back(sc_core::sc_time_stamp() + delay);
    move(trans);
    delay += latency_;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) {
    move(trans);
    return trans.get_data_length();
  }
  void move(tlm::tlm_generic_payload& trans) {
    for (unsigned i = 0; i < trans.get_data_length(); i += 4) {
      const std::uint64_t address = trans.get_address() + i;
      std::uint32_t value = 0;
      if (trans.is_write()) {
        std::memcpy(&value, trans.get_data_ptr() + i, 4);
        words_[address] = value;
      } else {
        value = word(address);
        std::memcpy(trans.get_data_ptr() + i, &value, 4);
      }
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  sc_core::sc_time latency_;
  std::map<std::uint64_t, std::uint32_t> words_;
  std::vector<std::uint64_t> addresses_;
  std::vector<sc_core::sc_time> arrivals_;
};

// A bare initiator socket for payloads the CPU model cannot produce (byte enables, debug transport).
class RawInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<RawInitiator> initiator{"initiator"};
  explicit RawInitiator(const sc_core::sc_module_name& name) : sc_module(name) {}

  // A blocking transport of `length` bytes at `address`; returns the response status.
  tlm::tlm_response_status transport(tlm::tlm_command command, std::uint64_t address, void* data,
                                     unsigned length, sc_core::sc_time& delay,
                                     unsigned char* byte_enable = nullptr) {
    tlm::tlm_generic_payload trans;
    prepare(trans, command, address, data, length, byte_enable);
    initiator->b_transport(trans, delay);
    return trans.get_response_status();
  }
  // A debug transport; returns the number of bytes moved and the response status in `status`.
  unsigned debug(tlm::tlm_command command, std::uint64_t address, void* data, unsigned length,
                 tlm::tlm_response_status* status) {
    tlm::tlm_generic_payload trans;
    prepare(trans, command, address, data, length, nullptr);
    const unsigned n = initiator->transport_dbg(trans);
    *status = trans.get_response_status();
    return n;
  }

 private:
  static void prepare(tlm::tlm_generic_payload& trans, tlm::tlm_command command, std::uint64_t address,
                      void* data, unsigned length, unsigned char* byte_enable) {
    trans.set_command(command);
    trans.set_address(address);
    trans.set_data_ptr(static_cast<unsigned char*>(data));
    trans.set_data_length(length);
    trans.set_streaming_width(length);
    trans.set_byte_enable_ptr(byte_enable);
    trans.set_byte_enable_length(byte_enable ? length : 0);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }
};

}  // namespace rsoc::models::test
