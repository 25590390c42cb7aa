#pragma once
// The OS scheduler of one CPU hardware thread: processes with priorities, preemptive round-robin time slices
// among equal priorities (or a cooperative mode in which a process runs until it yields, sleeps or ends), and
// accounting of every cycle the CPU spends for each process.
// Timing contract: a process alone on the thread computes in loosely-timed mode (no kernel event); as soon as
// another process exists, compute() is one timed wait per slice that a higher-priority arrival (or an equal
// one at the slice end) can cut short. A switch to another process costs context_switch_cycles CPU cycles.
// Timelines: every interval a process holds the hardware thread (from acquiring it to releasing it) is
// reported to an attached ActivitySink when it ends.
//
// Where a process's time goes (its ledger, read with Process::spent()): the process's time is cut into
// segments at every scheduler transition (it asks for the CPU, gets it, gives it away) and wherever its
// attribution changes; each segment is counted once, under one TimeUse, so two readings of the ledger differ
// by exactly the time between them (integer picoseconds). A segment counts as:
//   holding the CPU    kCpuIo for the CPU thread's device-access time within it (MMIO, FMC NWAIT polls and
//                      byte swaps, copy loops), kCpuCompute for the rest: while a process holds the CPU its
//                      time advances only in CpuThread::compute()/charge() and in device accesses, so the
//                      rest is exactly its computing;
//   queued             kCpuWait: from asking for the CPU (after a sleep or a wait, preempted, yielding)
//                      until it holds it, the context switch included;
//   asleep             from giving the CPU away until its event: the use wait_for() names (kSlotWait,
//                      kBusTransfer), kAsleep for sleep() and before the process starts;
// unless a Counting guard is alive: then every segment counts as its use (a reconfiguration). recount() moves
// time the caller measured from the use it was counted as to the one it belongs to (a status read that found
// the core busy: kCpuIo -> kCoreCompute; the part of a DMA transfer the core took: kBusTransfer ->
// kCoreCompute).

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/activity.h"
#include "models/name_table.h"
#include "models/soft_cpu.h"
#include "runtime/request_record.h"

namespace rsoc::runtime {

enum class SchedulingMode { kPreemptive, kCooperative };
inline constexpr models::NameTable<SchedulingMode, 2> kSchedulingModeNames{
    {{{SchedulingMode::kPreemptive, "preemptive"}, {SchedulingMode::kCooperative, "cooperative"}}}};

struct SchedulerParams {
  SchedulingMode mode = SchedulingMode::kPreemptive;
  sc_core::sc_time time_slice{10, sc_core::SC_MS};
  std::uint64_t context_switch_cycles = 0;
  // CPU cycles of a yield itself, whether or not it switches (a cooperative tasker scanning its task list);
  // a yield that switches costs context_switch_cycles more.
  std::uint64_t yield_cycles = 0;
};

class Scheduler;

class Process {
 public:
  // Picoseconds spent on each use (TimeUse order, kAsleep last) since the simulation started.
  using Ledger = std::array<std::uint64_t, kRequestTimeUses + 1>;

  // While alive, every segment of the process's time counts as `use`, whatever the process does.
  class Counting {
   public:
    Counting(Process& p, TimeUse use);
    ~Counting();
    Counting(const Counting&) = delete;
    Counting& operator=(const Counting&) = delete;

   private:
    Process& p_;
    std::optional<TimeUse> previous_;
  };

  const std::string& name() const { return name_; }
  int priority() const { return priority_; }
  Scheduler& scheduler() { return sched_; }

  // `cycles` of computation on the CPU, shared with other processes as the scheduler says.
  void compute(std::uint64_t cycles);
  // The CPU hardware thread, for device accesses (MMIO, copies). Only between acquire points: the process
  // holds the CPU while it is not sleeping or waiting; device work is not preempted until preemption_point().
  models::CpuThread& cpu();
  // Between two pieces of driver work: the scheduler may switch to another process here.
  void preemption_point();
  // Waiting for a device in a poll loop: cooperative mode gives the CPU to the next ready process; preemptive
  // mode is a preemption point.
  void poll_pause();
  // Gives the CPU to the next ready process of the same or higher priority, if any (after yield_cycles of its
  // own).
  void yield();
  // Releases the CPU for `t` (sleep; the time counts as kAsleep) or until `event` (blocking I/O, interrupts;
  // the time asleep counts as `use`, then as kCpuWait until the process holds the CPU again). Code that runs
  // a request names what it waits for: a request contains no kAsleep time.
  void sleep(const sc_core::sc_time& t);
  void wait_for(const sc_core::sc_event& event, TimeUse use = TimeUse::kAsleep);

