#pragma once
// The OS scheduler of one or more CPU hardware threads (of one or several CPUs): processes with priorities
// and an affinity (the threads each may run on), one global run queue, preemptive round-robin time slices
// among equal priorities (or a cooperative mode in which a process runs until it yields, sleeps or ends), and
// accounting of every cycle each thread spends for each process.
// Time slices (preemptive mode) are SCHED_RR's (POSIX, Linux): a slice is CPU time held, not time since the
// process last got the CPU. A process's slice runs out after time_slice of its own CPU time and is refilled
// then; it runs on in a new one unless another process of its priority waits for its thread, in which case it
// goes to the back of its priority's queue. A process preempted by a higher priority goes back to the head of
// its priority's queue and, when it runs again, completes the unexpired part of its slice; one that sleeps,
// waits or yields keeps what is left of its slice too (Linux keeps the slice across blocking).
// Placement: a process that asks for the CPU takes a free thread it may run on (the one it last ran on when
// that is free, else the first free one in the scheduler's order); with none free it queues, and a higher
// priority takes the thread of the lowest-priority process running where it may run (the first such thread
// on a tie) unless another arrival has claimed it already. A thread that becomes free runs the first queued
// process that may run on it (highest priority first, first come first served within a priority). A process
// migrates between threads only when it gives its thread away and takes another (preempted, yielding,
// sleeping, waiting): its time continues on the new thread from the kernel's time, since every release
// synchronises the thread it leaves (no time skipped, none run twice) — or, for a cooperative switch on a
// thread no other thread's speed depends on, when nothing else in the kernel is due before the yielding
// process's time, hands that time to the process it switches to (woken then: one kernel event a switch).
// A yield looks at the run queue as the kernel stands at the process's time (it synchronises only when
// something is due by then), and a process notifies its waiters at its own time (Process::notify).
// Timing contract: a process computes at the clock of the CPU it runs on, and its device accesses go through
// that CPU's hardware thread (Process::cpu()). A process that no other live process may ever displace (the
// only one that may run on its thread, or every live process may run anywhere and there are no more of them
// than threads) computes in loosely-timed mode (no kernel event); otherwise compute() is one timed wait per
// slice that a higher-priority arrival (or an equal one at the slice end) can cut short. A switch to another
// process on a thread costs context_switch_cycles cycles of that thread's CPU.
// Timelines: every interval a process holds a hardware thread (from acquiring it to releasing it) is
// reported to an attached ActivitySink on that thread's lane when it ends.
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
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/activity.h"
#include "models/name_table.h"
#include "models/soft_cpu.h"
#include "models/statistics.h"
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

  // `cycles` of computation on the CPU, shared with other processes as the scheduler says (at the clock of
  // the CPU it runs on, which may change when it is preempted). `smt_throughput` > 0: the code's own gain
  // from the hardware threads of a shared core (models::CpuThread::compute).
  void compute(std::uint64_t cycles, double smt_throughput = 0);
  // The CPU hardware thread the process holds, for device accesses (MMIO, copies). Only between acquire
  // points: the process holds the CPU while it is not sleeping or waiting; device work is not preempted until
  // preemption_point(). The thread may differ after any point where the process can give its thread away
  // (compute(), preemption_point(), poll_pause(), yield(), sleep(), wait_for()): ask again after one.
  models::CpuThread& cpu();
  // Between two pieces of driver work: the scheduler may switch to another process here.
  void preemption_point();
  // The local time before which preemption_point() switches to nobody as long as the process does not let
  // the kernel run (no synchronisation): driver work that ends earlier may skip its preemption points.
  sc_core::sc_time preemption_free_until() const;
  // Whether another process could ever take its CPU thread (a process that may not: nothing preempts it).
  bool may_be_preempted() const;
  // Waiting for a device in a poll loop: cooperative mode gives the CPU to the next ready process; preemptive
  // mode is a preemption point.
  void poll_pause();
  // Gives the CPU to the next ready process of the same or higher priority that may run on its thread, if any
  // (after yield_cycles of its own).
  void yield();
  // Releases the CPU for `t` (sleep; the time counts as kAsleep) or until `event` (blocking I/O, interrupts;
  // the time asleep counts as `use`, then as kCpuWait until the process holds the CPU again). Code that runs
  // a request names what it waits for: a request contains no kAsleep time.
  void sleep(const sc_core::sc_time& t);
  void wait_for(const sc_core::sc_event& event, TimeUse use = TimeUse::kAsleep);
  // The same, for at most `timeout` (a watchdog); returns false when it ran out before `event`.
  bool wait_for(const sc_core::sc_event& event, const sc_core::sc_time& timeout, TimeUse use);
  // Notifies `event` at the process's time: its thread synchronises first, since a notification made at the
  // kernel's time would reach the processes waiting for it before this process got there. While an exception
  // is handled or unwinds, a timed notification at that time instead (no switch to other processes there).
  void notify(sc_core::sc_event& event);

  // The ledger up to now (the open segment included).
  Ledger spent() const;
  // Counts `t`, which the ledger has counted as `from` (the caller measured it), as `to` instead.
  void recount(TimeUse from, TimeUse to, const sc_core::sc_time& t);
  // What the process spent on each use of `from` between two readings of its ledger counts as `to` instead
  // (a spin for a lock or a core: its computing and its waits for the CPU were waiting for the resource).
  void recount_between(const Ledger& before, const Ledger& after, std::initializer_list<TimeUse> from,
                       TimeUse to) {
    for (const TimeUse use : from) {
      const auto i = static_cast<std::size_t>(use);
      recount(use, to, sc_core::sc_time::from_value(after[i] - before[i]));
    }
  }

  // When the process last asked for the CPU (after a sleep or a wait): a request it issues as soon as it runs
  // was really issued then, and the time until it got the CPU is queueing.
  sc_core::sc_time ready_since() const { return ready_since_; }
  sc_core::sc_time cpu_time() const;  // the time it has held a thread, up to now
  std::uint64_t preemptions() const { return preemptions_; }
  std::uint64_t migrations() const { return migrations_; }  // times it resumed on another thread
  // Picoseconds it has held each of the scheduler's threads, up to now (from acquiring a thread, after the
  // context switch, to releasing it).
  std::vector<std::uint64_t> held_ps() const;
  // Energy (models/energy.h) spent for it up to now: what the models charged to its account (its accesses,
  // the DMA transfers and configurations it started, the cores' work), and what each CPU thread it held added
  // to its CPU's power (busy_thread_mw over the time held). Zero without an energy model.
  models::EnergyAccount energy() const;
  // Whether it may run on the scheduler's thread `t`.
  bool may_run_on(unsigned t) const { return allowed_.empty() || (t < allowed_.size() && allowed_[t]); }

 private:
  friend class Scheduler;
  // What the open segment of the ledger is.
  enum class Activity { kHolding, kQueued, kAsleep };
  void preempt();                // give the CPU to the process that must run now
  void switch_away(bool front);  // release, queue again (at the front of its priority or the back), reacquire
  Process(Scheduler& sched, std::string name, int priority, std::vector<bool> allowed)
      : sched_(sched), name_(std::move(name)), priority_(priority), allowed_(std::move(allowed)) {}
  // Closes the open segment at `now_ps` (counting it) and opens one of `next`.
  void mark(Activity next, std::uint64_t now_ps);
  // Adds the open segment, from its start to `now_ps`, to `ledger`.
  void count_open_segment(Ledger& ledger, std::uint64_t now_ps) const;
  std::uint64_t now_ps() const;  // the process's time: the CPU thread's while it holds the CPU
  bool holding() const;          // it holds thread_

  Scheduler& sched_;
  std::string name_;
  int priority_;
  std::vector<bool> allowed_;    // by scheduler thread; empty: every thread
  unsigned thread_ = 0;          // the thread it holds, or last held (or will hold, once dispatched)
  bool ran_ = false;             // it has held a thread
  sc_core::sc_event wake_;       // the scheduler gave this process the CPU
  sc_core::sc_event interrupt_;  // someone who may preempt became ready
  sc_core::sc_time cpu_time_{sc_core::SC_ZERO_TIME};
  sc_core::sc_time held_since_{sc_core::SC_ZERO_TIME};  // when it last got its thread (after the switch)
  sc_core::sc_time slice_used_{sc_core::SC_ZERO_TIME};  // CPU time of its current slice used before then
  sc_core::sc_time ready_since_{sc_core::SC_ZERO_TIME};
  sc_core::sc_time queued_since_{sc_core::SC_ZERO_TIME};  // when it last entered the run queue
  std::uint64_t preemptions_ = 0, migrations_ = 0;
  std::vector<std::uint64_t> held_ps_;  // by thread, closed holding intervals
  models::EnergyAccount account_;       // what the models charged to it (its threads' payer)
  bool done_ = false;
  // The ledger: closed segments, and the open one (its start; the CPU thread's io time then; what it is).
  Ledger spent_{};
  std::uint64_t segment_start_ps_ = 0, segment_io_ps_ = 0;
  Activity activity_ = Activity::kAsleep;
  TimeUse asleep_as_ = TimeUse::kAsleep;
  std::optional<TimeUse> counting_as_;  // a Counting guard's use
};

