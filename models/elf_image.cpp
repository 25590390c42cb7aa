#include "models/elf_image.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "models/address_map.h"

namespace rsoc::models {

namespace {

constexpr std::uint16_t kMachineRiscv = 243;                              // EM_RISCV
constexpr std::uint32_t kLoad = 1;                                        // PT_LOAD
constexpr std::uint32_t kSymtab = 2;                                      // SHT_SYMTAB
constexpr std::uint32_t kExecutableFlag = 1;                              // PF_X
constexpr unsigned kNoType = 0, kObject = 1, kFunction = 2, kGlobal = 1;  // symbol types, binding

// Little-endian fields of the file, bounds-checked.
class Reader {
 public:
  Reader(const std::string& path, const std::vector<std::uint8_t>& file) : path_(path), file_(file) {}
  std::uint32_t u32(std::uint64_t at, const char* what) const {
    need(at, 4, what);
    return static_cast<std::uint32_t>(file_[at]) | static_cast<std::uint32_t>(file_[at + 1]) << 8 |
           static_cast<std::uint32_t>(file_[at + 2]) << 16 | static_cast<std::uint32_t>(file_[at + 3]) << 24;
  }
  std::uint16_t u16(std::uint64_t at, const char* what) const {
    need(at, 2, what);
    return static_cast<std::uint16_t>(file_[at] | file_[at + 1] << 8);
  }
  std::uint8_t u8(std::uint64_t at, const char* what) const {
    need(at, 1, what);
    return file_[at];
  }
  void need(std::uint64_t at, std::uint64_t bytes, const char* what) const {
    if (at > file_.size() || bytes > file_.size() - at)
      fail(std::string(what) + " lies past the end of the file (" + std::to_string(file_.size()) + " bytes)");
  }
  [[noreturn]] void fail(const std::string& why) const { throw ElfError(path_ + ": " + why); }
  const std::vector<std::uint8_t>& file() const { return file_; }

 private:
  const std::string& path_;
  const std::vector<std::uint8_t>& file_;
};

std::string c_string(const Reader& r, std::uint64_t at, std::uint64_t table_end) {
  std::string s;
  for (; at < table_end; ++at) {
    const char c = static_cast<char>(r.u8(at, "a symbol name"));
    if (c == '\0') return s;
    s += c;
  }
  r.fail("a symbol name runs past its string table");
}

void read_segments(const Reader& r, std::vector<ElfImage::Segment>& out) {
  const std::uint32_t phoff = r.u32(28, "the program header offset");
  const std::uint16_t phentsize = r.u16(42, "the program header size"), phnum = r.u16(44, "the header count");
  if (phnum > 0 && phentsize < 32) r.fail("program headers of " + std::to_string(phentsize) + " bytes");
  for (std::uint16_t i = 0; i < phnum; ++i) {
    const std::uint64_t h = phoff + std::uint64_t{i} * phentsize;
    r.need(h, 32, "a program header");
    if (r.u32(h, "a segment type") != kLoad) continue;
    ElfImage::Segment s;
    const std::uint32_t offset = r.u32(h + 4, "a segment offset"), filesz = r.u32(h + 16, "a segment size");
    s.address = r.u32(h + 12, "a segment address");
    s.memory_bytes = r.u32(h + 20, "a segment size");
    s.executable = (r.u32(h + 24, "a segment's flags") & kExecutableFlag) != 0;
    if (filesz > s.memory_bytes)
      r.fail("segment " + std::to_string(i) + " has more bytes in the file than in memory");
    if (std::uint64_t{s.address} + s.memory_bytes > 0x100000000ULL)
      r.fail("segment " + std::to_string(i) + " runs past the 32-bit address space");
    r.need(offset, filesz, "a segment's bytes");
    s.bytes.assign(r.file().begin() + offset, r.file().begin() + offset + filesz);
    if (s.memory_bytes > 0) out.push_back(std::move(s));
  }
  if (out.empty()) r.fail("no loadable segment");
}

void read_symbols(const Reader& r, std::vector<ElfImage::Symbol>& out) {
  const std::uint32_t shoff = r.u32(32, "the section header offset");
  const std::uint16_t shentsize = r.u16(46, "the section header size"),
                      shnum = r.u16(48, "the section count");
  if (shnum > 0 && shentsize < 40) r.fail("section headers of " + std::to_string(shentsize) + " bytes");
  auto section = [&](std::uint32_t index) {
    if (index >= shnum) r.fail("a section index " + std::to_string(index) + " out of range");
    const std::uint64_t h = shoff + std::uint64_t{index} * shentsize;
    r.need(h, 40, "a section header");
    return h;
  };
  for (std::uint16_t i = 0; i < shnum; ++i) {
    const std::uint64_t h = section(i);
    if (r.u32(h + 4, "a section type") != kSymtab) continue;
    const std::uint32_t offset = r.u32(h + 16, "the symbol table offset"), size = r.u32(h + 20, "its size");
    const std::uint64_t strings = section(r.u32(h + 24, "the symbol table's string table"));
    const std::uint32_t str_offset = r.u32(strings + 16, "the string table offset");
    const std::uint64_t str_end = std::uint64_t{str_offset} + r.u32(strings + 20, "the string table size");
    r.need(offset, size, "the symbol table");
    r.need(str_offset, str_end - str_offset, "the string table");
    for (std::uint64_t e = offset; e + 16 <= std::uint64_t{offset} + size; e += 16) {
      const unsigned info = r.u8(e + 12, "a symbol's type"), type = info & 0xf;
      const bool global_label = type == kNoType && (info >> 4) == kGlobal;  // an assembly routine's label
      if (type != kFunction && type != kObject && !global_label) continue;
      ElfImage::Symbol s;
      s.name = c_string(r, str_offset + std::uint64_t{r.u32(e, "a symbol name")}, str_end);
      s.address = r.u32(e + 4, "a symbol value");
      s.size = r.u32(e + 8, "a symbol size");
      s.function = type == kFunction;
      s.label = global_label;
      if (!s.name.empty()) out.push_back(std::move(s));
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.address < b.address; });
}

}  // namespace

ElfImage ElfImage::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ElfError(path + ": cannot be read (" + std::strerror(errno) + ")");
  const std::vector<std::uint8_t> file((std::istreambuf_iterator<char>(in)),
                                       std::istreambuf_iterator<char>());
  if (in.bad()) throw ElfError(path + ": cannot be read");
  return parse(path, file);
}

