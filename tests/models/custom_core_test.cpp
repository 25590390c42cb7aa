// Custom cores (models/custom_core.cpp): a block function through the PIO banks (SHA-256 and XOR with a key,
// with exact busy times), blocks that shrink through the streaming windows (CRC-32), the pipelined timing of
// streamed blocks, and a stream-only core that has no banks.
#include <gtest/gtest.h>

#include <vector>

#include "models/crypto/block_function.h"
#include "models/ip_core.h"
#include "tests/models/core_access.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

CoreParams custom(const char* function, unsigned in, unsigned out, unsigned key = 0, bool pio = true) {
  CoreParams p;
  p.kind = CoreKind::kCustom;
  p.clock_period = ns(10);
  p.access_cycles = 1;
  p.block_cycles = 66;
  p.setup_cycles = 3;
  p.custom = CustomCoreParams{crypto::find_block_function(function), in, out, key, pio};
  return p;
}

// Register and stream accesses without a kernel, at `at`; returns the status and the latency.
struct Access {
  IpCore& core;
  std::pair<tlm::tlm_response_status, sc_core::sc_time> operator()(tlm::tlm_command cmd, std::uint32_t offset,
                                                                   std::vector<std::uint32_t>& words,
                                                                   sc_core::sc_time at) {
    return test::core_access(core, cmd, offset, words, at);
  }
  void write(std::uint32_t offset, std::vector<std::uint32_t> words, sc_core::sc_time at) {
    EXPECT_EQ((*this)(tlm::TLM_WRITE_COMMAND, offset, words, at).first, tlm::TLM_OK_RESPONSE);
  }
  std::vector<std::uint32_t> read(std::uint32_t offset, std::size_t n, sc_core::sc_time at) {
    std::vector<std::uint32_t> words(n);
    EXPECT_EQ((*this)(tlm::TLM_READ_COMMAND, offset, words, at).first, tlm::TLM_OK_RESPONSE);
    return words;
  }
};

// FIPS 180-2, appendix B.2: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq" (56 bytes).
const std::vector<std::uint32_t> kMessage{0x61626364, 0x62636465, 0x63646566, 0x64656667, 0x65666768,
                                          0x66676869, 0x6768696a, 0x68696a6b, 0x696a6b6c, 0x6a6b6c6d,
                                          0x6b6c6d6e, 0x6c6d6e6f, 0x6d6e6f70, 0x6e6f7071};
const std::vector<std::uint32_t> kDigest{0x248d6a61, 0xd20638b8, 0xe5c02693, 0x0c3e6039,
                                         0xa33ce459, 0x64ff2167, 0xf6ecedd4, 0x19db06c1};

TEST(ModelCustomCore, Sha256ThroughItsBanksWithItsSetupAndBlockCycles) {
  auto core = make_core("sha", custom("sha256", 56, 32));
  Access a{*core};
  a.write(reg::kCustomBlock, kMessage, ns(0));
  a.write(reg::kCtrl, {reg::kCtrlInit}, ns(1000));  // set-up: 3 cycles from when the write takes effect
  EXPECT_EQ(core->done_at(), ns(1010 + 30));
  a.write(reg::kCtrl, {reg::kCtrlNext}, ns(2000));  // one block: 66 cycles
  EXPECT_EQ(core->done_at(), ns(2010 + 660));
  EXPECT_EQ(a.read(reg::kStatus, 1, ns(2600))[0], 0u);  // busy
  EXPECT_EQ(a.read(reg::kCustomResult, 8, ns(2670)), kDigest);
  EXPECT_EQ(a.read(reg::kStatus, 1, ns(2670))[0], reg::kStatusReady | reg::kStatusValid);
  EXPECT_EQ(a.read(reg::kName0, 2, ns(3000)),
            (std::vector<std::uint32_t>{0x63757374, 0x6f6d2020}));  // "custom  "
}

TEST(ModelCustomCore, XorWithTheKeyTakenAtInit) {
  auto core = make_core("xor", custom("xor_key", 8, 8, 4));
  Access a{*core};
  a.write(reg::kKey, {0x0f0f0f0f}, ns(0));
  a.write(reg::kCtrl, {reg::kCtrlInit}, ns(100));
  a.write(reg::kKey, {0xffffffff}, ns(200));  // takes effect at the next CTRL.INIT
  a.write(reg::kCustomBlock, {0x12345678, 0x00000000}, ns(300));
  a.write(reg::kCtrl, {reg::kCtrlNext}, ns(400));
  EXPECT_EQ(a.read(reg::kCustomResult, 2, ns(2000)), (std::vector<std::uint32_t>{0x1d3b5977, 0x0f0f0f0f}));
}

