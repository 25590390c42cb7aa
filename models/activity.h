#pragma once
// ActivitySink: how the models (and the runtime's schedulers) tell an observer what they did and when, for
// timelines of a run (analysis/trace_events.h writes a Chrome/Perfetto trace, platform/vcd_timeline.h a VCD).
// The observer is attached from outside: platform/ calls set_activity() on the models when the scenario asks
// for a timeline. A model without one pays one null-pointer test where it would report, nothing else.
//
// Plain C++ (analysis/ implements it without SystemC): times are picoseconds of simulated time. Lanes are the
// ids platform/ gives the observed resources (see LaneKind). Loosely timed: a report may describe an interval
// ahead of the kernel's time (an initiator running ahead within its quantum), and intervals of one lane may
// be reported out of order by up to a quantum. What a method reports never starts before the kernel's time at
// the moment of the report, unless the method says it is reported when it ends.

#include <cstdint>
#include <string>

namespace rsoc::models {

using Lane = std::uint32_t;

enum class LaneKind { kCpuThread, kProcess, kBus, kConfigPort, kSlot, kDma };

struct LaneInfo {
  LaneKind kind = LaneKind::kBus;
  std::string name;  // "cpu.thread0", a process, a bus, "config_port", a slot, a DMA engine
};

// The pipelined stream (models/stream.h) a bus transfer belongs to: `id` numbers the streams of a process
// (0: an ordinary access); `last` marks the transfers of a stream's last chunk.
struct BurstRef {
  std::uint64_t id = 0;
  bool last = false;
};

class ActivitySink {
 public:
  virtual ~ActivitySink() = default;

  // Bus lanes: the bus carried `words` words during [start, end), booked at kernel time `now` (<= start:
  // nothing is booked before the kernel's time).
  virtual void bus_transfer(Lane bus, std::uint64_t start_ps, std::uint64_t end_ps, std::uint64_t words,
                            BurstRef burst, std::uint64_t now_ps) = 0;
  // Slot lanes: a configuration began at `at` (the slot loses its core and is configuring) ...
  virtual void configuration_began(Lane slot, std::uint64_t at_ps) = 0;
  // ... and ended at `at` with `core` configured (ready), or failed or was aborted (`core` null: empty). A
  // slot that holds a core configured at boot reports an end without a beginning when the sink is attached.
  virtual void configuration_ended(Lane slot, std::uint64_t at_ps, const std::string* core) = 0;
  // Slot lanes: the hosted core computed during [start, end) ("init", "block" or "stream": the blocks one
  // write to its input FIFO completes).
  virtual void core_work(Lane slot, const char* operation, std::uint64_t start_ps, std::uint64_t end_ps) = 0;
  // The configuration port's lane: one configuration of `slot` from START to its last word, `words`
  // bitstream words received. Reported when it ends.
  virtual void port_configuration(Lane port, const std::string& slot, std::uint64_t start_ps,
                                  std::uint64_t end_ps, std::uint64_t words, bool ok) = 0;
  // DMA lanes: one transfer from START to its last word; `bottleneck` names the slowest stage of its last
  // chunk. Reported when it ends.
  virtual void dma_transfer(Lane dma, std::uint64_t start_ps, std::uint64_t end_ps, std::uint64_t words,
                            const std::string& bottleneck, bool ok) = 0;
  // CPU-thread lanes: `process` held the hardware thread during [start, end) (computing, or stalled on its
  // device accesses). Reported when it ends.
  virtual void process_ran(Lane cpu_thread, const std::string& process, std::uint64_t start_ps,
                           std::uint64_t end_ps) = 0;
  // A fault (models/faults.h) or a repair at `at`, on the lane of what it hit: a slot ("hang", "upset",
  // "repair": a scrub ended an upset, "configuration error": a bitstream failed the slot's check), a bus
  // ("bus error"). An upset is reported when it ends (repaired, or its core configured over), with its
  // repair.
  virtual void fault(Lane lane, const char* what, std::uint64_t at_ps) = 0;
};

// Where a model reports its activity: a sink and the model's lane in it (no sink: nothing is reported, at the
// cost of one test). `if (activity_) activity_->fault(activity_.lane, ...)`.
struct ActivityReport {
  ActivitySink* sink = nullptr;
  Lane lane = 0;
  explicit operator bool() const { return sink != nullptr; }
  ActivitySink* operator->() const { return sink; }
};

}  // namespace rsoc::models
