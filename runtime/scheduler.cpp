#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "runtime/scheduler.h"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "models/kernel_time.h"

namespace rsoc::runtime {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

Scheduler::Scheduler(std::vector<models::CpuThread*> threads, const SchedulerParams& params)
    : params_(params) {
  if (threads.empty()) throw std::invalid_argument("a scheduler needs at least one hardware thread");
  for (models::CpuThread* t : threads) {
    threads_.emplace_back();
    threads_.back().cpu = t;
  }
}

Process& Scheduler::spawn(const std::string& name, int priority, std::function<void(Process&)> body,
                          const sc_time& start, const std::vector<unsigned>& affinity) {
  std::vector<bool> allowed;
  if (!affinity.empty()) {
    allowed.assign(threads_.size(), false);
    for (unsigned t : affinity) {
      if (t >= threads_.size())
        throw std::invalid_argument(name + ": no hardware thread " + std::to_string(t) +
                                    " (the scheduler has " + std::to_string(threads_.size()) + ")");
      allowed[t] = true;
    }
    if (std::all_of(allowed.begin(), allowed.end(), [](bool a) { return a; })) allowed.clear();
  }
  processes_.push_back(std::unique_ptr<Process>(new Process(*this, name, priority, std::move(allowed))));
  Process& p = *processes_.back();
  ++live_;
  if (p.allowed_.empty()) ++live_anywhere_;
  for (unsigned t = 0; t < threads_.size(); ++t)
    if (p.may_run_on(t)) ++threads_[t].live;
  // Its first thread, for the ledger's reads before it runs: one it may run on.
  while (!p.may_run_on(p.thread_)) ++p.thread_;
  sc_core::sc_spawn(
      [this, &p, body = std::move(body), start] {
        if (start != SC_ZERO_TIME) sc_core::wait(start);
        acquire(p);
        body(p);
        thread_of(p).cpu->sync();
        p.done_ = true;
        --live_;
        if (p.allowed_.empty()) --live_anywhere_;
        for (unsigned t = 0; t < threads_.size(); ++t)
          if (p.may_run_on(t)) --threads_[t].live;
        p.asleep_as_ = TimeUse::kAsleep;
        release(p, Process::Activity::kAsleep);
      },
      name.c_str());
  return p;
}

sc_time Scheduler::busy_time(unsigned t) const {
  const Thread& th = threads_.at(t);
  sc_time held = th.held;
  if (th.running && th.running->activity_ == Process::Activity::kHolding)  // the open interval
    held += th.cpu->now() - th.running->held_since_;
  return th.cpu->cpu().cycles(th.switches * params_.context_switch_cycles) + held;
}

sc_time Scheduler::busy_time() const {
  sc_time sum = SC_ZERO_TIME;
  for (unsigned t = 0; t < threads_.size(); ++t) sum += busy_time(t);
  return sum;
}

void Scheduler::statistics(double end_ms, std::vector<models::StatGroup>& out) const {
  for (unsigned t = 0; t < threads_.size(); ++t) {
    const models::CpuThread& cpu = *threads_[t].cpu;
    models::StatGroup g{
        "scheduler." + std::string(cpu.cpu().name()) + ".thread" + std::to_string(cpu.index()),
        "scheduler",
        {}};
    g.add_busy(models::to_ms(busy_time(t)), end_ms, "CPU time given to processes and context switches")
        .add("context_switches", static_cast<double>(threads_[t].switches), "count",
             "switches between processes")
        .add("yields", static_cast<double>(threads_[t].yields), "count",
             "times a process offered the CPU to others (cooperative polling, spinning), switching or not");
    out.push_back(std::move(g));
  }
  const bool energy_on = measures_energy();
  for (const auto& proc : processes_) {
    models::StatGroup g{"process." + proc->name(), "process", {}};
    g.add("cpu_ms", models::to_ms(proc->cpu_time()), "ms",
          "CPU time it used (compute, driver work, device stalls)")
        .add("cpu_share", models::utilization(models::to_ms(proc->cpu_time()), end_ms), "ratio",
             "CPU time over simulated time")
        .add("preemptions", static_cast<double>(proc->preemptions()), "count", "times it was preempted")
        .add("migrations", static_cast<double>(proc->migrations()), "count",
             "times it resumed on another hardware thread than the one it last ran on");
    if (energy_on)
      g.add("energy_mj", proc->energy().total_nj() * 1e-6, "mJ",
            "energy spent for it: its CPU time above idle, its accesses, transfers, configurations and the "
            "cores' work it started");
    out.push_back(std::move(g));
  }
}

std::uint64_t Scheduler::context_switches() const {
  std::uint64_t sum = 0;
  for (const Thread& t : threads_) sum += t.switches;
  return sum;
}

std::uint64_t Scheduler::yields() const {
  std::uint64_t sum = 0;
  for (const Thread& t : threads_) sum += t.yields;
  return sum;
}

bool Scheduler::contended(const Process& p) const {
  if (params_.mode != SchedulingMode::kPreemptive) return false;
  // Nobody ever queues when every live process may run anywhere and each can have a thread of its own.
  if (live_anywhere_ == live_ && live_ <= threads_.size()) return false;
  return thread_of(p).live > 1;
}

const Process* Scheduler::equal_waiter(const Process& p) const {
  const Process* first = nullptr;
  for (const Process* q : ready_) {
    if (q->priority_ < p.priority_) break;  // highest priority first
    if (q->priority_ == p.priority_ && q->may_run_on(p.thread_) &&
        (!first || q->queued_since_ < first->queued_since_))
      first = q;
  }
  return first;
}

sc_time Scheduler::slice_end(const Process& p) const {
  const Process* waiter = equal_waiter(p);
  if (!waiter) return sc_core::sc_max_time();
  // The slice's expiries fall at every multiple of time_slice of the CPU time p used since its slice last
  // began; those before the waiter queued refilled it with nobody to switch to.
  const std::uint64_t slice = params_.time_slice.value();
  const std::uint64_t used_before = p.slice_used_.value();
  const std::uint64_t used_then =
      used_before +
      (waiter->queued_since_ > p.held_since_ ? (waiter->queued_since_ - p.held_since_).value() : 0);
  const std::uint64_t expiry = std::max<std::uint64_t>(1, (used_then + slice - 1) / slice) * slice;
  return p.held_since_ + sc_time::from_value(expiry - used_before);
}

Process* Scheduler::next_for(unsigned t) const {
  for (Process* q : ready_)
    if (q->may_run_on(t)) return q;
  return nullptr;
}

bool Scheduler::should_yield(const Process& p) const {
  if (params_.mode != SchedulingMode::kPreemptive || ready_.empty()) return false;
  if (thread_of(p).claimed_by) return true;
  return thread_of(p).cpu->now() >= slice_end(p);
}

void Scheduler::requeue(Process& p, bool front) {
  p.queued_since_ = models::kernel_time();
  auto pos = ready_.begin();
  if (front) {
    while (pos != ready_.end() && (*pos)->priority_ > p.priority_) ++pos;
  } else {
    while (pos != ready_.end() && (*pos)->priority_ >= p.priority_) ++pos;
  }
  ready_.insert(pos, &p);
}

void Scheduler::run_on(Process& p, unsigned t) {
  if (p.ran_ && p.thread_ != t) ++p.migrations_;
  p.thread_ = t;
  p.ran_ = true;
  threads_[t].running = &p;
  threads_[t].cpu->set_payer(&p.account_);
  for (Thread& th : threads_)
    if (th.claimed_by == &p) th.claimed_by = nullptr;  // it has a thread: its claim elsewhere lapses
}

void Scheduler::claim(Process& p, std::optional<unsigned> left) {
  if (params_.mode != SchedulingMode::kPreemptive) return;
  // A higher priority takes the thread of the lowest-priority process running where it may run.
  Thread* victim = nullptr;
  for (unsigned t = 0; t < threads_.size(); ++t) {
    Thread& th = threads_[t];
    if (!p.may_run_on(t) || !th.running || th.claimed_by || th.running->priority_ >= p.priority_) continue;
    if (!victim || th.running->priority_ < victim->running->priority_) victim = &th;
  }
  if (victim) {
    victim->claimed_by = &p;
    victim->running->interrupt_.notify(SC_ZERO_TIME);
    return;
  }
  // Processes of its priority where it may run: their slices end for it.
  for (unsigned t = 0; t < threads_.size(); ++t) {
    Thread& th = threads_[t];
    if (t != left && p.may_run_on(t) && th.running && th.running->priority_ == p.priority_)
      th.running->interrupt_.notify(SC_ZERO_TIME);
  }
}

void Scheduler::claim_for_waiting() {
  if (params_.mode != SchedulingMode::kPreemptive || ready_.empty()) return;
  // Only a process above the lowest running priority can take a thread.
  std::optional<int> lowest;
  for (const Thread& th : threads_)
    if (th.running && !th.claimed_by && (!lowest || th.running->priority_ < *lowest))
      lowest = th.running->priority_;
  if (!lowest) return;
  for (Process* q : ready_) {
    if (q->priority_ <= *lowest) break;
    const bool has_claim =
        std::any_of(threads_.begin(), threads_.end(), [q](const Thread& th) { return th.claimed_by == q; });
    if (!has_claim) claim(*q, std::nullopt);
  }
}

void Scheduler::place(Process& p, bool front, std::optional<unsigned> left) {
  // A free thread it may run on: the one it last ran on, else the first.
  std::optional<unsigned> free;
  if (p.ran_ && !threads_[p.thread_].running && p.may_run_on(p.thread_)) free = p.thread_;
  for (unsigned t = 0; !free && t < threads_.size(); ++t)
    if (!threads_[t].running && p.may_run_on(t)) free = t;
  if (free) {
    run_on(p, *free);
    return;
  }
  requeue(p, front);
  claim(p, left);
}

void Scheduler::acquire(Process& p) {
  p.ready_since_ = models::kernel_time();
  p.mark(Process::Activity::kQueued, p.ready_since_.value());
  place(p, false, std::nullopt);
  while (!p.holding()) sc_core::wait(p.wake_);
  on_acquired(p);
}

void Scheduler::on_acquired(Process& p) {
  Thread& th = thread_of(p);
  if (th.last && th.last != &p) {
    ++th.switches;
    th.cpu->compute(params_.context_switch_cycles);
    loose_switches(th) ? th.cpu->catch_up() : th.cpu->sync();
  }
  th.last = &p;
  th.cpu->set_active(true);
  p.held_since_ = th.cpu->now();
  p.mark(Process::Activity::kHolding, p.held_since_.value());
}

void Scheduler::release(Process& p, Process::Activity next) {
  const unsigned t = p.thread_;
  Thread& th = threads_[t];
  const sc_time now = th.cpu->now();
  p.cpu_time_ += now - p.held_since_;  // held from its last acquire to now
  th.held += now - p.held_since_;
  // What is left of its slice (its expiries while it held the thread refilled it, or ended it with a switch).
  p.slice_used_ = sc_time::from_value((p.slice_used_ + (now - p.held_since_)).value() %
                                      params_.time_slice.value());
  p.held_ps_.resize(threads_.size());
  p.held_ps_[t] += (now - p.held_since_).value();
  if (th.activity)
    th.activity->process_ran(th.lane, p.name_, models::to_ps(p.held_since_), models::to_ps(now));
  p.mark(next, now.value());
  const sc_time lead = next == Process::Activity::kQueued && hands_over(p) ? th.cpu->hand_over()
                                                                           : (th.cpu->sync(), SC_ZERO_TIME);
  th.cpu->set_active(false);
  th.running = nullptr;
  th.claimed_by = nullptr;
  dispatch(t, lead);
}

bool Scheduler::loose_switches(const Thread& th) const {
  // Preemptive mode computes in timed waits from the kernel's time (and claims threads with notifications);
  // a shared core slows its other threads from the moment a process becomes active (a notification).
  return params_.mode == SchedulingMode::kCooperative && th.cpu->cpu().params().smt_throughput <= 0;
}

bool Scheduler::hands_over(const Process& p) const {
  // The thread's time passes from p to the process queued next, woken at p's local time, in place of p
  // synchronising first, when that is all a synchronisation would do: switches are loosely timed, someone
  // waits for the thread, p has no other free thread to take, and nothing else of the kernel can run before
  // that time.
  const unsigned t = p.thread_;
  const Thread& th = threads_[t];
  if (!loose_switches(th) || !next_for(t)) return false;
  for (unsigned o = 0; o < threads_.size(); ++o)
    if (o != t && !threads_[o].running && p.may_run_on(o)) return false;
  return th.cpu->nothing_due_by_now();
}

void Scheduler::dispatch(unsigned t, const sc_time& lead) {
  for (auto it = ready_.begin(); it != ready_.end(); ++it) {
    Process& q = **it;
    if (!q.may_run_on(t)) continue;
    ready_.erase(it);
    run_on(q, t);
    q.wake_.notify(lead);
    break;
  }
  claim_for_waiting();
}

sc_time Process::cpu_time() const {
  if (holding() && activity_ == Activity::kHolding)
    return cpu_time_ + (sched_.thread_of(*this).cpu->now() - held_since_);
  return cpu_time_;
}

std::vector<std::uint64_t> Process::held_ps() const {
  std::vector<std::uint64_t> held = held_ps_;
  held.resize(sched_.threads_.size());
  if (holding() && activity_ == Activity::kHolding)
    held[thread_] += (sched_.thread_of(*this).cpu->now() - held_since_).value();
  return held;
}

bool Scheduler::measures_energy() const {
  return std::any_of(threads_.begin(), threads_.end(),
                     [](const Thread& t) { return t.cpu->cpu().has_power(); });
}

models::EnergyAccount Process::energy() const {
  models::EnergyAccount e = account_;
  const std::vector<std::uint64_t> held = held_ps();
  for (std::size_t t = 0; t < held.size(); ++t) {
    const models::SoftCpu& cpu = sched_.threads_[t].cpu->cpu();
    if (cpu.has_power())  // mW x ps = 1e-6 nJ
      e.add(models::EnergyPart::kCpu, static_cast<double>(held[t]) * cpu.busy_thread_mw() * 1e-6);
  }
  return e;
}

bool Process::holding() const {
  return sched_.threads_[thread_].running == this;
}

void Process::compute(std::uint64_t cycles, double smt_throughput) {
  {
    models::CpuThread& cpu = *sched_.thread_of(*this).cpu;
    if (!sched_.contended(*this) && cpu.cpu().params().smt_throughput <= 0) {
      cpu.compute(cycles, smt_throughput);
      return;
    }
    cpu.sync();
  }
  // Timed waits that a preemption or (on a shared core) another thread starting or stopping cuts short; the
  // cycles left are recomputed at the rate of the moment (and at the clock of the thread it holds then).
  double remaining = static_cast<double>(cycles);
  while (remaining >= 0.5) {
    if (sched_.should_yield(*this)) {
      preempt();
      continue;
    }
    models::CpuThread& cpu = *sched_.thread_of(*this).cpu;
    const sc_time all = cpu.cycle_time(static_cast<std::uint64_t>(remaining + 0.5), smt_throughput);
    sc_time run = all;
    if (const sc_time end = sched_.slice_end(*this); end != sc_core::sc_max_time())
      run = std::min(run, end > cpu.now() ? end - cpu.now() : SC_ZERO_TIME);
    const sc_time t0 = models::kernel_time();
    if (cpu.cpu().params().smt_throughput > 0) {
      sc_core::wait(run, interrupt_ | cpu.cpu().threads_changed());
    } else {
      sc_core::wait(run, interrupt_);
    }
    const sc_time ran = models::kernel_time() - t0;
    cpu.charge(ran);
    remaining = ran >= all ? 0 : remaining * (1 - ran / all);
  }
}

models::CpuThread& Process::cpu() {
  return *sched_.thread_of(*this).cpu;
}

void Process::preemption_point() {
  if (!sched_.contended(*this)) return;
  // What the kernel has made ready so far (the CPU thread synchronises at least every quantum), and the slice
  // measured at the process's local time: no kernel event unless a switch is due.
  if (sched_.ready_.empty()) return;
  Scheduler::Thread& th = sched_.thread_of(*this);
  const bool due = th.claimed_by || th.cpu->now() >= sched_.slice_end(*this);
  if (!due) return;
  th.cpu->sync();
  if (sched_.should_yield(*this)) preempt();
}

sc_time Process::preemption_free_until() const {
  // What preemption_point() looks at changes only when the kernel runs, except the slice's end (local time).
  if (!sched_.contended(*this) || sched_.ready_.empty()) return sc_core::sc_max_time();
  const Scheduler::Thread& th = sched_.thread_of(*this);
  if (th.claimed_by) return th.cpu->now();
  return sched_.slice_end(*this);
}

bool Process::may_be_preempted() const {
  return sched_.contended(*this);
}

void Process::preempt() {
  // An expired slice goes to the back of this priority, also when a higher priority takes the thread at the
  // same moment; preempted by a higher priority within its slice, it keeps its place at the front.
  const bool expired = sched_.thread_of(*this).cpu->now() >= sched_.slice_end(*this);
  ++preemptions_;
  switch_away(!expired);
}

void Process::switch_away(bool front) {
  const unsigned left = thread_;
  sched_.release(*this, Activity::kQueued);
  sched_.place(*this, front, left);
  while (!holding()) sc_core::wait(wake_);
  sched_.on_acquired(*this);
}

void Process::yield() {
  Scheduler::Thread& th = sched_.thread_of(*this);
  ++th.yields;
  if (sched_.params_.yield_cycles) th.cpu->compute(sched_.params_.yield_cycles);
  th.cpu->catch_up();  // what became ready by now
  const Process* next = sched_.next_for(thread_);
  if (!next || next->priority_ < priority_) return;
  switch_away(false);
}

void Process::poll_pause() {
  if (sched_.params_.mode == SchedulingMode::kCooperative) {
    yield();
  } else {
    preemption_point();
  }
}

void Process::sleep(const sc_time& t) {
  asleep_as_ = TimeUse::kAsleep;
  sched_.release(*this, Activity::kAsleep);
  sc_core::wait(t);
  sched_.acquire(*this);
}

void Process::wait_for(const sc_core::sc_event& event, TimeUse use) {
  asleep_as_ = use;
  sched_.release(*this, Activity::kAsleep);
  sc_core::wait(event);
  sched_.acquire(*this);
}

bool Process::wait_for(const sc_core::sc_event& event, const sc_core::sc_time& timeout, TimeUse use) {
  asleep_as_ = use;
  sched_.release(*this, Activity::kAsleep);
  sc_core::wait(timeout, event);
  const bool fired = !sc_core::timed_out();
  sched_.acquire(*this);
  return fired;
}

void Process::notify(sc_core::sc_event& event) {
  models::CpuThread& thread = cpu();
  if (std::uncaught_exceptions() > 0 || std::current_exception()) {
    // No synchronisation (a switch to other SystemC processes) while an exception is handled or unwinds: the
    // host thread's exception state is shared by every process, and a `throw;` after another process caught
    // something of its own would rethrow that. A timed notification at the process's time instead.
    event.notify(thread.now() - models::kernel_time());
    return;
  }
  thread.sync();
  event.notify(SC_ZERO_TIME);
}

std::uint64_t Process::now_ps() const {
  return (holding() ? sched_.thread_of(*this).cpu->now() : models::kernel_time()).value();
}

void Process::count_open_segment(Ledger& ledger, std::uint64_t now_ps) const {
  const std::uint64_t length = now_ps - segment_start_ps_;
  auto at = [&ledger](TimeUse use) -> std::uint64_t& { return ledger[static_cast<std::size_t>(use)]; };
  if (counting_as_) {
    at(*counting_as_) += length;
    return;
  }
  switch (activity_) {
    case Activity::kHolding: {
      const std::uint64_t io = sched_.thread_of(*this).cpu->io_time().value() - segment_io_ps_;
      at(TimeUse::kCpuIo) += io;
      at(TimeUse::kCpuCompute) += length - io;
      break;
    }
    case Activity::kQueued:
      at(TimeUse::kCpuWait) += length;
      break;
    case Activity::kAsleep:
      at(asleep_as_) += length;
      break;
  }
}

void Process::mark(Activity next, std::uint64_t now_ps) {
  count_open_segment(spent_, now_ps);
  segment_start_ps_ = now_ps;
  segment_io_ps_ = sched_.thread_of(*this).cpu->io_time().value();
  activity_ = next;
}

Process::Ledger Process::spent() const {
  Ledger ledger = spent_;
  count_open_segment(ledger, now_ps());
  return ledger;
}

void Process::recount(TimeUse from, TimeUse to, const sc_time& t) {
  mark(activity_, now_ps());
  spent_[static_cast<std::size_t>(from)] -= t.value();
  spent_[static_cast<std::size_t>(to)] += t.value();
}

Process::Counting::Counting(Process& p, TimeUse use) : p_(p), previous_(p.counting_as_) {
  p_.mark(p_.activity_, p_.now_ps());
  p_.counting_as_ = use;
}

Process::Counting::~Counting() {
  p_.mark(p_.activity_, p_.now_ps());
  p_.counting_as_ = previous_;
}

}  // namespace rsoc::runtime
