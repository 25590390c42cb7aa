#pragma once
// ConfigPort: the FPGA's configuration port (ICAP-like). Registers CTRL (START | slot index, ABORT), STATUS
// (BUSY, DONE, ERROR), WORDS (received), ERROR_CODE, and a 4 KiB write-only DATA window that bitstream words
// are streamed into. One configuration at a time: START while busy fails with TLM_COMMAND_ERROR_RESPONSE.
// Timing contract: register accesses cost access_cycles port cycles; the DATA window takes width_bits per
// port cycle, i.e. a 32-bit word costs clock_period * 32 / width_bits, reserved on the port (a streamed chunk
// reports it as its port stage). Reconfiguration time therefore comes from the slowest stage of the path
// feeding it. Timelines: each configuration, from START to its last word, is reported to an attached
// ActivitySink when it ends.
// Injected configuration errors (models/faults.h) corrupt the words the port passes to the slot: the slot's
// bitstream check finds them (a payload error at the end of loading, a header error at once) and the port
// reports ERROR, as a real port's CRC check does. They cost no time of their own.
// Energy (models/energy.h): each word the DATA stage takes costs nj_per_word, paid by the feeder's payload's
// account (scrubbing's words: by nobody).

#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/activity.h"
#include "models/energy.h"
#include "models/faults.h"
#include "models/fpga_slot.h"
#include "models/register_file.h"
#include "models/resource_calendar.h"
#include "models/statistics.h"

namespace rsoc::models {

// The configuration errors injected at a port: per_configuration[i] decides at each START of slot i (its
// index at the port) whether that bitstream arrives corrupted (a bit of its first payload word flipped, which
// only the check at its end finds); per_bit flips each bit moved into DATA with its probability (a bit error
// rate).
struct ConfigurationFaults {
  std::vector<FaultStream> per_configuration;
  FaultStream per_bit;
};

struct ConfigPortParams {
  sc_core::sc_time clock_period{10, sc_core::SC_NS};
  unsigned width_bits = 32;
  unsigned access_cycles = 1;
  // Injected configuration errors (one entry of per_configuration per slot); none when absent.
  std::optional<ConfigurationFaults> faults = std::nullopt;
  // Every word the DATA stage takes (bitstream or scrubbing) costs this of the port's own (models/energy.h),
  // paid by the payload's account (scrubbing: nobody). None: no energy.
  std::optional<double> energy_nj_per_word = std::nullopt;
  // Port cycles of one 32-bit word of the DATA window (the model's timing and the estimate's).
  double word_cycles() const { return 32.0 / width_bits; }
};

namespace port_reg {
inline constexpr std::uint32_t kCtrl = 0x00, kStatus = 0x04, kWords = 0x08, kErrorCode = 0x0C;
inline constexpr std::uint32_t kData = 0x1000, kDataBytes = 0x1000, kSize = 0x2000;
inline constexpr std::uint32_t kCtrlStart = 1u << 31, kCtrlAbort = 1u << 30, kCtrlSlotMask = 0xff;
inline constexpr std::uint32_t kStatusBusy = 1u << 0, kStatusDone = 1u << 1, kStatusError = 1u << 2;
}  // namespace port_reg

struct ReconfigurationRecord {
  std::string slot;
  std::uint32_t core_id = 0;
  sc_core::sc_time start, end;
  std::uint64_t words = 0;
  bool ok = false;
  std::string error;
  std::uint64_t injected_bits = 0;  // bits an injected fault flipped on their way to the slot
};

class ConfigPort : public sc_core::sc_module, public StatisticsSource {
 public:
  // StatisticsSource: its counters (models/statistics.h).
  void statistics(double end_ms, std::vector<StatGroup>& out) const override;
  StatisticsRank statistics_rank() const override { return StatisticsRank::kConfigPort; }
  tlm_utils::simple_target_socket<ConfigPort> target{"target"};

  ConfigPort(const sc_core::sc_module_name& name, const ConfigPortParams& params,
             std::vector<FpgaSlot*> slots);

  const ConfigPortParams& params() const { return params_; }
  sc_core::sc_time word_time() const { return params_.clock_period * params_.word_cycles(); }
  const ResourceCalendar& calendar() const { return calendar_; }
  const std::vector<ReconfigurationRecord>& records() const { return records_; }
  bool busy() const { return session_ >= 0; }
  // A scrubber's use of the port: `words` words through the DATA stage, reserved on the port's calendar from
  // `arrival` (configurations wait for it, and it for them); returns when they are through.
  sc_core::sc_time occupy(const sc_core::sc_time& arrival, std::uint64_t words);
  std::uint64_t injected_errors() const { return injected_errors_; }  // configurations it corrupted
  const EnergySpent& energy() const { return energy_; }
  // Reports every configuration to `sink` on `lane` (null: none).
  void set_activity(ActivitySink* sink, Lane lane) { activity_ = {sink, lane}; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) { return regs_.debug(trans); }
  void control(std::uint32_t value, const sc_core::sc_time& at);
  void data(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void finish(const sc_core::sc_time& at);
  // The words of a chunk as they reach the slot: `words` themselves, or a copy with the injected flips.
  const std::uint8_t* corrupt(const std::uint8_t* words, std::uint64_t n, std::uint64_t first_word,
                              const sc_core::sc_time& at);

  ConfigPortParams params_;
  std::vector<FpgaSlot*> slots_;
  RegisterFile regs_;
  RegisterFile::Id ctrl_reg_{}, status_reg_{}, words_reg_{}, error_code_reg_{};
  ResourceCalendar calendar_;
  std::vector<ReconfigurationRecord> records_;
  ReconfigurationRecord* session() {
    return session_ < 0 ? nullptr : &records_[static_cast<std::size_t>(session_)];
  }
  long session_ = -1;  // index of the configuration in progress in records_
  EnergySpent energy_{EnergyPart::kConfigPort};
  double nj_per_word_ = 0;
  FpgaSlot* slot_ = nullptr;
  bool refused_start_ = false;
  ActivityReport activity_;                      // where it reports its activity (set_activity)
  std::unique_ptr<ConfigurationFaults> faults_;  // null: none
  std::optional<std::uint64_t> flip_word_;       // the session's word an injected error flips
  std::vector<std::uint8_t> corrupted_;          // a chunk with its flips
  std::uint64_t injected_errors_ = 0;
  std::uint64_t scrub_words_ = 0;
  sc_core::sc_time scrub_busy_{sc_core::SC_ZERO_TIME};
};

}  // namespace rsoc::models
