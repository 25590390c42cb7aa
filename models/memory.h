#pragma once
// Memory: RAM/flash holding bitstreams and data buffers; sparse 64 KiB pages, zero until written.
// Timing contract: an access of w 32-bit words costs (latency_cycles + w * cycles_per_word) memory clock
// cycles added to the annotated delay; a streamed chunk reports w * cycles_per_word as its memory stage.
// Energy (models/energy.h): each word read or written costs its energy, paid by the payload's account.

#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

#include "models/energy.h"
#include "models/statistics.h"

namespace rsoc::models {

// What a memory spends per word (models/energy.h), paid by the payload's account.
struct MemoryEnergy {
  double read_nj_per_word = 0, write_nj_per_word = 0;
};

struct MemoryParams {
  std::uint64_t size_bytes = 1 << 20;
  sc_core::sc_time clock_period{10, sc_core::SC_NS};
  unsigned latency_cycles = 1;   // first word
  unsigned cycles_per_word = 1;  // every word
  std::optional<MemoryEnergy> energy = std::nullopt;  // none: it counts no energy
};

class Memory : public sc_core::sc_module, public StatisticsSource {
 public:
  // StatisticsSource: its counters (models/statistics.h).
  void statistics(double end_ms, std::vector<StatGroup>& out) const override;
  StatisticsRank statistics_rank() const override { return StatisticsRank::kMemory; }
  tlm_utils::simple_target_socket<Memory> target{"target"};

  Memory(const sc_core::sc_module_name& name, const MemoryParams& params);

  // Untimed access for loaders and checks (bitstream images, test data).
  void load(std::uint64_t offset, const std::uint8_t* data, std::size_t length);
  void peek(std::uint64_t offset, std::uint8_t* data, std::size_t length) const;

  const MemoryParams& params() const { return params_; }
  std::uint64_t reads() const { return reads_; }
  std::uint64_t writes() const { return writes_; }
  sc_core::sc_time busy_time() const { return busy_; }
  const EnergySpent& energy() const { return energy_; }

 private:
  static constexpr std::uint64_t kPageBytes = 64 * 1024;
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);
  bool check(tlm::tlm_generic_payload& trans) const;
  void move(tlm::tlm_generic_payload& trans);  // the data of a checked read or write
  void write_bytes(std::uint64_t offset, const std::uint8_t* data, std::size_t length);
  void read_bytes(std::uint64_t offset, std::uint8_t* data, std::size_t length) const;

  MemoryParams params_;
  std::unordered_map<std::uint64_t, std::unique_ptr<std::uint8_t[]>> pages_;
  std::uint64_t reads_ = 0, writes_ = 0;
  sc_core::sc_time busy_{sc_core::SC_ZERO_TIME};
  EnergySpent energy_{EnergyPart::kMemory};
  double read_nj_ = 0, write_nj_ = 0;
};

}  // namespace rsoc::models
