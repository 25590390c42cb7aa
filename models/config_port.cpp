#include "models/config_port.h"

#include <algorithm>
#include <cstring>

#include "models/kernel_time.h"
#include "models/routing_bus.h"
#include "models/stream.h"

namespace rsoc::models {

using sc_core::sc_time;

ConfigPort::ConfigPort(const sc_core::sc_module_name& name, const ConfigPortParams& params,
                       std::vector<FpgaSlot*> slots)
    : sc_module(name), params_(params), slots_(std::move(slots)) {
  if (params.faults) faults_ = std::make_unique<ConfigurationFaults>(*params.faults);
  if (params.energy_nj_per_word) {
    energy_.enable();
    nj_per_word_ = *params.energy_nj_per_word;
  }
  target.register_b_transport(this, &ConfigPort::b_transport);
  target.register_transport_dbg(this, &ConfigPort::transport_dbg);
  ctrl_reg_ =
      regs_.add({"CTRL", port_reg::kCtrl, 1, RegAccess::kReadWrite, 0}, nullptr,
                [this](std::uint32_t, std::uint32_t value, const sc_time& at) { control(value, at); });
  status_reg_ = regs_.add({"STATUS", port_reg::kStatus, 1, RegAccess::kReadOnly, 0});
  words_reg_ = regs_.add({"WORDS", port_reg::kWords, 1, RegAccess::kReadOnly, 0});
  error_code_reg_ = regs_.add({"ERROR_CODE", port_reg::kErrorCode, 1, RegAccess::kReadOnly, 0});
}

void ConfigPort::control(std::uint32_t value, const sc_time& at) {
  regs_.at(ctrl_reg_) = 0;
  if (value & port_reg::kCtrlAbort) {
    if (slot_) slot_->abort_configuration(at);
    finish(at);
    return;
  }
  if (!(value & port_reg::kCtrlStart)) return;
  const std::uint32_t index = value & port_reg::kCtrlSlotMask;
  if (session_ >= 0 || index >= slots_.size()) {
    refused_start_ = true;
    return;
  }
  records_.push_back(ReconfigurationRecord{slots_[index]->basename(), 0, at, at, 0, false, ""});
  std::string why;
  if (!slots_[index]->begin_configuration(at, &why)) {
    records_.back().error = why;
    regs_.at(status_reg_) = port_reg::kStatusDone | port_reg::kStatusError;
    regs_.at(error_code_reg_) = 1;
    return;
  }
  session_ = static_cast<long>(records_.size()) - 1;
  slot_ = slots_[index];
  flip_word_.reset();
  if (faults_ && index < faults_->per_configuration.size() && faults_->per_configuration[index].chance(at))
    flip_word_ = kBitstreamHeaderWords;
  regs_.at(status_reg_) = port_reg::kStatusBusy;
  regs_.at(words_reg_) = 0;
  regs_.at(error_code_reg_) = 0;
}

void ConfigPort::finish(const sc_time& at) {
  ReconfigurationRecord* record = session();
  if (!record) return;
  record->end = at;
  record->ok = !slot_->configuration_failed() && slot_->core() != nullptr;
  record->error = slot_->configuration_error();
  regs_.at(status_reg_) = port_reg::kStatusDone | (record->ok ? 0 : port_reg::kStatusError);
  regs_.at(error_code_reg_) = record->ok ? 0 : 2;
  if (activity_)
    activity_->port_configuration(activity_.lane, record->slot, to_ps(record->start), to_ps(at),
                                  record->words, record->ok);
  session_ = -1;
  slot_ = nullptr;
}

void ConfigPort::data(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const unsigned length = trans.get_data_length();
  const unsigned span = std::min(length, trans.get_streaming_width());  // a streaming burst repeats one word
  if (!trans.is_write() || trans.get_address() + span > port_reg::kData + port_reg::kDataBytes ||
      length % 4 != 0 || trans.get_address() % 4 != 0) {
    trans.set_response_status(trans.is_write() ? tlm::TLM_BURST_ERROR_RESPONSE
                                               : tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  const std::uint64_t words = length / 4;
  const sc_time now = kernel_time();
  const sc_time arrival = now + delay;
  const sc_time occupancy =
      periods(word_time(), static_cast<double>(words), "configuration words on the port");
  const sc_time start = calendar_.reserve(arrival, occupancy, now);
  sc_time end = start + occupancy;
  if (StreamExtension* stream = stream_of(trans)) {
    // The mover has already entered its own and the upstream stages: the chunk ends after the slowest.
    delay += start - arrival;
    stream->add(this, name(), occupancy);
    end = start + stream->slowest();
  } else {
    delay = end - now;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  if (energy_.on()) energy_.spend(static_cast<double>(words) * nj_per_word_, trans);
  ReconfigurationRecord* record = session();
  if (!record) return;  // words with no configuration in progress are dropped
  const std::uint8_t* bytes = trans.get_data_ptr();
  if (faults_) bytes = corrupt(bytes, words, record->words, arrival);
  slot_->configuration_words(bytes, words, end);
  record->words += words;
  regs_.at(words_reg_) = static_cast<std::uint32_t>(record->words);
  if (slot_->configuration_failed() || slot_->core() != nullptr) finish(end);
}

sc_time ConfigPort::occupy(const sc_time& arrival, std::uint64_t words) {
  const sc_time occupancy = periods(word_time(), static_cast<double>(words), "scrubbing words on the port");
  const sc_time start = calendar_.reserve(arrival, occupancy, kernel_time());
  scrub_words_ += words;
  if (energy_.on()) energy_.spend(static_cast<double>(words) * nj_per_word_, nullptr);
  scrub_busy_ += occupancy;
  return start + occupancy;
}

const std::uint8_t* ConfigPort::corrupt(const std::uint8_t* words, std::uint64_t n, std::uint64_t first_word,
                                        const sc_time& at) {
  ReconfigurationRecord& record = *session();
  const std::uint64_t bits = 32 * n;
  const std::uint64_t by_rate = faults_->per_bit.first_fault(bits, at);
  const bool planned = flip_word_ && *flip_word_ >= first_word && *flip_word_ < first_word + n;
  if (by_rate == bits && !planned) return words;
  corrupted_.assign(words, words + 4 * n);
  auto flip = [&](std::uint64_t bit) {  // bit b of the chunk: word b / 32, little-endian bytes
    corrupted_[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    if (record.injected_bits++ == 0) ++injected_errors_;
  };
  if (planned) {
    flip(32 * (*flip_word_ - first_word));
    flip_word_.reset();
  }
  if (by_rate < bits) flip(by_rate);
  return corrupted_.data();
}

void ConfigPort::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  if (trans.get_address() >= port_reg::kData) return data(trans, delay);
  const sc_time cost =
      periods(params_.clock_period, static_cast<double>(params_.access_cycles), "a port register access");
  refused_start_ = false;
  trans.set_response_status(regs_.access(trans, kernel_time() + delay + cost));
  delay += cost;
  if (refused_start_ && trans.get_response_status() == tlm::TLM_OK_RESPONSE)
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
}

void ConfigPort::statistics(double end_ms, std::vector<StatGroup>& out) const {
  double busy = 0, words = 0, ok = 0, failed = 0;
  for (const auto& r : records()) {
    busy += to_ms(r.end - r.start);
    words += static_cast<double>(r.words);
    (r.ok ? ok : failed) += 1;
  }
  StatGroup g{"config_port", "config_port", {}};
  g.add_busy(busy, end_ms, "time from START to the last bitstream word, summed")
      .add("reconfigurations", ok, "count", "configurations completed")
      .add("failed_reconfigurations", failed, "count", "configurations refused or failed")
      .add("words", words, "words", "bitstream words received");
  if (scrub_words_)
    g.add("scrub_ms", to_ms(scrub_busy_), "ms", "time scrubbing took on the port (not in busy_ms)")
        .add("scrub_words", static_cast<double>(scrub_words_), "words", "words scrubbing moved");
  if (faults_)
    g.add("injected_errors", static_cast<double>(injected_errors_), "count",
          "configurations an injected fault corrupted (scenario section faults)");
  add_energy(g, energy_, "its own energy per word taken (bitstreams and scrubbing)");
  out.push_back(g);
}
}  // namespace rsoc::models