class Scheduler final : public models::StatisticsSource {
 public:
  // The OS of `threads` (at least one; the scheduler's thread t is threads[t]).
  Scheduler(std::vector<models::CpuThread*> threads, const SchedulerParams& params);
  // The OS of one hardware thread.
  Scheduler(models::CpuThread& cpu, const SchedulerParams& params)
      : Scheduler(std::vector<models::CpuThread*>{&cpu}, params) {}

  // A process that runs `body` from `start` (it asks for the CPU first), on the threads `affinity` lists
  // (indices into the scheduler's threads; empty: any). Call before or during simulation. Throws
  // std::invalid_argument for a thread the scheduler does not have.
  Process& spawn(const std::string& name, int priority, std::function<void(Process&)> body,
                 const sc_core::sc_time& start = sc_core::SC_ZERO_TIME,
                 const std::vector<unsigned>& affinity = {});

  const SchedulerParams& params() const { return params_; }
  unsigned thread_count() const { return static_cast<unsigned>(threads_.size()); }
  models::CpuThread& cpu(unsigned t = 0) { return *threads_.at(t).cpu; }
  const std::vector<std::unique_ptr<Process>>& processes() const { return processes_; }
  // CPU time thread `t` gave processes and context switches, up to now.
  sc_core::sc_time busy_time(unsigned t) const;
  std::uint64_t context_switches(unsigned t) const { return threads_.at(t).switches; }
  std::uint64_t yields(unsigned t) const { return threads_.at(t).yields; }  // Process::yield() calls there
  // The same, summed over every thread.
  sc_core::sc_time busy_time() const;
  std::uint64_t context_switches() const;
  std::uint64_t yields() const;
  // StatisticsSource: a group per hardware thread (`scheduler.<cpu>.threadN`) and one per process.
  void statistics(double end_ms, std::vector<models::StatGroup>& out) const override;
  models::StatisticsRank statistics_rank() const override { return models::StatisticsRank::kScheduler; }
  // Whether a CPU of its threads has a power model (models/energy.h): processes' energy is then measured.
  bool measures_energy() const;
  // Reports the intervals each process holds thread `t` to `sink` on `lane` (null: none).
  void set_activity(unsigned t, models::ActivitySink* sink, models::Lane lane) {
    threads_.at(t).activity = sink;
    threads_.at(t).lane = lane;
  }

