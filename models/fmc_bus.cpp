#include "models/fmc_bus.h"

#include <algorithm>

#include "models/kernel_time.h"
#include "models/pio_replay.h"

namespace rsoc::models {

using sc_core::sc_time;

FmcBus::FmcBus(const sc_core::sc_module_name& name, const FmcBusParams& params)
    : RoutingBus(name, params.faults, params.energy_pj_per_word),
      params_(params),
      phase_cycles_(params.phase_cycles()),
      phase_time_(params.clock_period * phase_cycles_),
      poll_time_each_(periods(params.cpu_clock_period, params.poll_cycles, "an NWAIT poll")),
      swap_time_each_(periods(params.cpu_clock_period, params.byteswap_cycles, "a byte swap")),
      write_software_(periods(params.cpu_clock_period, params.software_cycles(false), "a word's software")),
      read_software_(periods(params.cpu_clock_period, params.software_cycles(true), "a word's software")) {}

const FmcBus::NwaitCost& FmcBus::nwait_cost(std::uint64_t cycles) {
  if (cycles == nwait_.cycles) return nwait_;
  NwaitCost c;
  c.cycles = cycles;
  c.bus_time = whole_periods(params_.clock_period, phase_cycles_ + cycles, "an FMC access");
  // The CPU polls NWAIT as a GPIO: one poll right after the access, then until it reads released.
  c.polls = params_.nwait_polls(cycles);
  c.polling = whole_periods(poll_time_each_, std::min<std::uint64_t>(c.polls, params_.max_polls), "NWAIT polling");
  nwait_ = c;
  return nwait_;
}

bool FmcBus::access_word(tlm::tlm_generic_payload& word, const AddressRange& range, sc_time& delay) {
  const sc_time now = kernel_time();
  // The target sees the access at the end of the address/data phases and annotates its NWAIT time, rounded up
  // to bus cycles. Integer arithmetic throughout: every access of every word comes here.
  const sc_time arrival = now + delay;
  sc_time target_delay = delay + phase_time_;
  const sc_time before = target_delay;
  word.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  forward(word, range, target_delay);
  const NwaitCost& cost = nwait_cost(
      target_delay > before ? periods_covering(target_delay - before, params_.clock_period) : 0);
  const sc_time bus_time = cost.bus_time;
  const sc_time start = calendar_.reserve(arrival, bus_time, now);
  delay = start + bus_time - now;
  if (observed()) report_transfer(word, start, start + bus_time, 1, now);
  if (params_.nwait == FmcNwait::kHardware) return true;

  std::uint64_t polls = cost.polls;
  sc_time polling = cost.polling;
  if (faulty() && fault(start)) {  // NWAIT never clears
    polls = params_.max_polls + 1;
    polling = whole_periods(poll_time_each_, params_.max_polls, "NWAIT polling");
  }
  const bool ok = polls <= params_.max_polls;
  polls_ += std::min<std::uint64_t>(polls, params_.max_polls);
  poll_time_ += polling;
  delay += polling;
  return ok;
}

void FmcBus::transport(tlm::tlm_generic_payload& trans, const AddressRange& range, sc_time& delay) {
  if (PioReplayExtension* pio = pio_of(trans)) {  // the CPU polls NWAIT per word: no replay
    if (pio->replaying) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    pio->recording->refuse();
  }
  if (trans.get_data_length() % 4 != 0 || trans.get_address() % 4 != 0) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);  // the FMC moves whole aligned 32-bit words
    return;
  }
  const bool read = trans.is_read();
  const std::uint64_t n = words_of(trans);
  const std::uint64_t base = trans.get_address();
  unsigned char* data = trans.get_data_ptr();
  const unsigned length = trans.get_data_length();
  const unsigned streaming_width = trans.get_streaming_width();
  const sc_time& swap = swap_time_each_;
  const int reads_per_word = static_cast<int>(params_.accesses_per_word(read));
  const sc_time& software = read ? read_software_ : write_software_;

  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  for (std::uint64_t i = 0; i < n && status == tlm::TLM_OK_RESPONSE; ++i) {
    trans.set_address(base + (streaming_width != 0 ? (4 * i) % streaming_width : 4 * i));  // FIFO: repeats
    trans.set_data_ptr(data + 4 * i);
    for (int r = 0; r < reads_per_word && status == tlm::TLM_OK_RESPONSE; ++r) {
      if (!access_word(trans, range, delay)) {
        ++failed_;
        status = tlm::TLM_GENERIC_ERROR_RESPONSE;
      } else {
        status = trans.get_response_status();
      }
      if (read) ++bus_reads_;
    }
    (read ? words_read_ : words_written_) += 1;
    spend(trans, read ? reads_per_word : 1);  // every bus cycle: a double read is two
    delay += software;                        // the driver's calls and loop around the word
    if (status == tlm::TLM_OK_RESPONSE) {     // software swaps the bytes of a word it got
      delay += swap;
      swap_time_ += swap;
    }
    if (params_.timing == FmcTiming::kWordByWord) {
      sc_core::wait(delay);
      delay = sc_core::SC_ZERO_TIME;
    }
  }
  trans.set_address(base);
  trans.set_data_ptr(data);
  trans.set_data_length(length);
  trans.set_streaming_width(streaming_width);
  trans.set_response_status(status);
}

void FmcBus::statistics(double end_ms, std::vector<StatGroup>& out) const {
  StatGroup g{std::string("bus.") + basename(), "fmc_bus", {}};
  g.add_busy(to_ms(calendar().busy_time()), end_ms, "time the FMC carried words (phases and NWAIT)")
      .add("words_read", static_cast<double>(words_read()), "words", "words read by software")
      .add("words_written", static_cast<double>(words_written()), "words", "words written")
      .add("bus_reads", static_cast<double>(bus_reads()), "count",
           "read cycles on the bus (double reads count twice)")
      .add("polls", static_cast<double>(polls()), "count", "NWAIT GPIO polls by the CPU")
      .add("poll_ms", to_ms(poll_time()), "ms", "CPU time spent polling NWAIT")
      .add("byteswap_ms", to_ms(byteswap_time()), "ms", "CPU time spent swapping bytes")
      .add("failed_words", static_cast<double>(failed_words()), "count", "words that exceeded max_polls");
  if (faulty())
    g.add("injected_errors", static_cast<double>(injected_errors()), "count",
          "accesses whose NWAIT an injected fault kept from clearing (scenario section faults)");
  add_energy(g, energy(), "energy of the bus cycles it carried (a double read is two)");
  out.push_back(g);
}
}  // namespace rsoc::models
