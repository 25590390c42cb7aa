#pragma once
// Uart: a full-duplex serial link between hosts and the SoC (8N1 framing by default: a start bit, 8 data
// bits, a stop bit). Plain C++ timing resource, used by the threads at either end. Timing contract: each
// direction carries one byte every bits_per_byte / baud seconds, back to back; a transfer of n bytes offered
// at `at` starts when the direction is free (earlier transfers of other senders first, in the order they were
// offered) and ends n byte times later. The two directions are independent.

#include <cstdint>
#include <string>
#include <systemc>

#include "models/resource_calendar.h"
#include "models/statistics.h"

namespace rsoc::models {

struct UartParams {
  double baud = 115200;
  unsigned bits_per_byte = 10;
};

class Uart final : public StatisticsSource {
 public:
  // StatisticsSource: its counters (models/statistics.h).
  void statistics(double end_ms, std::vector<StatGroup>& out) const override;
  StatisticsRank statistics_rank() const override { return StatisticsRank::kUart; }
  enum class Direction { kToDevice, kToHost };

  Uart(std::string name, const UartParams& params);

  // Sends `bytes` bytes offered at `at`; returns when the last one has arrived.
  sc_core::sc_time transfer(Direction direction, std::uint64_t bytes, const sc_core::sc_time& at);

  const std::string& name() const { return name_; }
  const UartParams& params() const { return params_; }
  sc_core::sc_time byte_time() const { return byte_time_; }
  const ResourceCalendar& line(Direction direction) const {
    return direction == Direction::kToDevice ? to_device_ : to_host_;
  }
  std::uint64_t bytes(Direction direction) const {
    return direction == Direction::kToDevice ? bytes_to_device_ : bytes_to_host_;
  }

 private:
  std::string name_;
  UartParams params_;
  sc_core::sc_time byte_time_;
  ResourceCalendar to_device_, to_host_;
  std::uint64_t bytes_to_device_ = 0, bytes_to_host_ = 0;
};

}  // namespace rsoc::models
