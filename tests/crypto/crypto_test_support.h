#pragma once
// Helpers shared by the rsoc::crypto tests: hex parsing and access to the vector files of tests/data.

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tests/test_paths.h"

namespace rsoc::crypto::test {

// The worked DES example the tests start from (key, plaintext and its ciphertext).
inline constexpr std::uint64_t kExampleKey = 0x133457799BBCDFF1;
inline constexpr std::uint64_t kExamplePlain = 0x0123456789ABCDEF;
inline constexpr std::uint64_t kExampleCipher = 0x85E813540F0AB405;

// A file of tests/data (its README gives each file's provenance).
inline std::string data_file(std::string_view name) {
  return std::string(rsoc_test::kTestDataDir) + "/" + std::string(name);
}

inline int hex_nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  throw std::invalid_argument(std::string("not a hex digit: ") + c);
}

// Even-length hex string to bytes, first byte first.
inline std::vector<std::uint8_t> hex_bytes(std::string_view hex) {
  if (hex.size() % 2 != 0) throw std::invalid_argument("odd-length hex string");
  std::vector<std::uint8_t> out(hex.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::uint8_t>(hex_nibble(hex[2 * i]) * 16 + hex_nibble(hex[2 * i + 1]));
  }
  return out;
}

// Up to 16 hex digits to a 64-bit value.
inline std::uint64_t hex64(std::string_view hex) {
  if (hex.empty() || hex.size() > 16) throw std::invalid_argument("bad 64-bit hex value");
  std::uint64_t v = 0;
  for (char c : hex) v = (v << 4) | static_cast<std::uint64_t>(hex_nibble(c));
  return v;
}

// Reads a file of `name = value` lines ('#' starts a comment line).
inline std::map<std::string, std::string> read_assignments(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::map<std::string, std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string name, eq, value;
    if (ls >> name >> eq >> value && eq == "=") out[name] = value;
  }
  return out;
}

}  // namespace rsoc::crypto::test
