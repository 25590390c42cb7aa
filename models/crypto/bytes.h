#pragma once
// Big-endian 64-bit values in byte arrays: byte 0 is the most significant (the block and key order of DES and
// of the AES key wrap's semiblocks).

#include <cstdint>

namespace rsoc::crypto {

inline std::uint64_t load_be64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

inline void store_be64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}

}  // namespace rsoc::crypto