ElfImage ElfImage::parse(const std::string& path, const std::vector<std::uint8_t>& file) {
  const Reader r(path, file);
  if (file.size() < 52 || std::memcmp(file.data(),
                                      "\x7f"
                                      "ELF",
                                      4) != 0)
    r.fail("not an ELF file");
  if (file[4] != 1) r.fail("not a 32-bit ELF file (class " + std::to_string(file[4]) + ")");
  if (file[5] != 1) r.fail("not a little-endian ELF file");
  if (const std::uint16_t machine = r.u16(18, "the machine"); machine != kMachineRiscv)
    r.fail("built for machine " + std::to_string(machine) + ", not RISC-V (243)");
  ElfImage image;
  image.path_ = path;
  image.entry_ = r.u32(24, "the entry point");
  read_segments(r, image.segments_);
  read_symbols(r, image.symbols_);
  return image;
}

const ElfImage::Symbol* ElfImage::find(const std::string& name) const {
  const auto it =
      std::find_if(symbols_.begin(), symbols_.end(), [&](const Symbol& s) { return s.name == name; });
  return it == symbols_.end() ? nullptr : &*it;
}

const ElfImage::Symbol* ElfImage::function_at(std::uint32_t address) const {
  const Symbol *function = nullptr, *label = nullptr;
  for (const Symbol& s : symbols_) {
    if (s.address > address) break;
    if (s.function && address < std::uint64_t{s.address} + s.size) function = &s;
    if (s.label) label = &s;
  }
  return function ? function : label;
}

std::string ElfImage::describe(std::uint32_t address) const {
  const Symbol* f = function_at(address);
  if (!f) return hex(address);
  return hex(address) + " (" + f->name + "+" + hex(address - f->address) + ")";
}

std::uint64_t ElfImage::end() const {
  std::uint64_t end = 0;
  for (const Segment& s : segments_) end = std::max(end, std::uint64_t{s.address} + s.memory_bytes);
  return end;
}

}  // namespace rsoc::models
