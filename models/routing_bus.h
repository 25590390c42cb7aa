#pragma once
// RoutingBus: what every interconnect shares — bind-and-map of targets, address decoding, address
// translation, TLM_ADDRESS_ERROR_RESPONSE for unmapped accesses, debug transport, and the report of every
// transfer to an attached ActivitySink (timelines). Timing belongs to the subclasses.
// Injected bus faults (the bus Params' faults, models/faults.h): each access the bus carries is a chance for
// a fault; what a fault does is the subclass's (an on-chip error response, an FMC NWAIT that never clears).

#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>

#include "models/activity.h"
#include "models/address_map.h"
#include "models/energy.h"
#include "models/faults.h"
#include "models/kernel_time.h"

namespace rsoc::models {

// Any target socket of the base protocol (simple, multi-passthrough: another bus's).
using TargetSocket =
    tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;

// The bus implements the forward interface of its target socket itself (rather than through the callbacks of
// a multi-passthrough socket): every access crosses it. Any number of initiators bind to the one socket; the
// bus never calls them back. The interface is a protected base, not a private one: the subclasses destroy its
// virtual bases (sc_interface), so they must reach them (clang enforces it).
class RoutingBus : public sc_core::sc_module, protected tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 0> target{"target"};
  tlm_utils::multi_passthrough_initiator_socket<RoutingBus> initiator{"initiator"};

  // `faults`: each access the bus carries (a burst is one) fails or not by it (none when absent).
  // `energy_pj_per_word` (models/energy.h): every word the bus carries costs that much, paid by the payload's
  // account (none: it counts no energy).
  RoutingBus(const sc_core::sc_module_name& name, const std::optional<FaultStream>& faults,
             std::optional<double> energy_pj_per_word);

  // Binds a device's target socket to this bus and maps it at [base, base + size) in one call. Throws
  // ElaborationError naming both devices when the range overlaps a device already mapped.
  void add_target(TargetSocket& socket, std::uint64_t base, std::uint64_t size, const std::string& device);
  // Binds an initiator (CPU, DMA, bridge) to this bus.
  template <class InitiatorSocket>
  void add_initiator(InitiatorSocket& socket) {
    socket.bind(target);
  }

  std::uint64_t injected_errors() const { return injected_; }
  const AddressMap& address_map() const { return map_; }
  std::uint64_t unmapped_accesses() const { return unmapped_; }
  const EnergySpent& energy() const { return energy_; }
  // Reports every transfer the bus carries to `sink` on `lane` (null: none).
  void set_activity(ActivitySink* sink, Lane lane) { activity_ = {sink, lane}; }

 protected:
  // Times and forwards one decoded access; `local` is the address inside the device.
  virtual void transport(tlm::tlm_generic_payload& trans, const AddressRange& range,
                         sc_core::sc_time& delay) = 0;
  // Sends `trans` (address already translated) to the device of `range`.
  void forward(tlm::tlm_generic_payload& trans, const AddressRange& range, sc_core::sc_time& delay) {
    initiator[range.port]->b_transport(trans, delay);
  }
  bool observed() const { return static_cast<bool>(activity_); }
  // Whether one of `accesses` accesses at `at` fails by an injected fault (counted).
  bool fault(const sc_core::sc_time& at, std::uint64_t accesses = 1) {
    if (!faults_ || faults_->first_fault(accesses, at) == accesses) return false;
    ++injected_;
    if (activity_) activity_->fault(activity_.lane, "bus error", to_ps(at));
    return true;
  }
  bool faulty() const { return faults_ != nullptr; }
  // The bus carried `words` words of `trans`: their energy, when it has a cost.
  void spend(const tlm::tlm_generic_payload& trans, std::uint64_t words) {
    if (energy_.on()) energy_.spend(static_cast<double>(words) * nj_per_word_, trans);
  }
  // Tells the attached sink that the bus carried `words` words of `trans` during [start, end), booked at the
  // kernel time `now`. Only when observed().
  void report_transfer(tlm::tlm_generic_payload& trans, const sc_core::sc_time& start,
                       const sc_core::sc_time& end, std::uint64_t words, const sc_core::sc_time& now) const;

 private:
  // tlm_fw_transport_if. Loosely timed: a non-blocking request completes at once (as b_transport); no DMI.
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) override;

  AddressMap map_;
  unsigned ports_ = 0;
  std::uint64_t unmapped_ = 0;
  ActivityReport activity_;              // where it reports its activity (set_activity)
  std::unique_ptr<FaultStream> faults_;  // null: none
  std::uint64_t injected_ = 0;
  EnergySpent energy_{EnergyPart::kBus};
  double nj_per_word_ = 0;
};

// Number of 32-bit words an access moves (a partial word counts as one).
inline std::uint64_t words_of(const tlm::tlm_generic_payload& trans) {
  return (static_cast<std::uint64_t>(trans.get_data_length()) + 3) / 4;
}

}  // namespace rsoc::models
