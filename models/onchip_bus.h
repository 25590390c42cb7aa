#pragma once
// OnChipBus: a shared on-chip bus (PLB/AXI-lite-like) with one transfer at a time.
// Timing contract: an access of w 32-bit words occupies the bus for (latency_cycles + w * cycles_per_word)
// bus clock cycles, granted at the first free slot at or after its arrival (ResourceCalendar: contention
// costs the waiting time); the target's own latency follows. Streamed chunks report the occupancy as their
// bus stage. Timelines: every transaction's booked interval goes to an attached ActivitySink. PIO replays
// (models/pio_replay.h): the bookings this bus made for the recorded accesses, made again shifted, counted.
// Energy (models/energy.h): each word carried (replayed ones too) costs pj_per_word, paid by the payload's
// account.

#include <string>

#include "models/pio_replay.h"
#include "models/resource_calendar.h"
#include "models/routing_bus.h"
#include "models/statistics.h"

namespace rsoc::models {

struct OnChipBusParams {
  sc_core::sc_time clock_period{10, sc_core::SC_NS};
  unsigned latency_cycles = 1;   // arbitration + address phase, per transaction
  unsigned cycles_per_word = 1;  // data phase, per 32-bit word
  std::optional<FaultStream> faults =
      std::nullopt;  // injected bus faults (models/routing_bus.h); none when absent
  std::optional<double> energy_pj_per_word =
      std::nullopt;  // per word carried (models/energy.h); none: no energy
  // Bus cycles one transaction of `words` words holds the bus for (the model's timing; platform/estimate.cpp
  // prices an access with it too).
  std::uint64_t transfer_cycles(std::uint64_t words) const {
    return latency_cycles + words * cycles_per_word;
  }
  // Bus cycles per word of a stream moved in chunks of `chunk_words` words, each chunk one transaction
  // (transfer_cycles(chunk_words) spread over its words).
  double stream_cycles_per_word(unsigned chunk_words) const {
    return cycles_per_word + static_cast<double>(latency_cycles) / chunk_words;
  }
};

class OnChipBus : public RoutingBus, public StatisticsSource {
 public:
  // StatisticsSource: its counters (models/statistics.h).
  void statistics(double end_ms, std::vector<StatGroup>& out) const override;
  StatisticsRank statistics_rank() const override { return StatisticsRank::kOnChipBus; }
  OnChipBus(const sc_core::sc_module_name& name, const OnChipBusParams& params);

  const OnChipBusParams& params() const { return params_; }
  const ResourceCalendar& calendar() const { return calendar_; }
  std::uint64_t transactions() const { return transactions_; }
  std::uint64_t words() const { return words_; }

 protected:
  void transport(tlm::tlm_generic_payload& trans, const AddressRange& range,
                 sc_core::sc_time& delay) override;

 private:
  void replay(tlm::tlm_generic_payload& trans, const AddressRange& range, const PioReplayExtension& pio,
              sc_core::sc_time& delay);
  OnChipBusParams params_;
  sc_core::sc_time word_occupancy_;  // of a one-word access
  ResourceCalendar calendar_;
  std::uint64_t transactions_ = 0;
  std::uint64_t words_ = 0;
};

}  // namespace rsoc::models
