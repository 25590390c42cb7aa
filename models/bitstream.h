#pragma once
// Partial bitstreams (plain C++). Layout, in 32-bit little-endian words: MAGIC, core id, total words,
// reserved, payload..., checksum (the sum modulo 2^32 of every previous word). The payload is deterministic
// filler standing for configuration frames; what matters to the models is its size, its destination core and
// its integrity.

#include <cstdint>
#include <string>
#include <vector>

namespace rsoc::models {

inline constexpr std::uint32_t kBitstreamMagic = 0x52534F43;  // "RSOC"
inline constexpr std::uint32_t kBitstreamHeaderWords = 4;

// A bitstream image of `size_bytes` (a multiple of 4, at least 20) that configures core `core_id`.
std::vector<std::uint8_t> make_bitstream(std::uint32_t core_id, std::uint64_t size_bytes);

// Incremental parser fed with the words a configuration port receives.
class BitstreamSink {
 public:
  enum class State { kHeader, kPayload, kComplete, kError };
  // `capacity_words`: the largest bitstream the receiving slot can take.
  explicit BitstreamSink(std::uint64_t capacity_words) : capacity_words_(capacity_words) {}
  void feed(const std::uint32_t* words, std::size_t n);
  // The same, from little-endian bytes as they travel on the bus (n_words whole words).
  void feed_bytes(const std::uint8_t* bytes, std::size_t n_words);
  State state() const { return state_; }
  std::uint32_t core_id() const { return core_id_; }
  std::uint64_t received() const { return received_; }
  std::uint64_t total_words() const { return total_; }
  const std::string& error() const { return error_; }

 private:
  void fail(std::string why);
  void word(std::uint32_t w);
  template <class Load>
  void feed_with(std::size_t n, Load load);
  std::uint64_t capacity_words_;
  State state_ = State::kHeader;
  std::uint32_t core_id_ = 0;
  std::uint64_t total_ = 0;
  std::uint64_t received_ = 0;
  std::uint32_t checksum_ = 0;
  std::string error_;
};

}  // namespace rsoc::models
