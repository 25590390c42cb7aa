#pragma once
// RegisterFile: a device's registers declared as data (name, offset, bank size, access, reset value, hooks).
// Accesses are whole aligned 32-bit words; a burst walks consecutive words. Unknown offsets answer
// TLM_ADDRESS_ERROR_RESPONSE, writes to read-only registers TLM_COMMAND_ERROR_RESPONSE, misaligned or partial
// words TLM_BURST_ERROR_RESPONSE. Untimed: the owning model applies timing.

#include <cstdint>
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

  void add(const RegisterSpec& spec, ReadHook on_read = {}, WriteHook on_write = {});

  tlm::tlm_response_status access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at);
  // Debug access: no hooks, read-only registers writable, write-only readable.
  unsigned debug(tlm::tlm_generic_payload& trans);

  std::uint32_t& at(const std::string& name, std::uint32_t index = 0);
  const std::vector<std::uint32_t>& bank(const std::string& name) const;
  std::vector<std::uint32_t>& bank(const std::string& name);
  void reset();
  std::vector<RegisterSpec> specs() const;

 private:
  struct Register {
    RegisterSpec spec;
    ReadHook on_read;
    WriteHook on_write;
    std::vector<std::uint32_t> values;
  };
  Register* find(std::uint64_t offset, std::uint32_t* index);
  Register& named(const std::string& name);
  const Register& named(const std::string& name) const;
  std::vector<Register> regs_;
  // Word offset -> (register index + 1, word index); 0: nothing there. Built by add().
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_word_;
};

}  // namespace rsoc::models
