#include "models/onchip_bus.h"

#include "models/kernel_time.h"
#include "models/pio_replay.h"
#include "models/stream.h"

namespace rsoc::models {

OnChipBus::OnChipBus(const sc_core::sc_module_name& name, const OnChipBusParams& params)
    : RoutingBus(name, params.faults, params.energy_pj_per_word),
      params_(params),
      word_occupancy_(
          periods(params.clock_period, static_cast<double>(params.transfer_cycles(1)), "a bus transfer")) {}

void OnChipBus::transport(tlm::tlm_generic_payload& trans, const AddressRange& range,
                          sc_core::sc_time& delay) {
  PioReplayExtension* pio = pio_of(trans);
  if (pio && pio->replaying) return replay(trans, range, *pio, delay);
  const std::uint64_t w = words_of(trans);
  const sc_core::sc_time occupancy =
      w == 1
          ? word_occupancy_
          : periods(params_.clock_period, static_cast<double>(params_.transfer_cycles(w)), "a bus transfer");
  const sc_core::sc_time now = kernel_time();
  ++transactions_;
  words_ += w;
  spend(trans, w);
  sc_core::sc_time start;
  if (StreamExtension* stream = stream_of(trans)) {
    // A chunk crossing this bus twice (read then write) holds it for both, one after the other; only waiting
    // for other initiators delays the stream.
    const sc_core::sc_time arrival = now + delay + stream->occupancy_of(this);
    start = calendar_.reserve(arrival, occupancy, now);
    delay += start - arrival;
    stream->add(this, name(), occupancy);
  } else {
    const sc_core::sc_time arrival = now + delay;
    start = calendar_.reserve(arrival, occupancy, now);
    delay = start + occupancy - now;
  }
  if (observed()) report_transfer(trans, start, start + occupancy, w, now);
  if (faulty() && fault(start)) {  // an error response in place of the target's
    if (pio) pio->recording->refuse();
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  if (pio) {
    pio->recording->add(PioRecording::Entry{this, start, occupancy, 0, static_cast<std::uint32_t>(w)});
    if (faulty()) pio->recording->single();  // a fault drawn per replay, at its time
  }
  forward(trans, range, delay);
}

void OnChipBus::replay(tlm::tlm_generic_payload& trans, const AddressRange& range,
                       const PioReplayExtension& pio, sc_core::sc_time& delay) {
  const sc_core::sc_time now = kernel_time();
  const PioRecording::Bookings b = pio.recording->bookings_of(this);
  const PioRecording::Entry *first = b.first, *last = b.last;
  const std::uint64_t words = b.words;
  sc_core::sc_time shift = pio.shift;
  for (std::uint64_t j = 0; j < pio.repetitions; ++j, shift += pio.period) {
    // In bulk when nothing booked stands in the way (the common case: this initiator's own earlier work
    // only); else, or when observed, one by one.
    if (observed() || !b.ordered || !calendar_.reserve_after_all(first, last, shift, b.busy, now)) {
      for (const PioRecording::Entry* e = first; e != last; ++e) {
        const sc_core::sc_time start = calendar_.reserve(e->at + shift, e->length, now);
        if (observed()) report_transfer(trans, start, start + e->length, e->words, now);
      }
    }
    transactions_ += static_cast<std::uint64_t>(last - first);
    words_ += words;
    spend(trans, words);
  }
  if (faulty() && fault(now + delay, static_cast<std::uint64_t>(last - first))) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  forward(trans, range, delay);
}

void OnChipBus::statistics(double end_ms, std::vector<StatGroup>& out) const {
  StatGroup g{std::string("bus.") + basename(), "bus", {}};
  g.add_busy(to_ms(calendar().busy_time()), end_ms, "time the bus carried transfers")
      .add("wait_ms", to_ms(calendar().wait_time()), "ms", "time initiators waited for the bus (contention)")
      .add("transactions", static_cast<double>(transactions()), "count", "transactions carried")
      .add("words", static_cast<double>(words()), "words", "32-bit words carried")
      .add("unmapped", static_cast<double>(unmapped_accesses()), "count", "accesses to no device");
  add_energy(g, energy(), "energy of the words it carried");
  if (faulty())
    g.add("injected_errors", static_cast<double>(injected_errors()), "count",
          "accesses an injected fault answered with an error response (scenario section faults)");
  out.push_back(g);
}
}  // namespace rsoc::models
