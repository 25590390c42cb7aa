#include "models/uart.h"

#include <stdexcept>

#include "models/kernel_time.h"

namespace rsoc::models {

namespace {
sc_core::sc_time byte_time_of(const UartParams& params) {
  if (!(params.baud > 0) || params.bits_per_byte == 0)
    throw std::invalid_argument("uart: baud and bits must be > 0");
  return seconds(static_cast<double>(params.bits_per_byte) / params.baud, "a byte on the UART");
}
}  // namespace

Uart::Uart(std::string name, const UartParams& params)
    : name_(std::move(name)), params_(params), byte_time_(byte_time_of(params)) {}

sc_core::sc_time Uart::transfer(Direction direction, std::uint64_t bytes, const sc_core::sc_time& at) {
  ResourceCalendar& line = direction == Direction::kToDevice ? to_device_ : to_host_;
  (direction == Direction::kToDevice ? bytes_to_device_ : bytes_to_host_) += bytes;
  const sc_core::sc_time duration = periods(byte_time_, static_cast<double>(bytes), "a transfer on the UART");
  return line.reserve(at, duration) + duration;
}

void Uart::statistics(double end_ms, std::vector<StatGroup>& out) const {
  for (auto direction : {Direction::kToDevice, Direction::kToHost}) {
    const bool in = direction == Direction::kToDevice;
    const double busy = to_ms(line(direction).busy_time());
    StatGroup g{"uart." + name() + (in ? ".to_device" : ".to_host"), "uart", {}};
    g.add_busy(busy, end_ms, "time the line carried bytes")
        .add("bytes", static_cast<double>(bytes(direction)), "bytes", "bytes carried")
        .add("wait_ms", to_ms(line(direction).wait_time()), "ms", "time senders waited for the line");
    out.push_back(g);
  }
}
}  // namespace rsoc::models