 private:
  friend class Process;
  struct Thread {
    models::CpuThread* cpu = nullptr;
    Process* running = nullptr;     // holds the thread (or was dispatched to it)
    Process* last = nullptr;        // the last process that held it: another one pays a context switch
    Process* claimed_by = nullptr;  // a higher-priority arrival that takes it from `running`
    unsigned live = 0;              // live processes that may run on it
    sc_core::sc_time held{sc_core::SC_ZERO_TIME};
    std::uint64_t switches = 0, yields = 0;
    models::ActivitySink* activity = nullptr;
    models::Lane lane = 0;
  };

  void acquire(Process& p);      // returns when p holds a thread
  void on_acquired(Process& p);  // context switch accounting, new slice
  void release(Process& p,
               Process::Activity next);  // p gives its thread away (asleep, done, or queued again)
  // p (ready, holding nothing) takes a free thread it may run on, or queues and claims one; `left`: the
  // thread it just gave away (no claim or notification there).
  void place(Process& p, bool front, std::optional<unsigned> left);
  void requeue(Process& p, bool front);
  void run_on(Process& p, unsigned t);  // p gets thread t
  void claim(Process& p, std::optional<unsigned> left);
  void claim_for_waiting();                   // queued processes without a claim try again (after a dispatch)
  Process* next_for(unsigned t) const;        // the first queued process that may run on thread t
  bool should_yield(const Process& p) const;  // someone must run instead of p now
  bool contended(const Process& p) const;     // another process could ever displace p from its thread
  // Thread t (free) runs the first queued process that may run on it, woken `lead` from now.
  void dispatch(unsigned t, const sc_core::sc_time& lead = sc_core::SC_ZERO_TIME);
  bool hands_over(const Process& p) const;  // release(p, kQueued) passes the thread's time on (no sync)
  // Whether a process may take thread `th` ahead of the kernel's time (its context switch not synchronised).
  bool loose_switches(const Thread& th) const;
  // The local time at which p's slice runs out with another process of its priority waiting for its thread
  // (the first expiry since the earliest of them queued; earlier expiries refilled the slice), or
  // sc_max_time() when none waits.
  sc_core::sc_time slice_end(const Process& p) const;
  // The first queued process of p's priority that may run on p's thread and queued earliest, if any.
  const Process* equal_waiter(const Process& p) const;
  Thread& thread_of(const Process& p) { return threads_[p.thread_]; }
  const Thread& thread_of(const Process& p) const { return threads_[p.thread_]; }

  std::vector<Thread> threads_;
  SchedulerParams params_;
  std::vector<std::unique_ptr<Process>> processes_;
  std::deque<Process*> ready_;  // highest priority first, FIFO within a priority
  unsigned live_ = 0;           // processes not done
  unsigned live_anywhere_ = 0;  // of which may run on every thread
};

}  // namespace rsoc::runtime
