#pragma once
// DmaEngine: a memory-to-device DMA on the on-chip bus, programmed through registers SRC, DST, WORDS, CTRL
// (START; SRC_FIXED, DST_FIXED for FIFO windows) and STATUS (BUSY, DONE, ERROR); raises an interrupt event
// when done. Timing contract: START takes effect at the CPU's local time of the write; setup_cycles DMA
// cycles later the engine streams chunks whose time is the slowest stage per word (its own: cycles_per_word
// at its clock; memory, bus, target) — one wait() per chunk, so other initiators interleave at chunk
// granularity. A target that never answers (TLM_INCOMPLETE_RESPONSE: a hung core, models/ip_core.h) stalls
// the transfer where it is: the engine stays BUSY, with no timed event, until CTRL.ABORT, which ends it at
// once with ERROR (the driver's watchdog does that); a transfer still moving when ABORT comes ends as it
// would have. Timelines: each transfer, from START to its last word
// (or its abort), is reported to an attached ActivitySink when it ends. Energy (models/energy.h): each word
// moved costs pj_per_word of the engine's own; the transfer's payloads carry the account of the register
// write that started it, which pays what the buses, memories and cores spend for it too.

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <optional>
#include <systemc>
#include <tlm>

#include "models/activity.h"
#include "models/energy.h"
#include "models/register_file.h"
#include "models/statistics.h"

namespace rsoc::models {

struct DmaParams {
  sc_core::sc_time clock_period{10, sc_core::SC_NS};
  unsigned cycles_per_word = 1;
  unsigned setup_cycles = 10;
  unsigned access_cycles = 1;
  unsigned chunk_words = 1024;
  // Every word moved costs this of the engine's own (models/energy.h), paid by the account of the access that
  // started the transfer, which also pays what the transfer costs the bus and memory (none: no energy).
  std::optional<double> energy_pj_per_word = std::nullopt;
};

namespace dma_reg {
inline constexpr std::uint32_t kSrc = 0x00, kDst = 0x04, kWords = 0x08, kCtrl = 0x0C, kStatus = 0x10,
                               kSize = 0x20;
inline constexpr std::uint32_t kCtrlStart = 1u << 0, kCtrlDstFixed = 1u << 1, kCtrlSrcFixed = 1u << 2,
                               kCtrlAbort = 1u << 3;
inline constexpr std::uint32_t kStatusBusy = 1u << 0, kStatusDone = 1u << 1, kStatusError = 1u << 2;
}  // namespace dma_reg

class DmaEngine : public sc_core::sc_module, public StatisticsSource {
 public:
  // StatisticsSource: its counters (models/statistics.h).
  void statistics(double end_ms, std::vector<StatGroup>& out) const override;
  StatisticsRank statistics_rank() const override { return StatisticsRank::kDma; }
  tlm_utils::simple_target_socket<DmaEngine> target{"target"};
  tlm_utils::simple_initiator_socket<DmaEngine> initiator{"initiator"};

  DmaEngine(const sc_core::sc_module_name& name, const DmaParams& params);

  // Notified when a transfer ends (the interrupt line).
  const sc_core::sc_event& done_event() const { return done_; }
  bool transferring() const { return regs_.at(status_reg_) & dma_reg::kStatusBusy; }  // STATUS.BUSY
  const DmaParams& params() const { return params_; }
  std::uint64_t transfers() const { return transfers_; }
  std::uint64_t stalls() const { return stalls_; }  // transfers a target that never answered stalled
  std::uint64_t words_moved() const { return words_; }
  sc_core::sc_time busy_time() const { return busy_; }
  const EnergySpent& energy() const { return energy_; }
  // Reports every transfer to `sink` on `lane` (null: none).
  void set_activity(ActivitySink* sink, Lane lane) { activity_ = {sink, lane}; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) { return regs_.debug(trans); }
  void run();

  DmaParams params_;
  RegisterFile regs_;
  RegisterFile::Id src_reg_{}, dst_reg_{}, words_reg_{}, ctrl_reg_{}, status_reg_{};
  sc_core::sc_event start_, done_, abort_;
  std::uint64_t transfers_ = 0, words_ = 0, stalls_ = 0;
  bool aborting_ = false;  // CTRL.ABORT came during the transfer
  sc_core::sc_time busy_{sc_core::SC_ZERO_TIME};
  ActivityReport activity_;  // where it reports its activity (set_activity)
  EnergySpent energy_{EnergyPart::kDma};
  double nj_per_word_ = 0;
  EnergyAccount* writer_ = nullptr;  // the account of the register access being taken
  EnergyAccount* payer_ = nullptr;   // the account of the transfer's START
};

}  // namespace rsoc::models
