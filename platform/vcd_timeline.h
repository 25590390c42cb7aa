#pragma once
// VcdTimeline: timeline.vcd, waveforms of a window of one run written by SystemC's own tracing
// (sc_create_vcd_trace_file, sc_trace), for GTKWave. Signals: `<slot>.state` for every slot, 2 bits coded as
// models::SlotState (0 empty, 1 configuring, 2 ready, 3 busy: its core computing), and `<bus>.busy` for every
// bus (1 while it carries a transfer, as booked on its calendar).
//
// A SystemC module (not in analysis/, which never runs in the kernel). Loosely timed models know their state
// changes at annotated times ahead of the kernel (within the quantum) and report them here as they happen
// (models/activity.h). A replayer SC_THREAD keeps them in a time-ordered queue and drives the traced signals
// at their times: it waits for one event notified at the earliest pending change, which a report of an
// earlier change re-times (sc_event keeps the earliest of its notifications). A change whose time has already
// passed when it is reported is applied at the kernel's current time: only then do VCD times lag, by at most
// a quantum (rsoc's models report every change of these signals at or ahead of the kernel's time).
//
// Window: changes before its start update the state silently; at the start every signal takes the state of
// that moment (before it, signals hold their initial values: empty, idle); changes from its end on are
// dropped, and the file is closed at the end, so that it ends there (a viewer shows a VCD up to its last
// time). The waveforms also end with the simulation: changes
// booked after the kernel's final time are not drawn. The file's $date is fixed (the wall-clock date SystemC
// writes would make every run's file differ; host.json has the run's time).
//
// SystemC writes the file with stdio and reports no failed write. So it writes into a pipe instead (its file
// is a link to the pipe's write end), and a thread copies the pipe into the real file through an
// analysis::OutputFile, whose every write is checked: a full disk fails close().

#include <cstdint>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <systemc>
#include <vector>

#include "models/activity.h"

namespace rsoc::platform {

// The reports of models/activity.h it draws (platform/timeline.h forwards them).
class VcdTimeline : public sc_core::sc_module {
 public:
  // Creates `<path_stem>.vcd` with a signal per slot and bus lane. During elaboration. Throws
  // analysis::OutputDirError.
  VcdTimeline(const sc_core::sc_module_name& name, const std::string& path_stem,
              const std::vector<models::LaneInfo>& lanes, const sc_core::sc_time& start,
              const sc_core::sc_time& end);
  ~VcdTimeline() override;
  // Closes the file (what is still queued lies after the end of the simulation). Throws
  // analysis::OutputDirError when it could not be written whole.
  void close();

  void bus_transfer(models::Lane bus, std::uint64_t start_ps, std::uint64_t end_ps);
  void configuration_began(models::Lane slot, std::uint64_t at_ps);
  void configuration_ended(models::Lane slot, std::uint64_t at_ps, bool ok);
  void core_work(models::Lane slot, std::uint64_t start_ps, std::uint64_t end_ps);

 private:
  // A change of one lane's state at `at`: a slot's new state, or +1 / -1 transfers on a bus (transfers booked
  // out of order may meet at one instant: counting keeps the bus busy whatever the order of their reports).
  struct Change {
    std::uint64_t at = 0, seq = 0;
    models::Lane lane = 0;
    int value = 0;
    bool operator>(const Change& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void push(std::uint64_t at_ps, models::Lane lane, int value);
  void apply(const Change& c);  // to the state, and to the signal once the window is open
  void open_window();
  void replay();  // SC_THREAD

  class Copy;
  std::unique_ptr<Copy> copy_;
  sc_core::sc_trace_file* file_ = nullptr;
  std::uint64_t start_ps_, end_ps_;
  std::vector<bool> is_bus_;  // by lane
  std::vector<int> state_;    // by lane: slot state, or transfers in progress on a bus
  std::vector<std::unique_ptr<sc_core::sc_signal<sc_dt::sc_uint<2>>>> slot_signals_;  // by lane (or null)
  std::vector<std::unique_ptr<sc_core::sc_signal<bool>>> bus_signals_;                // by lane (or null)
  std::priority_queue<Change, std::vector<Change>, std::greater<Change>> queue_;
  std::uint64_t seq_ = 0;
  bool open_ = false;
  sc_core::sc_event wake_;
};

}  // namespace rsoc::platform
