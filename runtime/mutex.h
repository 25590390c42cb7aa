#pragma once
// Mutex: a lock of the modeled OS between processes (for example the keystore of an HSM firmware). With
// lock(), a process that finds it taken sleeps until the holder unlocks; waiters take it in the order they
// woke. With spin_lock(), it stays ready and yields until the lock is free, as a cooperative tasker's simple
// lock does (task_mutex_lock: while locked, yield), paying a context switch per turn. Timing contract: lock
// and unlock take no simulated time of their own, the waiters learn of an unlock at the holder's time
// (Process::notify); waiting is the holder's time (counted as kSlotWait).

#include <cstdint>
#include <systemc>

#include "runtime/scheduler.h"

namespace rsoc::runtime {

class Mutex {
 public:
  void lock(Process& p) {
    if (holder_) ++contended_;
    const sc_core::sc_time asked = p.cpu().now();
    while (holder_) p.wait_for(released_, TimeUse::kSlotWait);
    waited_ += p.cpu().now() - asked;
    holder_ = &p;
    ++locks_;
  }
  void spin_lock(Process& p) {
    if (holder_) ++contended_;
    const sc_core::sc_time asked = p.cpu().now();
    while (holder_) {
      const Process::Ledger before = p.spent();
      p.yield();
      const Process::Ledger after = p.spent();
      // A turn takes time even with nobody else to run (the holder may be waiting for a device): never a
      // loop in zero simulated time.
      if (after == before) p.compute(1);
      p.recount_between(before, after, {TimeUse::kCpuCompute, TimeUse::kCpuWait}, TimeUse::kSlotWait);
    }
    waited_ += p.cpu().now() - asked;
    holder_ = &p;
    ++locks_;
  }
  // By the holder `p`: the waiters learn it at p's time.
  void unlock(Process& p) {
    holder_ = nullptr;
    p.notify(released_);
  }
  // Holds the lock, taken with spin_lock(), until destroyed.
  class SpinGuard {
   public:
    SpinGuard(Mutex& m, Process& p) : m_(m), p_(p) { m_.spin_lock(p_); }
    ~SpinGuard() { m_.unlock(p_); }
    SpinGuard(const SpinGuard&) = delete;
    SpinGuard& operator=(const SpinGuard&) = delete;

   private:
    Mutex& m_;
    Process& p_;
  };
  bool locked() const { return holder_ != nullptr; }
  std::uint64_t locks() const { return locks_; }
  std::uint64_t contended() const { return contended_; }
  sc_core::sc_time wait_time() const { return waited_; }

 private:
  Process* holder_ = nullptr;
  sc_core::sc_event released_;
  std::uint64_t locks_ = 0, contended_ = 0;
  sc_core::sc_time waited_{sc_core::SC_ZERO_TIME};
};

}  // namespace rsoc::runtime
