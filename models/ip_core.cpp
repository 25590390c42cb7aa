#include "models/ip_core.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "models/address_map.h"
#include "models/crypto/bytes.h"
#include "models/kernel_time.h"
#include "models/stream.h"

namespace rsoc::models {

using sc_core::sc_time;

IpCore::IpCore(std::string name, const CoreParams& params)
    : name_(std::move(name)),
      params_(params),
      word_access_(
          periods(params.clock_period, static_cast<double>(params.access_cycles), "a core register access")) {
  if (params.energy_pj_per_cycle) {
    energy_.enable();
    nj_per_cycle_ = *params.energy_pj_per_cycle * 1e-3;
  }
  const std::string kind = to_string(params.kind);
  auto word_of = [&](std::size_t i) {
    std::uint32_t w = 0;
    for (std::size_t b = 0; b < 4; ++b)
      w = (w << 8) | static_cast<std::uint8_t>(i + b < kind.size() ? kind[i + b] : ' ');
    return w;
  };
  regs_.add({"NAME0", reg::kName0, 1, RegAccess::kReadOnly, word_of(0)});
  regs_.add({"NAME1", reg::kName1, 1, RegAccess::kReadOnly, word_of(4)});
  regs_.add({"VERSION", reg::kVersion, 1, RegAccess::kReadOnly, 0x00010000});
  ctrl_ = regs_.add({"CTRL", reg::kCtrl, 1, RegAccess::kReadWrite, 0}, nullptr,
                    [this](std::uint32_t, std::uint32_t value, const sc_time& at) { control(value, at); });
  regs_.add({"STATUS", reg::kStatus, 1, RegAccess::kReadOnly, reg::kStatusReady},
            [this](std::uint32_t, const sc_time& at) {
              const bool ready = !busy_at(at);
              return (ready ? reg::kStatusReady : 0u) | (ready && valid_ ? reg::kStatusValid : 0u);
            });
  config_ = regs_.add({"CONFIG", reg::kConfig, 1, RegAccess::kReadWrite, reg::kConfigEncrypt});
  regs_.add({"FIFO_WORDS", reg::kFifoWords, 1, RegAccess::kReadOnly, params.fifo_words});
  regs_.add({"OUT_WORDS", reg::kOutWords, 1, RegAccess::kReadOnly, 0},
            [this](std::uint32_t, const sc_time& at) {
              std::uint32_t ready = 0;
              for (const auto& word : stream_out_) ready += word.second <= at ? 1 : 0;
              return ready;
            });
}

void IpCore::control(std::uint32_t value, const sc_time& at) {
  regs_.at(ctrl_) = 0;  // self-clearing command bits
  if (!(value & (reg::kCtrlInit | reg::kCtrlNext))) return;
  if (busy_at(at) || ((value & reg::kCtrlNext) && !block_)) {
    ++ignored_starts_;
    return;
  }
  if (hangs_at(at)) return;
  std::uint64_t cycles = 0;
  if (value & reg::kCtrlInit) cycles += on_init(at);
  if (value & reg::kCtrlNext) cycles += next(at);
  const sc_time busy = periods(params_.clock_period, static_cast<double>(cycles), "a core's operation");
  done_at_ = at + busy;
  accept_at_ = done_at_;
  static const char* const kOperation[] = {"", "init", "block", "init, block"};  // by CTRL.NEXT, CTRL.INIT
  static_assert(reg::kCtrlInit == 1 && reg::kCtrlNext == 2);
  book_work(kOperation[value & (reg::kCtrlInit | reg::kCtrlNext)], at, done_at_, cycles, payer_);
}

void IpCore::book_work(const char* what, const sc_time& from, const sc_time& to, std::uint64_t cycles,
                       EnergyAccount* payer) {
  busy_ += to - from;
  if (energy_.on()) energy_.spend(static_cast<double>(cycles) * nj_per_cycle_, payer);
  ++operations_;
  if (activity_ && to != from) activity_->core_work(activity_.lane, what, to_ps(from), to_ps(to));
}

void IpCore::hang(const sc_time& at) {
  hung_ = true;
  done_at_ = accept_at_ = sc_core::sc_max_time();
  stream_in_.clear();  // the blocks it held never come out
  if (activity_) activity_->fault(activity_.lane, "hang", to_ps(at));
}

std::uint64_t IpCore::next(const sc_time& at) {
  scratch_.resize(std::max(block_words(), result_words()));
  std::uint64_t cycles = precomputed_cycles_;
  if (precomputed_)
    std::copy(precomputed_, precomputed_ + result_words(), scratch_.begin());
  else
    cycles = compute(regs_.bank(*block_).data(), scratch_.data());
  upset(at, scratch_.data());
  publish(scratch_.data(), result_words());
  return cycles;
}

void IpCore::occupy(tlm::tlm_generic_payload& trans, const sc_time& at, const sc_time& ready,
                    const sc_time& access, const sc_time& compute, sc_time& latency) {
  const sc_time wait = ready > at ? ready - at : sc_core::SC_ZERO_TIME;
  const sc_time occupancy = std::max(access, compute);
  if (StreamExtension* stream = stream_of(trans)) {
    // The chunk's other stages are on the stream already (the core is its last stage): moving the data takes
    // the slowest of them and the core's access time; computing longer than that is waiting for the core.
    const sc_time moving = std::max(access, stream->slowest());
    stream_wait_ += wait + (compute > moving ? compute - moving : sc_core::SC_ZERO_TIME);
    latency += wait;  // waiting for the core is annotated; its occupancy is its stage of the chunk
    stream->add(this, name_.c_str(), occupancy);
  } else {
    latency += wait + occupancy;
  }
}

bool IpCore::stream_window_access(const tlm::tlm_generic_payload& trans) {
  const std::uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  return length != 0 && length % 4 == 0 && address % 4 == 0 && address >= reg::kStreamIn &&
         address < reg::kStreamOut + reg::kStreamWindowBytes &&
         trans.is_write() == (address < reg::kStreamOut);
}

void IpCore::stream_access(tlm::tlm_generic_payload& trans, const sc_time& at, sc_time& latency) {
  if (!stream_window_access(trans)) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  const std::size_t words = trans.get_data_length() / 4;
  const sc_time access = periods(word_access_, static_cast<double>(words), "a core stream access");
  if (trans.is_write())
    stream_write(trans, at, access, latency);
  else
    stream_read(trans, at, access, latency);
}

void IpCore::stream_read(tlm::tlm_generic_payload& trans, const sc_time& at, const sc_time& access,
                         sc_time& latency) {
  const std::size_t words = trans.get_data_length() / 4;
  unsigned char* data = trans.get_data_ptr();
  if (words > stream_out_.size()) {  // underflow, or results a hang keeps from coming: never answered
    trans.set_response_status(hung_ ? tlm::TLM_INCOMPLETE_RESPONSE : tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  occupy(trans, at, stream_out_[words - 1].second, access, sc_core::SC_ZERO_TIME, latency);
  for (std::size_t i = 0; i < words; ++i) {
    std::memcpy(data + 4 * i, &stream_out_.front().first, 4);
    stream_out_.pop_front();
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void IpCore::stream_write(tlm::tlm_generic_payload& trans, const sc_time& at, const sc_time& access,
                          sc_time& latency) {
  const std::size_t words = trans.get_data_length() / 4;
  unsigned char* data = trans.get_data_ptr();
  if (hung_) {  // the write waits for the core forever
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    return;
  }
  if (stream_in_.size() + stream_out_.size() + words > params_.fifo_words) {  // overflow
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  // Every block this write completes is computed now. Not pipelined, the core takes them one after the
  // other and their results are ready when its occupancy ends; pipelined, a block enters every
  // initiation interval (from when the core can take the next one) and its result is ready its latency after.
  const unsigned block = block_words();
  const std::uint64_t ii = params_.initiation_interval_cycles;
  std::vector<std::uint32_t> out(std::max(block, result_words()));
  std::uint64_t cycles = 0;               // what the blocks occupy the core for
  std::vector<std::uint64_t> latency_of;  // each completed block's cycles
  std::size_t first_result = stream_out_.size();
  const sc_time accepting = ii ? accept_at_ : done_at_;  // (before a hang makes it never)
  for (std::size_t i = 0; i < words; ++i) {
    std::uint32_t w = 0;
    std::memcpy(&w, data + 4 * i, 4);
    stream_in_.push_back(w);
    if (stream_in_.size() < block) continue;
    if (hangs_at(at)) break;  // the block and the rest of the write stay in the core
    const std::uint64_t block_cycles = compute(stream_in_.data(), out.data());
    upset(at, out.data());
    cycles += ii ? ii : block_cycles;
    latency_of.push_back(block_cycles);
    ++operations_;
    stream_in_.clear();
    for (unsigned r = 0; r < result_words(); ++r) stream_out_.emplace_back(out[r], sc_core::SC_ZERO_TIME);
  }
  const sc_time compute_time =
      periods(params_.clock_period, static_cast<double>(cycles), "a core's operation");
  const sc_time start = std::max(at, accepting);
  occupy(trans, at, accepting, access, compute_time, latency);
  const sc_time occupied_until = start + std::max(access, compute_time);
  busy_ += compute_time;
  if (energy_.on()) energy_.spend(static_cast<double>(cycles) * nj_per_cycle_, payer_);
  if (activity_ && compute_time != sc_core::SC_ZERO_TIME)
    activity_->core_work(activity_.lane, "stream", to_ps(start), to_ps(start + compute_time));
  if (hung_) {
    for (std::size_t i = first_result; i < stream_out_.size(); ++i) stream_out_[i].second = occupied_until;
  } else if (!ii) {
    done_at_ = occupied_until;
    for (std::size_t i = first_result; i < stream_out_.size(); ++i) stream_out_[i].second = done_at_;
  } else {
    accept_at_ = occupied_until;
    for (std::size_t k = 0; k < latency_of.size(); ++k) {
      const sc_time ready = start + periods(params_.clock_period, static_cast<double>(k * ii + latency_of[k]),
                                            "a core's operation");
      done_at_ = std::max(done_at_, ready);
      for (unsigned r = 0; r < result_words(); ++r)
        stream_out_[first_result + k * result_words() + r].second = ready;
    }
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void IpCore::pio_access(tlm::tlm_generic_payload& trans, const sc_time& at, sc_time& latency,
                        PioReplayExtension& pio) {
  if (pio.replaying) return replay(trans, pio);
  PioRecording& recording = *pio.recording;
  if (trans.get_address() >= reg::kStreamIn) {  // the streaming windows are not replayed
    recording.refuse();
    return stream_access(trans, at, latency);
  }
  if (hangs_) recording.single();  // a hang drawn in a repetition ends the replay there
  const sc_time before = latency;
  register_access(trans, at, latency);
  PioRecording::Entry e;
  e.owner = this;
  e.at = at + (latency - before);  // when the registers took it
  e.address = trans.get_address();
  e.words = (trans.get_data_length() + 3) / 4;
  e.write = trans.is_write();
  if (e.write && e.words == 1) {
    std::memcpy(&e.value, trans.get_data_ptr(), 4);
  } else if (e.write && (!block_ || !regs_.holds(*block_, e.address))) {
    recording.refuse();  // a burst written elsewhere than the block bank is not kept
  }
  recording.add_target_access(e);
}

void IpCore::replay(tlm::tlm_generic_payload& trans, const PioReplayExtension& pio) {
  const unsigned in = block_words(), out = result_words(), stride = std::max(in, out);
  const std::uint64_t repetitions = pio.repetitions;
  if (!block_ || trans.get_data_length() < std::uint64_t{4} * stride * repetitions) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  unsigned char* data = trans.get_data_ptr();
  // What a repetition does: its words read and written are counted, its writes outside the block bank
  // repeated (the bank takes the payload's words).
  const auto [first, last] = pio.recording->entries_of(this);
  std::uint64_t read = 0, status = 0, written = 0;
  unsigned starts = 0;       // CTRL.NEXT alone
  bool other_set_up = false;  // another write (CTRL.INIT, CONFIG, KEY, ...)
  writes_.clear();
  for (const PioRecording::Entry* e = first; e != last; ++e) {
    if (!e->write) {
      read += e->words;
      status += e->address == reg::kStatus;
      continue;
    }
    written += e->words;
    if (regs_.holds(*block_, e->address)) continue;
    writes_.push_back(e);
    if (e->address == reg::kCtrl && e->value == reg::kCtrlNext)
      ++starts;
    else
      other_set_up = true;
  }
  words_read_ += read * repetitions;
  status_reads_ += status * repetitions;
  words_written_ += written * repetitions;
  // Many repetitions that each start one block with the set-up as it is: their blocks computed at once.
  bool batch = false;
  if (repetitions > 1 && starts == 1 && !other_set_up) {
    batch_in_.resize(repetitions * in);
    batch_out_.resize(repetitions * out);
    for (std::uint64_t j = 0; j < repetitions; ++j)
      std::memcpy(&batch_in_[j * in], data + 4 * stride * j, 4 * in);
    batch = compute_many(batch_in_.data(), batch_out_.data(), repetitions, precomputed_cycles_);
  }
  sc_time shift = pio.shift;
  for (std::uint64_t j = 0; j < repetitions; ++j, shift += pio.period) {
    unsigned char* words = data + 4 * stride * j;
    std::memcpy(regs_.bank(*block_).data(), words, 4 * in);
    if (batch) precomputed_ = &batch_out_[j * out];
    for (const PioRecording::Entry* e : writes_) regs_.write_word(e->address, e->value, e->at + shift);
    precomputed_ = nullptr;
    if (hung_) {  // not what the recording did: its results never come
      trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      return;
    }
    std::memcpy(words, result_.data(), 4 * out);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void IpCore::add_result_bank(const std::string& name, std::uint32_t offset, std::uint32_t words) {
  result_.assign(words, 0);
  previous_result_.assign(words, 0);
  regs_.add({name, offset, words, RegAccess::kReadOnly, 0}, [this](std::uint32_t index, const sc_time& at) {
    return busy_at(at) ? previous_result_[index] : result_[index];
  });
}

void IpCore::publish(const std::uint32_t* values, std::size_t n) {
  previous_result_.swap(result_);
  const std::size_t kept = std::min(n, previous_result_.size());
  std::copy(values, values + kept, result_.begin());
  std::fill(result_.begin() + static_cast<std::ptrdiff_t>(kept), result_.end(), 0);
  valid_ = true;
}

CoreInterface cipher_interface(const FunctionalityInfo& f, std::uint32_t config) {
  CoreInterface c;
  c.key = {{reg::kKey, 0, f.key_bytes, false}};
  c.setup = {{reg::kConfig, config}};
  c.block = {reg::kBlock, 0, f.block_bytes, false};
  c.result = {reg::kResult, 0, f.block_bytes, false};
  return c;
}

void IpCore::words_to_bytes(const std::uint32_t* words, std::size_t n, std::uint8_t* bytes) {
  for (std::size_t i = 0; i < n; ++i) crypto::store_be32(bytes + 4 * i, words[i]);
}

void IpCore::bytes_to_words(const std::uint8_t* bytes, std::size_t n, std::uint32_t* words) {
  for (std::size_t i = 0; i < n; ++i) words[i] = crypto::load_be32(bytes + 4 * i);
}

void IpCore::reset() {
  on_reset();
  regs_.reset();
  std::fill(result_.begin(), result_.end(), 0);
  std::fill(previous_result_.begin(), previous_result_.end(), 0);
  valid_ = false;
  stream_in_.clear();
  stream_out_.clear();
  if (hung_) {
    hung_ = false;
    done_at_ = accept_at_ = sc_core::SC_ZERO_TIME;
  }
}

}  // namespace rsoc::models
