#pragma once
// FpgaSlot: a reconfigurable region of the FPGA with an address window on a bus, hosting the core its last
// bitstream configured. State: empty -> configuring -> ready <-> busy (busy while the core computes).
// Timing contract: register accesses are the hosted core's (IpCore: access_cycles per word at the core
// clock); accesses while the slot holds no ready core fail with TLM_GENERIC_ERROR_RESPONSE after one core
// cycle. Configuration itself is timed by the ConfigPort that feeds the slot.
// Timelines: an attached ActivitySink hears when a configuration begins and ends (at the times the port
// gives) and the work of the hosted cores. Energy (models/energy.h): the region's static power over the whole
// run, configured or not; its cores spend per cycle computed (CoreParams::energy_pj_per_cycle).
// Configuration upsets (SlotParams::upsets, models/faults.h): upsets of a configured core arrive as a Poisson
// process whose rate is per bit of its bitstream, from the moment its configuration completes, plus the
// upsets of fault windows. An upset core computes wrong results (IpCore::corrupt_from) until the slot is
// repaired: scrubbed (repair()) or configured again. Nothing of it costs a kernel event: the next upset's
// time is drawn when a configuration begins to hold, and the core compares its computations' times with it.
// Hangs (SlotParams::hangs): every operation a hosted core starts is a chance of the slot's hang stream; a
// hung core never finishes (IpCore) until the slot is configured again, which a hung core, unlike a computing
// one, does not refuse.

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/activity.h"
#include "models/bitstream.h"
#include "models/ip_core.h"
#include "models/statistics.h"

namespace rsoc::models {

enum class SlotState { kEmpty, kConfiguring, kReady, kBusy };
const char* to_string(SlotState state);

// The configuration upsets of one slot.
struct UpsetParams {
  double per_bit_per_s = 0;                     // upset rate of one configured bit
  std::uint64_t seed = 1;                       // of the draws
  std::map<std::uint32_t, std::uint64_t> bits;  // configured bits of each core id it can host
  std::vector<sc_core::sc_time> windows;        // an upset at each of these times (if configured then)
};

struct SlotParams {
  std::uint64_t capacity_bytes = 1 << 20;  // largest partial bitstream the region takes
  bool reconfigurable = true;
  sc_core::sc_time clock_period{10, sc_core::SC_NS};  // fabric clock for error responses
  // Faults (models/faults.h), none when absent: configuration upsets of the cores it holds, hangs of its
  // cores' operations.
  std::optional<UpsetParams> upsets = std::nullopt;
  std::optional<FaultStream> hangs = std::nullopt;
  // The region's static power (models/energy.h), spent over the whole run whether it holds a core or not;
  // its cores spend their own (CoreParams::energy_pj_per_cycle). Both appear in its stats. None: no energy.
  std::optional<double> static_mw = std::nullopt;
};

// The slot implements the forward interface of its socket itself (rather than through simple_target_socket
// callbacks): register accesses are the hottest path of a simulation.
class FpgaSlot : public sc_core::sc_module, public StatisticsSource, private tlm::tlm_fw_transport_if<> {
 public:
  // StatisticsSource: its counters (models/statistics.h).
  void statistics(double end_ms, std::vector<StatGroup>& out) const override;
  StatisticsRank statistics_rank() const override { return StatisticsRank::kSlot; }
  tlm::tlm_target_socket<32> target{"target"};

  FpgaSlot(const sc_core::sc_module_name& name, const SlotParams& params);

  // A core this slot can host, identified by the core id written in its bitstream (elaboration only).
  void add_candidate(std::uint32_t core_id, std::unique_ptr<IpCore> core);
  // Configures `core_id` at time zero without a configuration port (static slots, boot images).
  void preload(std::uint32_t core_id);

  // Configuration interface used by the ConfigPort. begin() fails while the hosted core computes, or when the
  // slot is static; words are fed as the port receives them.
  bool begin_configuration(const sc_core::sc_time& at, std::string* why);
  // `n_words` little-endian 32-bit words as they travel on the bus.
  void configuration_words(const std::uint8_t* bytes, std::size_t n_words, const sc_core::sc_time& at);
  void abort_configuration(const sc_core::sc_time& at);
  bool configuration_failed() const { return failed_; }
  const std::string& configuration_error() const { return error_; }

  // A scrub that ends at `at` repairs an upset that happened before; returns whether there was one.
  bool repair(const sc_core::sc_time& at);
  bool upset_by(const sc_core::sc_time& at) const { return active_ && upset_at_ <= at; }
  sc_core::sc_time next_upset() const { return upset_at_; }  // of the configured core (max: none)
  std::uint64_t configured_bits() const;            // of the core it holds (0: none, or no upsets injected)
  std::uint64_t upsets() const { return upsets_; }  // ended upsets (repaired or configured over)
  std::uint64_t hangs() const { return hangs_ ? hangs_->faults() : 0; }

  SlotState state_at(const sc_core::sc_time& t) const;
  IpCore* core() const { return active_; }  // nullptr unless ready/busy
  bool hosts(std::uint32_t core_id) const { return active_ && active_id_ == core_id; }
  const SlotParams& params() const { return params_; }
  std::uint64_t configurations() const { return configurations_; }
  std::uint64_t rejected_accesses() const { return rejected_; }
  sc_core::sc_time core_busy_time() const;
  // Register accesses of its cores (IpCore::words_written, words_read, status_reads), summed.
  std::uint64_t core_words_written() const;
  std::uint64_t core_words_read() const;
  std::uint64_t core_status_reads() const;
  double static_power_mw() const { return params_.static_mw.value_or(0.0); }
  double core_energy_nj() const;  // what its cores spent computing
  // Reports configurations and the work of the cores it hosts to `sink` on `lane` (null: none). A core
  // configured at boot is reported as a configuration that ended at the kernel's time.
  void set_activity(ActivitySink* sink, Lane lane);

 private:
  // tlm_fw_transport_if. Loosely timed: a non-blocking request completes at once (as b_transport); no DMI.
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) override;

  // A counter of every core it can host, summed.
  std::uint64_t sum_over_cores(std::uint64_t (IpCore::*count)() const) const;

  SlotParams params_;
  std::map<std::uint32_t, std::unique_ptr<IpCore>> candidates_;
  IpCore* active_ = nullptr;
  std::uint32_t active_id_ = 0;
  bool configuring_ = false;
  bool failed_ = false;
  std::string error_;
  std::unique_ptr<BitstreamSink> sink_;
  std::uint64_t configurations_ = 0, rejected_ = 0;
  ActivityReport activity_;  // where it reports its activity (set_activity)

  // The configuration at `at` begins to hold: its next upset is drawn.
  void arm_upset(const sc_core::sc_time& at);
  // The configuration stops holding at `at` (repaired or configured over): an upset before ends there.
  void end_upset(const sc_core::sc_time& at);
  std::unique_ptr<FaultStream> hangs_;         // null: no hangs
  std::unique_ptr<UpsetParams> upset_params_;  // null: no upsets
  std::mt19937_64 upset_rng_;
  sc_core::sc_time upset_at_ = sc_core::sc_max_time();  // the configured core's next upset
  std::uint64_t upsets_ = 0;
  sc_core::sc_time corrupted_{sc_core::SC_ZERO_TIME};  // time cores spent upset, ended upsets
};

}  // namespace rsoc::models
