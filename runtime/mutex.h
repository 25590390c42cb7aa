#pragma once
// Mutex: a lock of the modeled OS between processes (for example the keystore of an HSM firmware). A process
// that finds it taken waits (giving the CPU away) until the holder unlocks; waiters take it in the order they
// woke. Timing contract: lock and unlock take no simulated time of their own; waiting is the holder's time.

#include <cstdint>
#include <systemc>

#include "runtime/scheduler.h"

namespace rsoc::runtime {

class Mutex {
 public:
  void lock(Process& p) {
    if (holder_) ++contended_;
    const sc_core::sc_time asked = sc_core::sc_time_stamp();
    while (holder_) p.wait_for(released_, TimeUse::kSlotWait);
    waited_ += sc_core::sc_time_stamp() - asked;
    holder_ = &p;
    ++locks_;
  }
  void unlock() {
    holder_ = nullptr;
    released_.notify(sc_core::SC_ZERO_TIME);
  }
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
