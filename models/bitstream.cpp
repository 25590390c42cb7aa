#include "models/bitstream.h"

#include <stdexcept>

namespace rsoc::models {

namespace {
std::uint32_t fnv(std::uint32_t h, std::uint32_t word) {
  for (int b = 0; b < 4; ++b) {
    h ^= (word >> (8 * b)) & 0xffu;
    h *= 16777619u;
  }
  return h;
}
}  // namespace

std::vector<std::uint8_t> make_bitstream(std::uint32_t core_id, std::uint64_t size_bytes) {
  if (size_bytes % 4 != 0 || size_bytes < 4 * (kBitstreamHeaderWords + 1))
    throw std::invalid_argument("bitstream size must be a multiple of 4 bytes and at least 20 bytes");
  const std::uint64_t n = size_bytes / 4;
  std::vector<std::uint32_t> words(n);
  words[0] = kBitstreamMagic;
  words[1] = core_id;
  words[2] = static_cast<std::uint32_t>(n);
  words[3] = 0;
  std::uint32_t x = 0x9E3779B9u ^ core_id;  // xorshift32 filler
  for (std::uint64_t i = kBitstreamHeaderWords; i + 1 < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    words[i] = x;
  }
  std::uint32_t h = 2166136261u;
  for (std::uint64_t i = 0; i + 1 < n; ++i) h = fnv(h, words[i]);
  words[n - 1] = h;
  std::vector<std::uint8_t> bytes(size_bytes);
  for (std::uint64_t i = 0; i < n; ++i)
    for (int b = 0; b < 4; ++b)
      bytes[4 * i + b] = static_cast<std::uint8_t>(words[i] >> (8 * b));  // as stored
  return bytes;
}

void BitstreamSink::fail(std::string why) {
  state_ = State::kError;
  error_ = std::move(why);
}

void BitstreamSink::feed(const std::uint32_t* words, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (state_ == State::kError) return;
    if (state_ == State::kComplete) return fail("data after the end of the bitstream");
    const std::uint32_t w = words[i];
    const std::uint64_t index = received_++;
    if (index == 0 && w != kBitstreamMagic) return fail("bad bitstream magic");
    if (index == 1) core_id_ = w;
    if (index == 2) {
      total_ = w;
      if (total_ <= kBitstreamHeaderWords) return fail("bitstream too short");
      if (total_ > capacity_words_)
        return fail("bitstream of " + std::to_string(4 * total_) + " bytes does not fit the slot (" +
                    std::to_string(4 * capacity_words_) + " bytes)");
    }
    if (index + 1 == kBitstreamHeaderWords) state_ = State::kPayload;
    if (state_ == State::kPayload && total_ != 0 && index + 1 == total_) {
      if (w != checksum_) return fail("bitstream checksum mismatch");
      state_ = State::kComplete;
      continue;  // any further word is an error
    }
    checksum_ = fnv(checksum_, w);
  }
}

}  // namespace rsoc::models
