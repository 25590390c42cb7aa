#include "models/bitstream.h"

#include <algorithm>
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
  std::uint32_t sum = 0;
  for (std::uint64_t i = 0; i + 1 < n; ++i) sum += words[i];
  words[n - 1] = sum;
  std::vector<std::uint8_t> bytes(size_bytes);
  for (std::uint64_t i = 0; i < n; ++i)
    for (int b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<std::uint8_t>(words[i] >> (8 * b));
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
      std::uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;  // independent sums: the loop vectorises
      std::size_t k = 0;
      for (; k + 4 <= bulk; k += 4) {
        s0 += load(i + k);
        s1 += load(i + k + 1);
        s2 += load(i + k + 2);
        s3 += load(i + k + 3);
      }
      for (; k < bulk; ++k) s0 += load(i + k);
      checksum_ += s0 + s1 + s2 + s3;
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
