#pragma once
// FmcBus: an FMC-like external memory bus of 32-bit words between the CPU and the FPGA, with the CPU-side
// software that drives it (NWAIT polled as a GPIO, double reads, byte swapping) folded into its cost.
// Timing contract, per word: the bus phases cost (addr_setup + data + hold) bus cycles in asynchronous mode,
// sync_latency_cycles in synchronous mode, then the target's NWAIT time (its annotated latency, rounded up
// to bus cycles). With nwait polled (the controller does not wait for NWAIT) the CPU polls it as a GPIO after
// the access every poll_cycles CPU cycles: polls = ceil(nwait / poll) + 1 (the last one sees NWAIT
// released), each costing poll_cycles; more than max_polls fails the access. With nwait in hardware the
// controller waits: no polls. With double_read a read is done twice, each followed by its polls. The CPU's
// driver software costs write_software_cycles per word written, read_software_cycles per word read and
// byteswap_cycles per word for swapping its bytes (0: in hardware). Timelines: every word's booked bus
// interval (phases and NWAIT, not the CPU's polls) goes to an attached ActivitySink. PIO recordings
// (models/pio_replay.h) through this bus are refused: the CPU's NWAIT polling is per word. Energy
// (models/energy.h): each bus cycle (a double read is two) costs pj_per_word, paid by the payload's account.

#include <systemc>

#include "models/name_table.h"
#include "models/resource_calendar.h"
#include "models/routing_bus.h"
#include "models/statistics.h"

namespace rsoc::models {

enum class FmcMode { kAsync, kSync };
inline constexpr NameTable<FmcMode, 2> kFmcModeNames{
    {{{FmcMode::kAsync, "async"}, {FmcMode::kSync, "sync"}}}};
enum class FmcNwait { kPolled, kHardware };
inline constexpr NameTable<FmcNwait, 2> kFmcNwaitNames{
    {{{FmcNwait::kPolled, "polled"}, {FmcNwait::kHardware, "hardware"}}}};
enum class FmcTiming { kBurst, kWordByWord };
inline constexpr NameTable<FmcTiming, 2> kFmcTimingNames{
    {{{FmcTiming::kBurst, "burst"}, {FmcTiming::kWordByWord, "word"}}}};

struct FmcBusParams {
  sc_core::sc_time clock_period{10, sc_core::SC_NS};
  sc_core::sc_time cpu_clock_period{10, sc_core::SC_NS};  // the CPU's (the scenario sets it from the CPU)
  FmcMode mode = FmcMode::kAsync;
  unsigned addr_setup_cycles = 1;
  unsigned data_cycles = 2;
  unsigned hold_cycles = 1;
  unsigned sync_latency_cycles = 9;
  FmcNwait nwait = FmcNwait::kPolled;
  unsigned poll_cycles = 10;  // CPU cycles per NWAIT GPIO poll
  unsigned max_polls = 10;    // polls before the access fails
  bool double_read = false;
  unsigned byteswap_cycles = 0;  // CPU cycles per word for software byte swapping (0: done in hardware)
  unsigned write_software_cycles = 0, read_software_cycles = 0;  // the CPU's driver per word, polls apart
  // kBurst: a burst of words is one transaction with one annotated delay (no wait);
  // kWordByWord: every word is synchronised with wait(), so other processes can interleave. Same times.
  FmcTiming timing = FmcTiming::kBurst;
  std::optional<FaultStream> faults =
      std::nullopt;  // injected bus faults (models/routing_bus.h); none when absent
  std::optional<double> energy_pj_per_word =
      std::nullopt;  // per word carried (models/energy.h); none: no energy

  // The timing of one word, shared by the model and the estimate (platform/estimate.cpp).
  // Bus cycles of an access's phases before NWAIT: address setup, data and hold, or the synchronous latency.
  unsigned phase_cycles() const {
    return mode == FmcMode::kAsync ? addr_setup_cycles + data_cycles + hold_cycles : sync_latency_cycles;
  }
  // Bus accesses of a word: a read twice with double_read.
  unsigned accesses_per_word(bool read) const { return read && double_read ? 2 : 1; }
  // CPU cycles of the driver's routine around a word (its byte swap apart).
  unsigned software_cycles(bool read) const { return read ? read_software_cycles : write_software_cycles; }
  // NWAIT polls for a target that holds NWAIT `nwait_cycles` bus cycles: one right after the access, then one
  // every poll until it reads released (max_polls apart).
  std::uint64_t nwait_polls(std::uint64_t nwait_cycles) const {
    const std::uint64_t poll = cpu_clock_period.value() * poll_cycles,
                        wait = clock_period.value() * nwait_cycles;
    return 1 + (wait > 0 && poll > 0 ? (wait + poll - 1) / poll : 0);
  }
};

class FmcBus : public RoutingBus, public StatisticsSource {
 public:
  // StatisticsSource: its counters (models/statistics.h).
  void statistics(double end_ms, std::vector<StatGroup>& out) const override;
  StatisticsRank statistics_rank() const override { return StatisticsRank::kFmcBus; }
  FmcBus(const sc_core::sc_module_name& name, const FmcBusParams& params);

  const FmcBusParams& params() const { return params_; }
  const ResourceCalendar& calendar() const { return calendar_; }
  std::uint64_t words_read() const { return words_read_; }
  std::uint64_t words_written() const { return words_written_; }
  std::uint64_t bus_reads() const { return bus_reads_; }  // counts the double reads
  std::uint64_t polls() const { return polls_; }
  std::uint64_t failed_words() const { return failed_; }
  sc_core::sc_time poll_time() const { return poll_time_; }
  sc_core::sc_time byteswap_time() const { return swap_time_; }

 protected:
  void transport(tlm::tlm_generic_payload& trans, const AddressRange& range,
                 sc_core::sc_time& delay) override;

 private:
  // One bus access of one word (the target is called); returns false when NWAIT never released.
  bool access_word(tlm::tlm_generic_payload& word, const AddressRange& range, sc_core::sc_time& delay);

  FmcBusParams params_;
  // Fixed per word, from the parameters: the address/data phases (cycles, time), one NWAIT poll, a swap.
  unsigned phase_cycles_;
  sc_core::sc_time phase_time_, poll_time_each_, swap_time_each_, write_software_, read_software_;
  // What an NWAIT of `cycles` bus cycles costs a word (the last one seen: polling a register repeats it).
  struct NwaitCost {
    std::uint64_t cycles = ~std::uint64_t{0};
    sc_core::sc_time bus_time{sc_core::SC_ZERO_TIME}, polling{sc_core::SC_ZERO_TIME};
    std::uint64_t polls = 0;
  } nwait_;
  const NwaitCost& nwait_cost(std::uint64_t cycles);
  ResourceCalendar calendar_;
  std::uint64_t words_read_ = 0, words_written_ = 0, bus_reads_ = 0, polls_ = 0, failed_ = 0;
  sc_core::sc_time poll_time_{sc_core::SC_ZERO_TIME};
  sc_core::sc_time swap_time_{sc_core::SC_ZERO_TIME};
};

}  // namespace rsoc::models
