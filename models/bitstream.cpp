#include "models/bitstream.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

namespace rsoc::models {

namespace {
std::uint32_t load_le(const std::uint8_t* p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
#else
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) |
         (std::uint32_t{p[3]} << 24);
#endif
}
void store_le(std::uint8_t* p, std::uint32_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(p, &w, 4);
#else
  for (int b = 0; b < 4; ++b) p[b] = static_cast<std::uint8_t>(w >> (8 * b));
#endif
}
}  // namespace

std::vector<std::uint8_t> make_bitstream(std::uint32_t core_id, std::uint64_t size_bytes) {
  if (size_bytes % 4 != 0 || size_bytes < 4 * (kBitstreamHeaderWords + 1))
    throw std::invalid_argument("bitstream size must be a multiple of 4 bytes and at least 20 bytes");
  const std::uint64_t n = size_bytes / 4;
  std::vector<std::uint8_t> bytes(size_bytes);
  std::uint32_t sum = 0;
  auto put = [&](std::uint64_t i, std::uint32_t w) {
    store_le(&bytes[4 * i], w);
    sum += w;
  };
  put(0, kBitstreamMagic);
  put(1, core_id);
  put(2, static_cast<std::uint32_t>(n));
  put(3, 0);
  std::uint32_t x = 0x9E3779B9u ^ core_id;  // xorshift32 filler
  for (std::uint64_t i = kBitstreamHeaderWords; i + 1 < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    put(i, x);
  }
  store_le(&bytes[4 * (n - 1)], sum);
  return bytes;
}

void BitstreamSink::fail(std::string why) {
  state_ = State::kError;
  error_ = std::move(why);
}

void BitstreamSink::word(std::uint32_t w) {
  if (state_ == State::kError) return;
  if (state_ == State::kComplete) return fail("data after the end of the bitstream");
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
    return;
  }
  checksum_ += w;
}

template <class Load>
void BitstreamSink::feed_with(std::size_t n, Load load) {
  std::size_t i = 0;
  while (i < n) {
    if (state_ == State::kPayload && received_ + 1 < total_) {
      // Bulk: payload words before the checksum word only add up.
      const std::size_t bulk =
          static_cast<std::size_t>(std::min<std::uint64_t>(n - i, total_ - 1 - received_));
      // Thirty-two independent sums: the compiler keeps them in eight vector registers.
      std::array<std::uint32_t, 32> s{};
      auto add8 = [&](std::size_t lane, std::size_t word) {
        for (std::size_t j = 0; j < 8; j += 4) {
          s[lane + j] += load(word + j);
          s[lane + j + 1] += load(word + j + 1);
          s[lane + j + 2] += load(word + j + 2);
          s[lane + j + 3] += load(word + j + 3);
        }
      };
      std::size_t k = 0;
      for (; k + s.size() <= bulk; k += s.size()) {
        add8(0, i + k);
        add8(8, i + k + 8);
        add8(16, i + k + 16);
        add8(24, i + k + 24);
      }
      for (; k < bulk; ++k) s[0] += load(i + k);
      for (const std::uint32_t part : s) checksum_ += part;
      received_ += bulk;
      i += bulk;
      continue;
    }
    word(load(i));
    ++i;
  }
}

void BitstreamSink::feed(const std::uint32_t* words, std::size_t n) {
  feed_with(n, [words](std::size_t k) { return words[k]; });
}

void BitstreamSink::feed_bytes(const std::uint8_t* bytes, std::size_t n) {
  feed_with(n, [bytes](std::size_t k) { return load_le(bytes + 4 * k); });
}

}  // namespace rsoc::models
