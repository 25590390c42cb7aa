#pragma once
// ElfImage: a 32-bit little-endian RISC-V executable (ELF32, EM_RISCV), read into memory for the
// instruction-set CPU (models/riscv_hart.h): its loadable segments (what to place where, the bytes past a
// segment's file size being zero), its function and object symbols, and lookups by name and by address.
// Plain C++, untimed. Every problem with a file (missing, truncated, not ELF32, another machine, a segment or
// a section that points past the end of the file) throws ElfError naming the file and what is wrong; nothing
// is read past the file's bytes.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rsoc::models {

class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ElfImage {
 public:
  struct Segment {
    std::uint32_t address = 0;       // where it is loaded (its physical address)
    std::uint32_t memory_bytes = 0;  // its size in memory (bytes beyond bytes.size() are zero)
    std::vector<std::uint8_t> bytes;
    bool executable = false;
  };
  struct Symbol {
    std::string name;
    std::uint32_t address = 0;
    std::uint32_t size = 0;
    bool function = false;  // a function (STT_FUNC)
    bool label = false;     // a global label without a type (an assembly routine, a linker symbol)
  };

  // Reads `path`; throws ElfError.
  static ElfImage load(const std::string& path);
  // Parses the bytes of a file called `path` (for messages); throws ElfError.
  static ElfImage parse(const std::string& path, const std::vector<std::uint8_t>& file);

  const std::string& path() const { return path_; }
  std::uint32_t entry() const { return entry_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const std::vector<Symbol>& symbols() const { return symbols_; }
  // The symbol called `name`, if any (a program's entry: a function or a global label).
  const Symbol* find(const std::string& name) const;
  // The function that contains `address`, or else the global label closest below it, if any.
  const Symbol* function_at(std::uint32_t address) const;
  // `address` as "0x... (name+0x..)" when a function contains it, "0x..." otherwise.
  std::string describe(std::uint32_t address) const;
  // One past the highest byte any segment occupies in memory.
  std::uint64_t end() const;

 private:
  std::string path_;
  std::uint32_t entry_ = 0;
  std::vector<Segment> segments_;
  std::vector<Symbol> symbols_;  // functions and objects, by address
};

}  // namespace rsoc::models
