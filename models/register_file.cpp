#include "models/register_file.h"

#include <cstring>
#include <stdexcept>

#include "models/address_map.h"

namespace rsoc::models {

void RegisterFile::add(const RegisterSpec& spec, ReadHook on_read, WriteHook on_write) {
  if (spec.offset % 4 != 0 || spec.words == 0)
    throw ElaborationError("register " + spec.name + ": bad layout");
  for (const auto& r : regs_) {
    const std::uint64_t a0 = r.spec.offset, a1 = a0 + 4ull * r.spec.words;
    const std::uint64_t b0 = spec.offset, b1 = b0 + 4ull * spec.words;
    if (b0 < a1 && a0 < b1)
      throw ElaborationError("register " + spec.name + " overlaps register " + r.spec.name);
  }
  regs_.push_back(Register{spec, std::move(on_read), std::move(on_write),
                           std::vector<std::uint32_t>(spec.words, spec.reset)});
  const std::size_t first = spec.offset / 4, end = first + spec.words;
  if (by_word_.size() < end) by_word_.resize(end, {0, 0});
  for (std::size_t w = first; w < end; ++w)
    by_word_[w] = {static_cast<std::uint32_t>(regs_.size()), static_cast<std::uint32_t>(w - first)};
}

RegisterFile::Register* RegisterFile::find(std::uint64_t offset, std::uint32_t* index) {
  const std::uint64_t word = offset / 4;
  if (offset % 4 != 0 || word >= by_word_.size() || by_word_[word].first == 0) return nullptr;
  *index = by_word_[word].second;
  return &regs_[by_word_[word].first - 1];
}

tlm::tlm_response_status RegisterFile::access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at) {
  const std::uint64_t offset = trans.get_address();
  const unsigned length = trans.get_data_length();
  if (offset % 4 != 0 || length % 4 != 0 || length == 0 || trans.get_byte_enable_ptr() ||
      trans.get_streaming_width() < length)
    return tlm::TLM_BURST_ERROR_RESPONSE;
  const bool write = trans.is_write();
  if (!write && !trans.is_read()) return tlm::TLM_OK_RESPONSE;
  unsigned char* data = trans.get_data_ptr();
  // Check the whole burst first so that a failing burst has no side effects.
  for (unsigned i = 0; i < length; i += 4) {
    std::uint32_t index = 0;
    Register* r = find(offset + i, &index);
    if (!r) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (write ? r->spec.access == RegAccess::kReadOnly : r->spec.access == RegAccess::kWriteOnly)
      return tlm::TLM_COMMAND_ERROR_RESPONSE;
  }
  for (unsigned i = 0; i < length; i += 4) {
    std::uint32_t index = 0;
    Register* r = find(offset + i, &index);
    std::uint32_t value = 0;
    if (write) {
      std::memcpy(&value, data + i, 4);
      r->values[index] = value;
      if (r->on_write) r->on_write(index, value, at);
    } else {
      value = r->on_read ? r->on_read(index, at) : r->values[index];
      std::memcpy(data + i, &value, 4);
    }
  }
  return tlm::TLM_OK_RESPONSE;
}

unsigned RegisterFile::debug(tlm::tlm_generic_payload& trans) {
  const std::uint64_t offset = trans.get_address();
  const unsigned length = trans.get_data_length();
  if (offset % 4 != 0 || length % 4 != 0) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return 0;
  }
  unsigned done = 0;
  for (; done < length; done += 4) {
    std::uint32_t index = 0;
    Register* r = find(offset + done, &index);
    if (!r) break;
    if (trans.is_write()) {
      std::memcpy(&r->values[index], trans.get_data_ptr() + done, 4);
    } else {
      std::memcpy(trans.get_data_ptr() + done, &r->values[index], 4);
    }
  }
  trans.set_response_status(done == length ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  return done;
}

RegisterFile::Register& RegisterFile::named(const std::string& name) {
  for (auto& r : regs_)
    if (r.spec.name == name) return r;
  throw std::out_of_range("no register named " + name);
}

const RegisterFile::Register& RegisterFile::named(const std::string& name) const {
  return const_cast<RegisterFile*>(this)->named(name);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
}

std::uint32_t& RegisterFile::at(const std::string& name, std::uint32_t index) {
  return named(name).values.at(index);
}
const std::vector<std::uint32_t>& RegisterFile::bank(const std::string& name) const {
  return named(name).values;
}
std::vector<std::uint32_t>& RegisterFile::bank(const std::string& name) {
  return named(name).values;
}

void RegisterFile::reset() {
  for (auto& r : regs_) std::fill(r.values.begin(), r.values.end(), r.spec.reset);
}

std::vector<RegisterSpec> RegisterFile::specs() const {
  std::vector<RegisterSpec> out;
  for (const auto& r : regs_) out.push_back(r.spec);
  return out;
}

}  // namespace rsoc::models
