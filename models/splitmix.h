#pragma once
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): the
// output for state `x`, the state advanced by the golden gamma first. Draw i of a stream seeded with s is
// splitmix64(s + i * 0x9E3779B97F4A7C15): seeding costs nothing, which suits a stream per request.

#include <cstdint>

namespace rsoc::models {

constexpr std::uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ull;

constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += kSplitMixGamma;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace rsoc::models
