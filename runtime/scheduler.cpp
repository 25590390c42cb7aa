#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "runtime/scheduler.h"

#include "models/kernel_time.h"

namespace rsoc::runtime {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

Scheduler::Scheduler(models::CpuThread& cpu, const SchedulerParams& params) : cpu_(cpu), params_(params) {}

Process& Scheduler::spawn(const std::string& name, int priority, std::function<void(Process&)> body,
                          const sc_time& start) {
  processes_.push_back(std::unique_ptr<Process>(new Process(*this, name, priority)));
  Process& p = *processes_.back();
  ++live_;
  sc_core::sc_spawn(
      [this, &p, body = std::move(body), start] {
        if (start != SC_ZERO_TIME) sc_core::wait(start);
        acquire(p);
        body(p);
        cpu_.sync();
        p.done_ = true;
        --live_;
        p.asleep_as_ = TimeUse::kAsleep;
        release(p, Process::Activity::kAsleep);
      },
      name.c_str());
  return p;
}

sc_time Scheduler::busy_time() const {
  sc_time t = cpu_.cpu().cycles(switches_ * params_.context_switch_cycles);
  for (const auto& p : processes_) t += p->cpu_time_;
  return t;
}

bool Scheduler::contended(const Process&) const {
  return params_.mode == SchedulingMode::kPreemptive && live_ > 1;
}

sc_time Scheduler::slice_left(const Process& p) const {
  const sc_time end = p.slice_start_ + params_.time_slice;
  const sc_time now = models::kernel_time();
  return end > now ? end - now : SC_ZERO_TIME;
}

bool Scheduler::should_yield(const Process& p) const {
  if (params_.mode != SchedulingMode::kPreemptive || ready_.empty()) return false;
  const Process& next = *ready_.front();
  return next.priority_ > p.priority_ || (next.priority_ == p.priority_ && slice_left(p) == SC_ZERO_TIME);
}

void Scheduler::requeue(Process& p, bool front) {
  auto pos = ready_.begin();
  if (front) {
    while (pos != ready_.end() && (*pos)->priority_ > p.priority_) ++pos;
  } else {
    while (pos != ready_.end() && (*pos)->priority_ >= p.priority_) ++pos;
  }
  ready_.insert(pos, &p);
}

void Scheduler::acquire(Process& p) {
  p.ready_since_ = models::kernel_time();
  p.mark(Process::Activity::kQueued, p.ready_since_.value());
  if (running_ == nullptr && ready_.empty()) {
    running_ = &p;
  } else {
    requeue(p, false);
    if (running_ && running_->priority_ <= p.priority_) running_->interrupt_.notify(SC_ZERO_TIME);
    while (running_ != &p) sc_core::wait(p.wake_);
  }
  on_acquired(p);
}

void Scheduler::on_acquired(Process& p) {
  if (last_ && last_ != &p) {
    ++switches_;
    cpu_.compute(params_.context_switch_cycles);
    cpu_.sync();
  }
  last_ = &p;
  cpu_.set_active(true);
  p.slice_start_ = models::kernel_time();
  p.mark(Process::Activity::kHolding, p.slice_start_.value());
}

void Scheduler::release(Process& p, Process::Activity next) {
  const sc_time now = cpu_.now();
  p.cpu_time_ += now - p.slice_start_;  // held from its last acquire (or slice start) to now
  if (activity_)
    activity_->process_ran(activity_lane_, p.name_, models::to_ps(p.slice_start_), models::to_ps(now));
  p.mark(next, now.value());
  cpu_.sync();
  cpu_.set_active(false);
  running_ = nullptr;
  dispatch();
}

void Scheduler::dispatch() {
  if (ready_.empty()) return;
  running_ = ready_.front();
  ready_.pop_front();
  running_->wake_.notify(SC_ZERO_TIME);
}

void Process::compute(std::uint64_t cycles) {
  models::CpuThread& cpu = sched_.cpu_;
  const bool shared_core = cpu.cpu().params().smt_throughput > 0;
  if (!sched_.contended(*this) && !shared_core) {
    cpu.compute(cycles);
    return;
  }
  cpu.sync();
  // Timed waits that a preemption or (on a shared core) another thread starting or stopping cuts short; the
  // cycles left are recomputed at the rate of the moment.
  double remaining = static_cast<double>(cycles);
  while (remaining >= 0.5) {
    if (sched_.should_yield(*this)) {
      preempt();
      continue;
    }
    const sc_time all = cpu.cycle_time(static_cast<std::uint64_t>(remaining + 0.5));
    sc_time run = all;
    if (!sched_.ready_.empty() && sched_.ready_.front()->priority_ == priority_)
      run = std::min(run, sched_.slice_left(*this));
    const sc_time t0 = models::kernel_time();
    if (shared_core) {
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
  return sched_.cpu_;
}

void Process::preemption_point() {
  if (!sched_.contended(*this)) return;
  // What the kernel has made ready so far (the CPU thread synchronises at least every quantum), and the slice
  // measured at the process's local time: no kernel event unless a switch is due.
  if (sched_.ready_.empty()) return;
  const Process& next = *sched_.ready_.front();
  const bool due =
      next.priority_ > priority_ ||
      (next.priority_ == priority_ && sched_.cpu_.now() >= slice_start_ + sched_.params_.time_slice);
  if (!due) return;
  sched_.cpu_.sync();
  if (sched_.should_yield(*this)) preempt();
}

void Process::preempt() {
  // A higher priority keeps its place at the front of this priority; an expired slice goes to the back.
  const bool by_higher = sched_.ready_.front()->priority_ > priority_;
  ++preemptions_;
  switch_away(by_higher);
}

void Process::switch_away(bool front) {
  sched_.release(*this, Activity::kQueued);
  sched_.requeue(*this, front);
  while (sched_.running_ != this) sc_core::wait(wake_);
  sched_.on_acquired(*this);
}

void Process::yield() {
  ++sched_.yields_;
  if (sched_.params_.yield_cycles) sched_.cpu_.compute(sched_.params_.yield_cycles);
  sched_.cpu_.sync();
  if (sched_.ready_.empty() || sched_.ready_.front()->priority_ < priority_) return;
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

std::uint64_t Process::now_ps() const {
  return (sched_.running_ == this ? sched_.cpu_.now() : models::kernel_time()).value();
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
      const std::uint64_t io = sched_.cpu_.io_time().value() - segment_io_ps_;
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
  segment_io_ps_ = sched_.cpu_.io_time().value();
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