  // The ledger up to now (the open segment included).
  Ledger spent() const;
  // Counts `t`, which the ledger has counted as `from` (the caller measured it), as `to` instead.
  void recount(TimeUse from, TimeUse to, const sc_core::sc_time& t);

  // When the process last asked for the CPU (after a sleep or a wait): a request it issues as soon as it runs
  // was really issued then, and the time until it got the CPU is queueing.
  sc_core::sc_time ready_since() const { return ready_since_; }
  sc_core::sc_time cpu_time() const { return cpu_time_; }
  std::uint64_t preemptions() const { return preemptions_; }

 private:
  friend class Scheduler;
  // What the open segment of the ledger is.
  enum class Activity { kHolding, kQueued, kAsleep };
  void preempt();                // give the CPU to the process that must run now
  void switch_away(bool front);  // release, queue again (at the front of its priority or the back), reacquire
  Process(Scheduler& sched, std::string name, int priority)
      : sched_(sched), name_(std::move(name)), priority_(priority) {}
  // Closes the open segment at `now_ps` (counting it) and opens one of `next`.
  void mark(Activity next, std::uint64_t now_ps);
  // Adds the open segment, from its start to `now_ps`, to `ledger`.
  void count_open_segment(Ledger& ledger, std::uint64_t now_ps) const;
  std::uint64_t now_ps() const;  // the process's time: the CPU thread's while it holds the CPU

  Scheduler& sched_;
  std::string name_;
  int priority_;
  sc_core::sc_event wake_;       // the scheduler gave this process the CPU
  sc_core::sc_event interrupt_;  // someone who may preempt became ready
  sc_core::sc_time cpu_time_{sc_core::SC_ZERO_TIME};
  sc_core::sc_time slice_start_{sc_core::SC_ZERO_TIME};
  sc_core::sc_time ready_since_{sc_core::SC_ZERO_TIME};
  std::uint64_t preemptions_ = 0;
  bool done_ = false;
  // The ledger: closed segments, and the open one (its start; the CPU thread's io time then; what it is).
  Ledger spent_{};
  std::uint64_t segment_start_ps_ = 0, segment_io_ps_ = 0;
  Activity activity_ = Activity::kAsleep;
  TimeUse asleep_as_ = TimeUse::kAsleep;
  std::optional<TimeUse> counting_as_;  // a Counting guard's use
};

class Scheduler {
 public:
  Scheduler(models::CpuThread& cpu, const SchedulerParams& params);

  // A process that runs `body` from `start` (it asks for the CPU first). Call before or during simulation.
  Process& spawn(const std::string& name, int priority, std::function<void(Process&)> body,
                 const sc_core::sc_time& start = sc_core::SC_ZERO_TIME);

  const SchedulerParams& params() const { return params_; }
  models::CpuThread& cpu() { return cpu_; }
  const std::vector<std::unique_ptr<Process>>& processes() const { return processes_; }
  sc_core::sc_time busy_time() const;
  std::uint64_t context_switches() const { return switches_; }
  std::uint64_t yields() const { return yields_; }  // Process::yield() calls, switching or not
  // Reports the intervals each process holds the hardware thread to `sink` on `lane` (null: none).
  void set_activity(models::ActivitySink* sink, models::Lane lane) {
    activity_ = sink;
    activity_lane_ = lane;
  }

 private:
  friend class Process;
  void acquire(Process& p);                          // returns when p holds the CPU
  void on_acquired(Process& p);                      // context switch accounting, new slice
  void release(Process& p, Process::Activity next);  // p gives the CPU away (asleep, done, or queued again)
  void requeue(Process& p, bool front);
  bool should_yield(const Process& p) const;  // someone must run instead of p now
  bool contended(const Process& p) const;     // another process exists that could want the CPU
  void dispatch();
  sc_core::sc_time slice_left(const Process& p) const;

  models::CpuThread& cpu_;
  SchedulerParams params_;
  std::vector<std::unique_ptr<Process>> processes_;
  std::deque<Process*> ready_;  // highest priority first, FIFO within a priority
  Process* running_ = nullptr;
  Process* last_ = nullptr;
  unsigned live_ = 0;  // processes not done
  std::uint64_t switches_ = 0, yields_ = 0;
  models::ActivitySink* activity_ = nullptr;
  models::Lane activity_lane_ = 0;
};

}  // namespace rsoc::runtime
