#include "models/routing_bus.h"

#include "models/kernel_time.h"
#include "models/stream.h"

namespace rsoc::models {

RoutingBus::RoutingBus(const sc_core::sc_module_name& name, const std::optional<FaultStream>& faults,
                       std::optional<double> energy_pj_per_word)
    : sc_module(name), map_(this->name()) {
  target.bind(*this);
  if (faults) faults_ = std::make_unique<FaultStream>(*faults);
  if (energy_pj_per_word) {
    energy_.enable();
    nj_per_word_ = *energy_pj_per_word * 1e-3;
  }
}

void RoutingBus::add_target(TargetSocket& socket, std::uint64_t base, std::uint64_t size,
                            const std::string& device) {
  map_.add(AddressRange{device, base, size, ports_});  // throws before anything is bound
  initiator.bind(socket);
  ++ports_;
}

namespace {
// The bytes of the address space a payload touches: a streaming burst (a FIFO window) repeats its first
// streaming_width bytes.
std::uint64_t span_of(const tlm::tlm_generic_payload& trans) {
  const unsigned width = trans.get_streaming_width();
  return width != 0 && width < trans.get_data_length() ? width : trans.get_data_length();
}
}  // namespace

void RoutingBus::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const std::uint64_t address = trans.get_address();
  const AddressRange* range = map_.find(address, span_of(trans));
  if (!range) {
    ++unmapped_;
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  trans.set_address(address - range->base);
  transport(trans, *range, delay);
  trans.set_address(address);
}

tlm::tlm_sync_enum RoutingBus::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    b_transport(trans, delay);
    phase = tlm::BEGIN_RESP;
  }
  return tlm::TLM_COMPLETED;
}

bool RoutingBus::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_none();
  dmi.set_start_address(0);
  dmi.set_end_address(~sc_dt::uint64{0});
  return false;
}

void RoutingBus::report_transfer(tlm::tlm_generic_payload& trans, const sc_core::sc_time& start,
                                 const sc_core::sc_time& end, std::uint64_t words,
                                 const sc_core::sc_time& now) const {
  BurstRef burst;
  if (const StreamExtension* stream = stream_of(trans)) burst = BurstRef{stream->burst, stream->last_chunk};
  activity_->bus_transfer(activity_.lane, to_ps(start), to_ps(end), words, burst, to_ps(now));
}

unsigned RoutingBus::transport_dbg(tlm::tlm_generic_payload& trans) {
  const std::uint64_t address = trans.get_address();
  const AddressRange* range = map_.find(address, span_of(trans));
  if (!range) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  trans.set_address(address - range->base);
  unsigned n = initiator[range->port]->transport_dbg(trans);
  trans.set_address(address);
  return n;
}

}  // namespace rsoc::models
