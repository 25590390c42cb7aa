// Partial bitstream images and the incremental parser the configuration port feeds.
#include "models/bitstream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace rsoc::models {
namespace {

std::vector<std::uint32_t> words_of_image(const std::vector<std::uint8_t>& image) {
  std::vector<std::uint32_t> w(image.size() / 4);
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = std::uint32_t{image[4 * i]} | (std::uint32_t{image[4 * i + 1]} << 8) |
           (std::uint32_t{image[4 * i + 2]} << 16) | (std::uint32_t{image[4 * i + 3]} << 24);
  return w;
}

// FNV-1a (32-bit) over bytes, written out independently of the model.
// The checksum word: the sum modulo 2^32 of the little-endian words before it.
std::uint32_t sum32(const std::uint8_t* data, std::size_t n) {
  std::uint32_t h = 0;
  for (std::size_t i = 0; i + 4 <= n; i += 4)
    h += std::uint32_t{data[i]} | (std::uint32_t{data[i + 1]} << 8) | (std::uint32_t{data[i + 2]} << 16) |
         (std::uint32_t{data[i + 3]} << 24);
  return h;
}

BitstreamSink::State feed_all(BitstreamSink& sink, const std::vector<std::uint32_t>& w, std::size_t step) {
  for (std::size_t i = 0; i < w.size(); i += step) sink.feed(w.data() + i, std::min(step, w.size() - i));
  return sink.state();
}

TEST(ModelBitstream, LayoutAndChecksum) {
  const std::vector<std::uint8_t> image = make_bitstream(0x2A, 512000);
  ASSERT_EQ(image.size(), 512000u);
  const auto w = words_of_image(image);  // little-endian words as stored in memory
  EXPECT_EQ(w[0], kBitstreamMagic);
  EXPECT_EQ(w[0], 0x52534F43u);
  EXPECT_EQ(image[0], 0x43);  // 'C' first: the magic is stored little-endian
  EXPECT_EQ(w[1], 0x2Au);
  EXPECT_EQ(w[2], 128000u);
  EXPECT_EQ(w[3], 0u);
  EXPECT_EQ(w.back(), sum32(image.data(), image.size() - 4));
  EXPECT_EQ(make_bitstream(0x2A, 512000), image);  // deterministic
  const auto other = make_bitstream(0x2B, 512000);
  EXPECT_NE(std::memcmp(other.data() + 16, image.data() + 16, 64), 0);  // payload depends on the core
}

TEST(ModelBitstream, SizeLimits) {
  EXPECT_THROW(make_bitstream(1, 18), std::invalid_argument);
  EXPECT_THROW(make_bitstream(1, 16), std::invalid_argument);
  EXPECT_THROW(make_bitstream(1, 0), std::invalid_argument);
  const auto smallest = make_bitstream(1, 20);  // header + checksum, no payload
  BitstreamSink sink(5);
  EXPECT_EQ(feed_all(sink, words_of_image(smallest), 5), BitstreamSink::State::kComplete);
  EXPECT_EQ(sink.total_words(), 5u);
}

TEST(ModelBitstream, SinkAcceptsAnyChunking) {
  const auto w = words_of_image(make_bitstream(77, 4096));
  for (std::size_t step : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{1000}, w.size()}) {
    BitstreamSink sink(1024);  // capacity exactly the bitstream
    EXPECT_EQ(sink.state(), BitstreamSink::State::kHeader);
    EXPECT_EQ(feed_all(sink, w, step), BitstreamSink::State::kComplete)
        << "step " << step << ": " << sink.error();
    EXPECT_EQ(sink.core_id(), 77u);
    EXPECT_EQ(sink.total_words(), 1024u);
    EXPECT_EQ(sink.received(), 1024u);
    EXPECT_EQ(sink.error(), "");
  }
}

TEST(ModelBitstream, SinkStates) {
  const auto w = words_of_image(make_bitstream(5, 64));
  BitstreamSink sink(100);
  sink.feed(w.data(), 3);
  EXPECT_EQ(sink.state(), BitstreamSink::State::kHeader);
  sink.feed(w.data() + 3, 1);
  EXPECT_EQ(sink.state(), BitstreamSink::State::kPayload);
  sink.feed(w.data() + 4, w.size() - 4);
  EXPECT_EQ(sink.state(), BitstreamSink::State::kComplete);
}

TEST(ModelBitstream, SinkErrors) {
  const auto good = words_of_image(make_bitstream(5, 4096));
  {
    auto w = good;
    w[0] ^= 1;
    BitstreamSink sink(1024);
    EXPECT_EQ(feed_all(sink, w, 64), BitstreamSink::State::kError);
    EXPECT_EQ(sink.error(), "bad bitstream magic");
  }
  {
    BitstreamSink sink(1023);  // one word too small
    EXPECT_EQ(feed_all(sink, good, 64), BitstreamSink::State::kError);
    EXPECT_NE(sink.error().find("4096 bytes does not fit the slot (4092 bytes)"), std::string::npos)
        << sink.error();
    EXPECT_EQ(sink.received(), 3u);  // stopped at the length word
  }
  {
    auto w = good;
    w[2] = 4;  // no room for a checksum
    BitstreamSink sink(1024);
    EXPECT_EQ(feed_all(sink, w, 64), BitstreamSink::State::kError);
    EXPECT_EQ(sink.error(), "bitstream too short");
  }
  {
    auto w = good;
    w[500] ^= 0x00010000;
    BitstreamSink sink(1024);
    EXPECT_EQ(feed_all(sink, w, 64), BitstreamSink::State::kError);
    EXPECT_EQ(sink.error(), "bitstream checksum mismatch");
    EXPECT_EQ(sink.received(), 1024u);
  }
  {
    auto w = good;
    w.push_back(0);  // one word too many
    BitstreamSink sink(2048);
    EXPECT_EQ(feed_all(sink, w, 1), BitstreamSink::State::kError);
    EXPECT_EQ(sink.error(), "data after the end of the bitstream");
    const std::uint64_t received = sink.received();
    sink.feed(w.data(), 4);  // ignored after an error
    EXPECT_EQ(sink.received(), received);
  }
  {
    auto w = good;
    w.push_back(0);  // the extra word arrives in the same burst as the last one: same verdict
    BitstreamSink sink(2048);
    EXPECT_EQ(feed_all(sink, w, w.size()), BitstreamSink::State::kError);
    EXPECT_EQ(sink.error(), "data after the end of the bitstream");
  }
}

}  // namespace
}  // namespace rsoc::models
