#pragma once
// Scrubber: a configuration-memory scrubbing controller beside the configuration port (as a soft error
// mitigation controller beside an ICAP). Every period, from time zero, it scrubs each slot that holds a core,
// one after the other, through the port:
//   blind     rewrites the slot's frames: the words of its core's bitstream; any upset before the end of the
//             rewrite is repaired;
//   readback  reads the frames back (as many words), compares them, and rewrites the corrupted frame
//             (frame_words more) when it finds an upset, which it repairs.
// Timing contract: a scrub occupies the port's DATA stage for its words (ConfigPort::occupy: configurations
// wait for it, and it for them), and repairs at the end of that occupancy. One timed wait per scrub. A slot
// being configured, or holding nothing, is not scrubbed. A slot's state is read at kernel time, so a core
// computing ahead of it (within one quantum) may see an upset the scrub is about to repair.

#include <cstdint>
#include <systemc>
#include <vector>

#include "models/config_port.h"
#include "models/fpga_slot.h"
#include "models/name_table.h"
#include "models/statistics.h"

namespace rsoc::models {

enum class ScrubMode { kBlind, kReadback };
inline constexpr NameTable<ScrubMode, 2> kScrubModeNames{
    {{{ScrubMode::kBlind, "blind"}, {ScrubMode::kReadback, "readback"}}}};

struct ScrubParams {
  ScrubMode mode = ScrubMode::kBlind;
  sc_core::sc_time period{100, sc_core::SC_MS};
  std::uint64_t frame_words = 101;  // a 7-series configuration frame: 101 words
};

class Scrubber : public sc_core::sc_module, public StatisticsSource {
 public:
  SC_HAS_PROCESS(Scrubber);
  // Scrubs `slots` through `port`; throws std::invalid_argument for a zero period.
  Scrubber(const sc_core::sc_module_name& name, const ScrubParams& params, ConfigPort& port,
           std::vector<FpgaSlot*> slots);

  std::uint64_t scrubs() const { return scrubs_; }
  std::uint64_t repairs() const { return repairs_; }
  // StatisticsSource: its counters (models/statistics.h).
  void statistics(double end_ms, std::vector<StatGroup>& out) const override;
  StatisticsRank statistics_rank() const override { return StatisticsRank::kScrubber; }

 private:
  void run();

  ScrubParams params_;
  ConfigPort& port_;
  std::vector<FpgaSlot*> slots_;
  std::uint64_t scrubs_ = 0, repairs_ = 0;
};

}  // namespace rsoc::models
