#pragma once
// RegisterFile: a device's registers declared as data (name, offset, bank size, access, reset value, hooks).
// Accesses are whole aligned 32-bit words; a burst walks consecutive words. Unknown offsets answer
// TLM_ADDRESS_ERROR_RESPONSE, writes to read-only registers TLM_COMMAND_ERROR_RESPONSE, misaligned or partial
// words TLM_BURST_ERROR_RESPONSE. Untimed: the owning model applies timing.

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace rsoc::models {

enum class RegAccess { kReadOnly, kWriteOnly, kReadWrite };

struct RegisterSpec {
  std::string name;
  std::uint32_t offset = 0;  // bytes
  std::uint32_t words = 1;   // a bank of consecutive words
  RegAccess access = RegAccess::kReadWrite;
  std::uint32_t reset = 0;
};

class RegisterFile {
 public:
  // Called with the word index inside the register and the access time.
  using ReadHook = std::function<std::uint32_t(std::uint32_t index, const sc_core::sc_time& at)>;
  using WriteHook = std::function<void(std::uint32_t index, std::uint32_t value, const sc_core::sc_time& at)>;
  // A register in the order of declaration: models keep the ids of the registers their hooks use instead of
  // looking them up by name on every access.
  enum class Id : std::size_t {};

  Id add(const RegisterSpec& spec, ReadHook on_read = {}, WriteHook on_write = {});

  tlm::tlm_response_status access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at) {
    // One aligned word, read or written (nearly every access), inline; the rest in access_words().
    const bool write = trans.is_write();
    if (trans.get_data_length() != 4 || trans.get_address() % 4 != 0 || trans.get_byte_enable_ptr() ||
        trans.get_streaming_width() < 4 || !(write || trans.is_read()))
      return access_words(trans, at);
    Register* r = nullptr;
    std::uint32_t index = 0;
    const tlm::tlm_response_status status = lookup(trans.get_address(), write, &r, &index);
    if (status == tlm::TLM_OK_RESPONSE) apply(*r, index, write, trans.get_data_ptr(), at);
    return status;
  }
  // Debug access: no hooks, read-only registers writable, write-only readable.
  unsigned debug(tlm::tlm_generic_payload& trans);
  // One word written at `offset` at time `at`, as an access would (hooks, access rules).
  tlm::tlm_response_status write_word(std::uint64_t offset, std::uint32_t value, const sc_core::sc_time& at) {
    Register* r = nullptr;
    std::uint32_t index = 0;
    const tlm::tlm_response_status status = lookup(offset, true, &r, &index);
    if (status == tlm::TLM_OK_RESPONSE) apply(*r, index, true, reinterpret_cast<unsigned char*>(&value), at);
    return status;
  }
  // Whether the word at `offset` belongs to register `id`.
  bool holds(Id id, std::uint64_t offset) const {
    const RegisterSpec& spec = regs_[static_cast<std::size_t>(id)].spec;
    return offset >= spec.offset && offset < spec.offset + 4ull * spec.words;
  }

  std::uint32_t& at(const std::string& name, std::uint32_t index = 0);
  const std::vector<std::uint32_t>& bank(const std::string& name) const;
  std::vector<std::uint32_t>& bank(const std::string& name);
  // The same by id (as returned by add()); word 0 of a register, or its whole bank.
  std::uint32_t& at(Id id) { return bank(id).front(); }
  std::uint32_t at(Id id) const { return bank(id).front(); }
  const std::vector<std::uint32_t>& bank(Id id) const { return regs_[static_cast<std::size_t>(id)].values; }
  std::vector<std::uint32_t>& bank(Id id) { return regs_[static_cast<std::size_t>(id)].values; }
  void reset();
  std::vector<RegisterSpec> specs() const;

 private:
  struct Register {
    RegisterSpec spec;
    ReadHook on_read;
    WriteHook on_write;
    std::vector<std::uint32_t> values;
  };
  Register* find(std::uint64_t offset, std::uint32_t* index) {
    const std::uint64_t word = offset / 4;
    if (offset % 4 != 0 || word >= by_word_.size() || by_word_[word].first == 0) return nullptr;
    *index = by_word_[word].second;
    return &regs_[by_word_[word].first - 1];
  }
  // The register holding the word at `offset`, if it takes the access: TLM_OK_RESPONSE, or the error.
  tlm::tlm_response_status lookup(std::uint64_t offset, bool write, Register** r, std::uint32_t* index) {
    *r = find(offset, index);
    if (!*r) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    const RegAccess denied = write ? RegAccess::kReadOnly : RegAccess::kWriteOnly;
    return (*r)->spec.access == denied ? tlm::TLM_COMMAND_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE;
  }
  // Performs one word of an access that lookup() accepted.
  static void apply(Register& r, std::uint32_t index, bool write, unsigned char* data,
                    const sc_core::sc_time& at) {
    std::uint32_t value = 0;
    if (write) {
      std::memcpy(&value, data, 4);
      r.values[index] = value;
      if (r.on_write) r.on_write(index, value, at);
    } else {
      value = r.on_read ? r.on_read(index, at) : r.values[index];
      std::memcpy(data, &value, 4);
    }
  }
  tlm::tlm_response_status access_words(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at);
  Register& named(const std::string& name);
  const Register& named(const std::string& name) const;
  std::vector<Register> regs_;
  // Word offset -> (register index + 1, word index); 0: nothing there. Built by add().
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_word_;
};

}  // namespace rsoc::models
