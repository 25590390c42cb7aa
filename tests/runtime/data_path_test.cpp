// The DMA data path's pieces: the buffer share of each engine and the cipher blocks of one piece, which the
// driver uses and platform/estimate.cpp prices; and the on-chip bus's per-word stream time the estimate uses.
#include <gtest/gtest.h>

#include "models/onchip_bus.h"
#include "runtime/drivers.h"
#include "runtime/functionality.h"

namespace rsoc::runtime {
namespace {

TEST(DataPath, EachEngineHasAnEqualShareOfTheBufferInWholeWords) {
  EXPECT_EQ(buffer_share(4096, 1), 4096u);
  EXPECT_EQ(buffer_share(4099, 2), 2048u);  // 2049 bytes: 512 words
  EXPECT_EQ(buffer_share(4096, 3), 1364u);  // 1365 bytes: 341 words
}

TEST(DataPath, APieceHoldsWhatTheCoresFifoAndTheEnginesShareHold) {
  const FunctionalityInfo& aes = Functionality::kAes128.info();  // 16 bytes in, 16 out
  EXPECT_EQ(blocks_per_piece(aes, 1024, 4096), 128u);            // the share: 4096 / 32 bytes
  EXPECT_EQ(blocks_per_piece(aes, 8, 4096), 2u);                 // the FIFO: 8 / 4 words
  EXPECT_EQ(blocks_per_piece(aes, 1024, 31), 0u);                // not one block's input and result
  EXPECT_EQ(blocks_per_piece(aes, 3, 4096), 0u);
}

TEST(DataPath, AStreamChunkSpreadsTheBusLatencyOverItsWords) {
  models::OnChipBusParams bus;
  bus.latency_cycles = 3;
  bus.cycles_per_word = 2;
  EXPECT_DOUBLE_EQ(bus.stream_cycles_per_word(4), static_cast<double>(bus.transfer_cycles(4)) / 4);
  EXPECT_DOUBLE_EQ(bus.stream_cycles_per_word(1), 5.0);
}

}  // namespace
}  // namespace rsoc::runtime
