#pragma once
// Drivers of the modeled OS: code that runs on a CPU hardware thread and moves data to and from devices over
// TLM. Their cost is what they do: every MMIO word goes through the bus models, every status poll is a read,
// and the per-request / per-block software overhead is charged as CPU cycles.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/dma_engine.h"
#include "models/soft_cpu.h"
#include "runtime/functionality.h"
#include "runtime/scheduler.h"

namespace rsoc::runtime {

struct DriverCosts {                     // CPU cycles
  std::uint64_t cycles_per_request = 0;  // system call, locking, setup
  std::uint64_t cycles_per_block = 0;    // loop, buffer handling per block
  std::uint64_t poll_loop_cycles = 0;    // software around each status read
  std::uint64_t max_polls = 1000000;     // a core that never answers fails the request
};

class DriverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Programmed-I/O driver of the cores (register maps in models/ip_core.h, programmed as core_interface() of the
// functionality says): loads the key and runs INIT when the core holds another key or direction, then for
// every block writes it, starts the core, polls STATUS and reads the result.
class CoreDriver {
 public:
  explicit CoreDriver(const DriverCosts& costs) : costs_(costs) {}
  // Processes `data` (whole blocks) on the core at `base` for process `p`; returns the output. Between blocks
  // and between status polls the scheduler may run another process. Throws BusError or DriverError.
  std::vector<std::uint8_t> run(Process& p, std::uint64_t base, Functionality f,
                                const std::vector<std::uint8_t>& key, const std::vector<std::uint8_t>& data,
                                bool encrypt);
  std::uint64_t polls() const { return polls_; }
  // The core at `base` was (re)configured: it holds no key any more.
  void forget(std::uint64_t base) { loaded_.erase(base); }

 private:
  struct Loaded {
    Functionality f;
    std::vector<std::uint8_t> key;
    bool encrypt;
  };
  void wait_status(Process& p, std::uint64_t base, std::uint32_t mask);
  DriverCosts costs_;
  std::uint64_t polls_ = 0;
  // What each core holds: the driver loads the key, the direction and runs INIT only when they change.
  std::map<std::uint64_t, Loaded> loaded_;
};

// How bitstream words reach the configuration port.
struct ReconfigurationFeed {
  bool dma = false;
  unsigned cpu_copy_cycles_per_word = 120;  // CPU copy loop
  std::uint64_t dma_base = 0;               // DMA registers, when dma
  models::DmaEngine* engine = nullptr;      // its interrupt line
};

class ReconfigurationDriver {
 public:
  ReconfigurationDriver(std::uint64_t port_base, const ReconfigurationFeed& feed)
      : port_(port_base), feed_(feed) {}
  // Configures slot `slot_index` (its index at the port) with the bitstream at `address` of `bytes` bytes. A
  // CPU copy keeps the CPU busy; with DMA the process sleeps until the interrupt. Returns false with `error`
  // set when the port reports an error.
  bool configure(Process& p, unsigned slot_index, std::uint64_t address, std::uint64_t bytes,
                 std::string* error) const;

 private:
  std::uint64_t port_;
  ReconfigurationFeed feed_;
};

}  // namespace rsoc::runtime
