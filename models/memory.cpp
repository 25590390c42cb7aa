#include "models/memory.h"

#include <algorithm>
#include <cstring>

#include "models/kernel_time.h"
#include "models/routing_bus.h"
#include "models/stream.h"

namespace rsoc::models {

Memory::Memory(const sc_core::sc_module_name& name, const MemoryParams& params)
    : sc_module(name), params_(params) {
  if (params.energy) {
    energy_.enable();
    read_nj_ = params.energy->read_nj_per_word;
    write_nj_ = params.energy->write_nj_per_word;
  }
  target.register_b_transport(this, &Memory::b_transport);
  target.register_transport_dbg(this, &Memory::transport_dbg);
}

void Memory::write_bytes(std::uint64_t offset, const std::uint8_t* data, std::size_t length) {
  while (length > 0) {
    const std::uint64_t in_page = offset % kPageBytes;
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(length, kPageBytes - in_page));
    auto& page = pages_[offset / kPageBytes];
    if (!page) page = std::make_unique<std::uint8_t[]>(kPageBytes);  // value-initialised: zeros
    std::memcpy(page.get() + in_page, data, n);
    offset += n;
    data += n;
    length -= n;
  }
}

void Memory::read_bytes(std::uint64_t offset, std::uint8_t* data, std::size_t length) const {
  while (length > 0) {
    const std::uint64_t in_page = offset % kPageBytes;
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(length, kPageBytes - in_page));
    auto it = pages_.find(offset / kPageBytes);
    if (it == pages_.end()) {
      std::memset(data, 0, n);
    } else {
      std::memcpy(data, it->second.get() + in_page, n);
    }
    offset += n;
    data += n;
    length -= n;
  }
}

void Memory::load(std::uint64_t offset, const std::uint8_t* data, std::size_t length) {
  if (offset + length > params_.size_bytes)
    throw std::out_of_range(std::string(name()) + ": load beyond the end");
  write_bytes(offset, data, length);
}

void Memory::peek(std::uint64_t offset, std::uint8_t* data, std::size_t length) const {
  if (offset + length > params_.size_bytes)
    throw std::out_of_range(std::string(name()) + ": peek beyond the end");
  read_bytes(offset, data, length);
}

bool Memory::check(tlm::tlm_generic_payload& trans) const {
  const unsigned width = trans.get_streaming_width();
  if (trans.get_address() + std::min(trans.get_data_length(), width) > params_.size_bytes) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (trans.get_byte_enable_ptr()) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if (width == 0 || (width < trans.get_data_length() && trans.get_data_length() % width != 0)) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  return true;
}

void Memory::move(tlm::tlm_generic_payload& trans) {
  // A streaming burst (width < length) repeats the same `width` bytes of memory, beat after beat.
  const unsigned length = trans.get_data_length();
  const unsigned width = std::min(trans.get_streaming_width(), length);
  for (unsigned at = 0; at < length; at += width) {
    if (trans.is_write()) write_bytes(trans.get_address(), trans.get_data_ptr() + at, width);
    if (trans.is_read()) read_bytes(trans.get_address(), trans.get_data_ptr() + at, width);
  }
}

void Memory::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (!check(trans)) return;
  const bool write = trans.is_write();
  if (!write && !trans.is_read()) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);  // ignore command
    return;
  }
  move(trans);
  const std::uint64_t w = words_of(trans);
  (write ? writes_ : reads_) += w;
  if (energy_.on()) energy_.spend(static_cast<double>(w) * (write ? write_nj_ : read_nj_), trans);
  const sc_core::sc_time data_time =
      periods(params_.clock_period, static_cast<double>(w * params_.cycles_per_word), "a memory access");
  busy_ += data_time;
  if (StreamExtension* stream = stream_of(trans)) {
    stream->add(this, name(), data_time);
  } else {
    delay += periods(params_.clock_period, static_cast<double>(params_.latency_cycles), "a memory latency") +
             data_time;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned Memory::transport_dbg(tlm::tlm_generic_payload& trans) {
  if (!check(trans)) return 0;
  move(trans);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return trans.get_data_length();
}

void Memory::statistics(double, std::vector<StatGroup>& out) const {
  StatGroup g{std::string("memory.") + basename(), "memory", {}};
  g.add("busy_ms", to_ms(busy_time()), "ms", "time moving data")
      .add("words_read", static_cast<double>(reads()), "words", "words read")
      .add("words_written", static_cast<double>(writes()), "words", "words written");
  add_energy(g, energy_, "energy of the words read and written");
  out.push_back(g);
}
}  // namespace rsoc::models