TEST(ModelCustomCore, StreamedBlocksMayShrink) {
  auto core = make_core("crc", custom("crc32", 12, 4));
  Access a{*core};
  a.write(reg::kCtrl, {reg::kCtrlInit}, ns(0));
  // "123456789" and three spaces, twice: 24 words in, 2 out.
  const std::vector<std::uint32_t> block{0x31323334, 0x35363738, 0x39202020};
  std::vector<std::uint32_t> two = block;
  two.insert(two.end(), block.begin(), block.end());
  a.write(reg::kStreamIn, two, ns(1000));
  EXPECT_EQ(a.read(reg::kOutWords, 1, ns(5000))[0], 2u);
  const std::uint8_t bytes[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9', ' ', ' ', ' '};
  const std::uint32_t crc = crypto::crc32(bytes, sizeof bytes);
  EXPECT_EQ(a.read(reg::kStreamOut, 2, ns(5000)), (std::vector<std::uint32_t>{crc, crc}));
}

// Three blocks in one write on a core with a 66-cycle latency and a new block every 16 cycles: the write
// occupies it for 3 x 16 cycles; block k's result is ready 16 k + 66 cycles after the write's start. The next
// write is taken when the pipeline can take a block, before the last results are out. (A register read
// takes effect at its end, one access of 10 ns after it is issued.)
TEST(ModelCustomCore, APipelinedCoreTakesABlockEveryInitiationInterval) {
  CoreParams p = custom("copy", 4, 4);
  p.initiation_interval_cycles = 16;
  auto core = make_core("pipe", p);
  Access a{*core};
  std::vector<std::uint32_t> three{1, 2, 3};
  auto [status, latency] = a(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, three, ns(1000));
  EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(latency, ns(480));                       // 3 x 16 cycles of 10 ns
  EXPECT_EQ(core->done_at(), ns(1000 + 320 + 660));  // the third block: entered at 2 x 16 cycles
  EXPECT_EQ(a.read(reg::kOutWords, 1, ns(1649))[0], 0u);
  EXPECT_EQ(a.read(reg::kOutWords, 1, ns(1650))[0], 1u);
  EXPECT_EQ(a.read(reg::kOutWords, 1, ns(1970))[0], 3u);
  std::vector<std::uint32_t> one{4};
  std::tie(status, latency) = a(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, one, ns(1400));
  EXPECT_EQ(latency, ns(80 + 160));  // waits until 1480 ns, then one interval
  EXPECT_EQ(core->done_at(), ns(1480 + 660));
  EXPECT_EQ(a.read(reg::kStreamOut, 4, ns(3000)), (std::vector<std::uint32_t>{1, 2, 3, 4}));
  // Not pipelined, the same blocks take 3 x 66 cycles one after the other.
  auto serial = make_core("serial", custom("copy", 4, 4));
  Access s{*serial};
  std::tie(status, latency) = s(tlm::TLM_WRITE_COMMAND, reg::kStreamIn, three, ns(1000));
  EXPECT_EQ(latency, ns(1980));
  EXPECT_EQ(serial->done_at(), ns(2980));
}

TEST(ModelCustomCore, AStreamOnlyCoreHasNoBanksAndIgnoresNext) {
  auto core = make_core("fft", custom("none", 16, 16, 0, /*pio=*/false));
  Access a{*core};
  std::vector<std::uint32_t> block(4, 7);
  EXPECT_EQ(a(tlm::TLM_WRITE_COMMAND, reg::kCustomBlock, block, ns(0)).first,
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  a.write(reg::kCtrl, {reg::kCtrlNext}, ns(100));
  EXPECT_EQ(core->ignored_starts(), 1u);
  a.write(reg::kStreamIn, block, ns(200));
  EXPECT_EQ(a.read(reg::kStreamOut, 4, ns(2000)), std::vector<std::uint32_t>(4, 0));  // `none`: zeros
}

TEST(ModelCustomCore, ACoreWithoutAFunctionOrWithPartWordsIsRefused) {
  CoreParams p = custom("copy", 4, 4);
  p.custom.computes = nullptr;
  EXPECT_THROW(make_core("x", p), std::invalid_argument);
  EXPECT_THROW(make_core("x", custom("copy", 6, 6)), std::invalid_argument);
  EXPECT_THROW(make_core("x", custom("copy", 4096, 4096)), std::invalid_argument);  // PIO banks hold 2048
  EXPECT_NO_THROW(make_core("x", custom("copy", 4096, 4096, 0, false)));
}

}  // namespace
}  // namespace rsoc::models
