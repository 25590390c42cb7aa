#include "models/register_file.h"

#include <cstring>
#include <stdexcept>

#include "models/address_map.h"

namespace rsoc::models {

RegisterFile::Id RegisterFile::add(const RegisterSpec& spec, ReadHook on_read, WriteHook on_write) {
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
  return static_cast<Id>(regs_.size() - 1);
}

tlm::tlm_response_status RegisterFile::access_words(tlm::tlm_generic_payload& trans,
                                                    const sc_core::sc_time& at) {
  const std::uint64_t offset = trans.get_address();
  const unsigned length = trans.get_data_length();
  if (offset % 4 != 0 || length % 4 != 0 || length == 0 || trans.get_byte_enable_ptr() ||
      trans.get_streaming_width() < length)
    return tlm::TLM_BURST_ERROR_RESPONSE;
  const bool write = trans.is_write();
  if (!write && !trans.is_read()) return tlm::TLM_OK_RESPONSE;
  unsigned char* data = trans.get_data_ptr();
  std::uint32_t index = 0;
  Register* r = nullptr;
  if (length > 4) {
    // Check the whole burst first so that a failing burst has no side effects.
    for (unsigned i = 0; i < length; i += 4) {
      const tlm::tlm_response_status status = lookup(offset + i, write, &r, &index);
      if (status != tlm::TLM_OK_RESPONSE) return status;
    }
  }
  for (unsigned i = 0; i < length; i += 4) {
    const tlm::tlm_response_status status = lookup(offset + i, write, &r, &index);
    if (status != tlm::TLM_OK_RESPONSE) return status;  // a single word (a burst has been checked)
    apply(*r, index, write, data + i, at);
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
