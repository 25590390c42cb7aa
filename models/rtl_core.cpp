#include "models/rtl_core.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "models/address_map.h"
#include "models/core_kinds.h"
#include "models/kernel_time.h"
#include "models/pio_replay.h"

namespace rsoc::models {

using sc_core::sc_time;

RtlCore::RtlCore(std::string name, const CoreParams& params)
    : IpCore(std::move(name), params, true), design_(params.rtl), period_ps_(to_ps(params.clock_period)) {
  if (!design_ || !design_->create || !design_->destroy || !design_->edge)
    throw std::invalid_argument("RTL core " + this->name() + ": no design loaded");
  if (period_ps_ == 0) throw std::invalid_argument("RTL core " + this->name() + ": a clock period of zero");
  if (params.kind == CoreKind::kCustom) {
    block_words_ = std::max(1u, params.custom.input_bytes / 4);
    result_words_ = std::max(1u, params.custom.output_bytes / 4);
  } else {
    const FunctionalityInfo& f = core_kind(params.kind).functionalities[0];
    block_words_ = std::max(1u, f.block_bytes / 4);
    result_words_ = std::max(1u, f.output_bytes() / 4);
  }
  model_ = design_->create();
  if (!model_)
    throw std::runtime_error("RTL core " + this->name() + ": its design " + design_->name + " made no model");
  on_reset();
}

RtlCore::~RtlCore() {
  design_->destroy(model_);
}

sc_time RtlCore::edge_time(std::uint64_t edge) const {
  return whole_periods(params().clock_period, edge, "an RTL core's clock edge");
}

void RtlCore::step() const {
  const bool was_busy = port_.busy != 0;
  design_->edge(model_, &port_);
  ++edge_;
  ++evaluated_;
  if (was_busy) ++busy_cycles_;
  if (port_.out_taken) {
    given_.emplace_back(port_.out_word, edge_);
    const bool last = ++given_of_result_ == result_words_;
    if (last != (port_.out_word_last != 0)) ++misplaced_lasts_;
    if (last) given_of_result_ = 0;
  }
  const bool busy = port_.busy != 0;
  if (busy && !was_busy) {
    busy_from_ = edge_;
    busy_payer_ = payer();
  } else if (was_busy && !busy) {
    self()->book_work("rtl", edge_time(busy_from_), edge_time(edge_), edge_ - busy_from_, busy_payer_);
  }
}

void RtlCore::catch_up(std::uint64_t last) const {
  port_.req_valid = 0;
  port_.in_valid = 0;
  while (edge_ < last && working()) step();
  if (edge_ < last) edge_ = last;
}

bool RtlCore::port_busy_at(const sc_time& t) const {
  catch_up(to_ps(t) / period_ps_);
  return port_.busy != 0;
}

bool RtlCore::word_access(bool write, std::uint32_t address, std::uint32_t& word) {
  port_.req_valid = 1;
  port_.req_write = write;
  port_.req_addr = address;
  port_.req_wdata = write ? word : 0;
  std::uint64_t waited = 0;
  do {
    if (waited++ == kAnswerCycles) return false;
    step();
  } while (!port_.taken);
  port_.req_valid = 0;
  if (write) return true;
  while (!port_.resp_valid) {
    if (waited++ == kAnswerCycles) return false;
    step();
  }
  word = port_.resp_rdata;
  return true;
}

void RtlCore::port_access(tlm::tlm_generic_payload& trans, const sc_time& at, sc_time& latency) {
  if (PioReplayExtension* pio = pio_of(trans)) {
    if (pio->replaying) {  // (a recording through the core was refused, so no replay comes)
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    pio->recording->refuse();
  }
  const std::uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  if (address >= reg::kStreamIn && design_->stream) return stream_access(trans, at, latency);
  if (address >= reg::kStreamIn || length == 0 || length % 4 || address % 4 ||
      address + length > reg::kStreamIn || trans.get_byte_enable_ptr()) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  // The edges before the first that can take the access: those strictly after `at`.
  catch_up(to_ps(at) / period_ps_);
  unsigned char* data = trans.get_data_ptr();
  const bool write = trans.is_write();
  const unsigned words = length / 4;
  count_access(write, address, words);
  for (unsigned i = 0; i < words; ++i) {
    std::uint32_t word = 0;
    if (write) std::memcpy(&word, data + 4 * i, 4);
    if (!word_access(write, static_cast<std::uint32_t>(address + 4 * i), word)) {
      port_.req_valid = 0;
      trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      return;
    }
    if (!write) std::memcpy(data + 4 * i, &word, 4);
  }
  latency += edge_time(edge_) - at;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void RtlCore::stream_access(tlm::tlm_generic_payload& trans, const sc_time& at, sc_time& latency) {
  if (!stream_window_access(trans) || trans.get_byte_enable_ptr()) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  catch_up(to_ps(at) / period_ps_);  // (the edges strictly after `at` take the access)
  const unsigned words = trans.get_data_length() / 4;
  unsigned char* data = trans.get_data_ptr();
  const sc_time word_cycles = periods(params().clock_period, words, "a core stream access");
  if (trans.is_write()) {
    for (unsigned i = 0; i < words; ++i) {
      port_.in_valid = 1;
      std::memcpy(&port_.in_data, data + 4 * i, 4);
      port_.in_last = offered_ + 1 == block_words_;
      std::uint64_t waited = 0;
      do {
        if (waited++ == kAnswerCycles) {
          port_.in_valid = 0;
          trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
          return;
        }
        step();
      } while (!port_.in_taken);
      offered_ = port_.in_last ? 0 : offered_ + 1;
    }
    port_.in_valid = 0;
    occupy(trans, at, at, word_cycles, edge_time(edge_) - at, latency);
  } else {
    for (std::uint64_t waited = 0; given_.size() < words; ++waited) {
      if (!working()) {  // idle: no more words come
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
      }
      if (waited == kAnswerCycles) {
        trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        return;
      }
      step();
    }
    occupy(trans, at, edge_time(given_[words - 1].second), sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME,
           latency);
    for (unsigned i = 0; i < words; ++i) {
      std::memcpy(data + 4 * i, &given_.front().first, 4);
      given_.pop_front();
    }
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void RtlCore::on_reset() {
  port_ = RtlPort{};
  port_.rst = 1;
  design_->edge(model_, &port_);
  port_.rst = 0;
  port_.taken = port_.in_taken = port_.out_taken = 0;
  port_.out_ready = design_->stream;  // (the reset edge took no word)
  given_.clear();
  offered_ = given_of_result_ = 0;
}

std::unique_ptr<IpCore> make_rtl_core(std::string name, const CoreParams& params) {
  return std::make_unique<RtlCore>(std::move(name), params);
}

namespace {

// A field's words in bank order (word 0 holds the most significant bytes unless lsw_first), from `bytes`, and
// the bytes of such words.
std::vector<std::uint32_t> words_of(const BankField& field, const Bytes& bytes) {
  std::vector<std::uint32_t> words(field.bytes / 4);
  for (unsigned i = 0; i < words.size(); ++i) {
    const unsigned at = field.byte_offset + (field.lsw_first ? field.bytes - 4 * (i + 1) : 4 * i);
    words[i] = static_cast<std::uint32_t>(bytes[at]) << 24 | static_cast<std::uint32_t>(bytes[at + 1]) << 16 |
               static_cast<std::uint32_t>(bytes[at + 2]) << 8 | bytes[at + 3];
  }
  return words;
}
Bytes bytes_of(const BankField& field, const std::vector<std::uint32_t>& words) {
  Bytes bytes(field.bytes);
  for (unsigned i = 0; i < field.bytes / 4; ++i) {
    const unsigned at = field.byte_offset + (field.lsw_first ? field.bytes - 4 * (i + 1) : 4 * i);
    for (unsigned b = 0; b < 4; ++b) bytes[at + b] = static_cast<std::uint8_t>(words[i] >> (24 - 8 * b));
  }
  return bytes;
}

// A fresh instance of a design driven untimed, one access after the other from time zero.
class Probe {
 public:
  explicit Probe(const CoreParams& params) : core_("probe", params), period_(params.clock_period) {}

  // Core cycles from `since` to now (whole cycles covering it).
  std::uint64_t cycles_since(const sc_time& since) const { return periods_covering(now_ - since, period_); }
  sc_time now() const { return now_; }
  const RtlCore& core() const { return core_; }

  std::uint32_t access(bool write, std::uint32_t address, std::uint32_t word) {
    if (transact(write, address, &word, 1) != tlm::TLM_OK_RESPONSE)
      throw std::runtime_error("the design did not answer a " + std::string(write ? "write" : "read") +
                               " of register " + hex(address) + " within " +
                               std::to_string(RtlCore::kAnswerCycles) + " cycles");
    return word;
  }
  void write_field(const BankField& field, const Bytes& bytes) {
    const std::vector<std::uint32_t> words = words_of(field, bytes);
    for (unsigned i = 0; i < words.size(); ++i) access(true, field.offset + 4 * i, words[i]);
  }
  std::vector<std::uint32_t> read_field(const BankField& field) {
    std::vector<std::uint32_t> words(field.bytes / 4);
    for (unsigned i = 0; i < words.size(); ++i) words[i] = access(false, field.offset + 4 * i, 0);
    return words;
  }
  // Starts an operation and polls STATUS back to back until its `ready` bits are set; returns the cycles from
  // the end of the command to the end of the first read that shows them (what a behavioural core's cycles
  // are: a status read that ends at or after the operation's end sees it done).
  std::uint64_t operate(std::uint32_t command, std::uint32_t ready, const char* what) {
    access(true, reg::kCtrl, command);
    const sc_time issued = now_;
    for (std::uint64_t polls = 0; (access(false, reg::kStatus, 0) & ready) != ready; ++polls)
      if (polls == RtlCore::kAnswerCycles)
        throw std::runtime_error(std::string("STATUS never showed ") + what + " after CTRL." +
                                 (command == reg::kCtrlInit ? "INIT" : "NEXT"));
    return cycles_since(issued);
  }
  // Moves `words` through the stream port: a write to STREAM_IN or a read from STREAM_OUT.
  void stream(bool write, std::vector<std::uint32_t>& words) {
    const auto status = transact(write, write ? reg::kStreamIn : reg::kStreamOut, words.data(), words.size());
    if (status == tlm::TLM_BURST_ERROR_RESPONSE)
      throw std::runtime_error(
          "its stream port gave fewer than the " + std::to_string(words.size()) +
          " words of the results of what it took, and fell idle (busy and out_valid low)");
    if (status != tlm::TLM_OK_RESPONSE)
      throw std::runtime_error(std::string("its stream port did not ") +
                               (write ? "take the words of a block" : "give the words of a result") +
                               " within " + std::to_string(RtlCore::kAnswerCycles) + " cycles");
  }

 private:
  tlm::tlm_response_status transact(bool write, std::uint32_t address, std::uint32_t* words, std::size_t n) {
    trans_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans_.set_address(address);
    trans_.set_data_ptr(reinterpret_cast<unsigned char*>(words));
    trans_.set_data_length(static_cast<unsigned>(4 * n));
    trans_.set_streaming_width(static_cast<unsigned>(4 * n));
    trans_.set_byte_enable_ptr(nullptr);
    trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time latency = sc_core::SC_ZERO_TIME;
    core_.access(trans_, now_, latency);
    if (trans_.is_response_ok()) now_ += latency;
    return trans_.get_response_status();
  }

  RtlCore core_;
  sc_time period_;
  sc_time now_ = sc_core::SC_ZERO_TIME;
  tlm::tlm_generic_payload trans_;
};

// Through the stream port: one block, then two at once (the interval at which the design takes blocks); the
// result of the first block into `result`.
void measure_stream(Probe& probe, const CoreInterface& c, const Bytes& block, RtlCycles& cycles,
                    std::vector<std::uint32_t>& result) {
  const std::vector<std::uint32_t> in = words_of(c.block, block);
  auto through = [&](unsigned blocks) {
    std::vector<std::uint32_t> words, results(blocks * result.size());
    for (unsigned b = 0; b < blocks; ++b) words.insert(words.end(), in.begin(), in.end());
    const sc_time start = probe.now();
    probe.stream(true, words);
    probe.stream(false, results);
    std::copy(results.begin(), results.begin() + result.size(), result.begin());
    return probe.cycles_since(start);
  };
  cycles.block = through(1);
  const std::uint64_t two = through(2);
  cycles.interval = two - cycles.block < cycles.block ? two - cycles.block : 0;
  if (probe.core().misplaced_lasts())
    throw std::runtime_error("its stream port's out_last was not high on the last word of each result (" +
                             std::to_string(result.size()) + " words) and low on the others");
}

}  // namespace

RtlCycles measure_rtl_cycles(const CoreParams& params, const FunctionalityInfo& f) {
  // The request: a key and a block of fixed bytes, shaped as the kind needs them.
  const CoreKindEntry& kind = core_kind(f.core);
  Bytes key(f.key_bytes), block(f.block_bytes);
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(0x5a + 7 * i);
  for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<std::uint8_t>(0x3c + 11 * i);
  if (kind.shape_key) kind.shape_key(f, key);
  if (kind.shape_data) kind.shape_data(f, block);
  const CoreInterface c = kind.interface(f, true, key);
  Probe probe(params);
  RtlCycles cycles;
  // A register read, then the set-up as the driver does it.
  probe.access(false, reg::kStatus, 0);
  cycles.access = probe.cycles_since(sc_core::SC_ZERO_TIME);
  for (const BankField& field : c.key) probe.write_field(field, key);
  for (const auto& [address, value] : c.setup) probe.access(true, address, value);
  cycles.init = probe.operate(reg::kCtrlInit, reg::kStatusReady, "READY");
  // A block, through the port the data takes.
  std::vector<std::uint32_t> result(c.result.bytes / 4);
  if (params.rtl->stream) {
    measure_stream(probe, c, block, cycles, result);
  } else {
    probe.write_field(c.block, block);
    cycles.block = probe.operate(reg::kCtrlNext, reg::kStatusReady | reg::kStatusValid, "READY and VALID");
    result = probe.read_field(c.result);
  }
  // Its result, against the reference: a design that computes something else (another register map, another
  // block size) is told at load rather than by every request.
  if (f.computes && !f.computes->checked) return cycles;
  if (bytes_of(c.result, result) != kind.reference(f, key, block, true))
    throw std::runtime_error("its result of one block (" + std::to_string(f.block_bytes) +
                             " bytes) is not the reference's: is the design " + f.name + " of " +
                             std::to_string(f.block_bytes) + "-byte blocks, with the kind's register map?");
  return cycles;
}

}  // namespace rsoc::models
