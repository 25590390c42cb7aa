#pragma once
// The OS scheduler of one CPU hardware thread: processes with priorities, preemptive round-robin time slices
// among equal priorities (or a cooperative mode in which a process runs until it yields, sleeps or ends), and
// accounting of every cycle the CPU spends for each process.
// Timing contract: a process alone on the thread computes in loosely-timed mode (no kernel event); as soon as
// another process exists, compute() is one timed wait per slice that a higher-priority arrival (or an equal
// one at the slice end) can cut short. A switch to another process costs context_switch_cycles CPU cycles.
// Timelines: every interval a process holds the hardware thread (from acquiring it to releasing it) is
// reported to an attached ActivitySink when it ends.

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/activity.h"
#include "models/soft_cpu.h"

namespace rsoc::runtime {

enum class SchedulingMode { kPreemptive, kCooperative };

struct SchedulerParams {
  SchedulingMode mode = SchedulingMode::kPreemptive;
  sc_core::sc_time time_slice{10, sc_core::SC_MS};
  std::uint64_t context_switch_cycles = 0;
};

class Scheduler;

class Process {
 public:
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
  // Gives the CPU to the next ready process of the same or higher priority, if any.
  void yield();
  // Releases the CPU for `t` (sleep) or until `event` (blocking I/O, interrupts).
  void sleep(const sc_core::sc_time& t);
  void wait_for(const sc_core::sc_event& event);

  // When the process last asked for the CPU (after a sleep or a wait): a request it issues as soon as it runs
  // was really issued then, and the time until it got the CPU is queueing.
  sc_core::sc_time ready_since() const { return ready_since_; }
  sc_core::sc_time cpu_time() const { return cpu_time_; }
  std::uint64_t preemptions() const { return preemptions_; }

 private:
  friend class Scheduler;
  void preempt();                // give the CPU to the process that must run now
  void switch_away(bool front);  // release, queue again (at the front of its priority or the back), reacquire
  Process(Scheduler& sched, std::string name, int priority)
      : sched_(sched), name_(std::move(name)), priority_(priority) {}

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
  // Reports the intervals each process holds the hardware thread to `sink` on `lane` (null: none).
  void set_activity(models::ActivitySink* sink, models::Lane lane) {
    activity_ = sink;
    activity_lane_ = lane;
  }

 private:
  friend class Process;
  void acquire(Process& p);      // returns when p holds the CPU
  void on_acquired(Process& p);  // context switch accounting, new slice
  void release(Process& p);      // p gives the CPU away (sleeping, waiting, done)
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
  std::uint64_t switches_ = 0;
  models::ActivitySink* activity_ = nullptr;
  models::Lane activity_lane_ = 0;
};

}  // namespace rsoc::runtime
