// The UART link: byte time from the baud rate and framing, back-to-back transfers queue per direction.
#include "models/uart.h"

#include <gtest/gtest.h>

#include "tests/models/model_test_support.h"

namespace rsoc::models {

TEST(ModelUart, BytesTakeTheirFramedBitTimeAndQueuePerDirection) {
  Uart uart("uart", UartParams{921600, 10});
  // 10 bits at 921,600 baud: 10.850694... us per byte (the simulator's 1 ps resolution rounds it).
  EXPECT_NEAR(uart.byte_time().to_seconds(), 10.0 / 921600, 1e-12);
  const sc_core::sc_time t0 = test::us(100);
  const sc_core::sc_time first = uart.transfer(Uart::Direction::kToDevice, 100, t0);
  EXPECT_EQ(first, t0 + uart.byte_time() * 100.0);
  // A second sender offering at the same time waits for the first; the other direction does not.
  EXPECT_EQ(uart.transfer(Uart::Direction::kToDevice, 10, t0), first + uart.byte_time() * 10.0);
  EXPECT_EQ(uart.transfer(Uart::Direction::kToHost, 10, t0), t0 + uart.byte_time() * 10.0);
  EXPECT_EQ(uart.bytes(Uart::Direction::kToDevice), 110u);
  EXPECT_EQ(uart.line(Uart::Direction::kToDevice).contended(), 1u);
  EXPECT_THROW(Uart("bad", UartParams{0, 10}), std::invalid_argument);
}

// Simulated time is counted in 64-bit picoseconds: a byte or a transfer lasting 2^57 ps or more is refused,
// never wrapped around to a short one.
TEST(ModelUart, ATransferPast2To57PicosecondsIsRefused) {
  EXPECT_THROW(Uart("slow", UartParams{1e-12, 10}), std::overflow_error);
  Uart uart("uart", UartParams{1, 10});  // 10 s a byte
  EXPECT_EQ(uart.transfer(Uart::Direction::kToDevice, 10000, test::us(0)),
            sc_core::sc_time(100000, sc_core::SC_SEC));
  EXPECT_THROW(uart.transfer(Uart::Direction::kToDevice, 1000000000, test::us(0)), std::overflow_error);
}

}  // namespace rsoc::models
