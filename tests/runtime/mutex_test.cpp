// The OS mutex: a second process waits (off the CPU) until the holder unlocks.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "runtime/mutex.h"

#include <gtest/gtest.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <stdexcept>
#include <string>
#include <systemc>

#include "models/memory.h"

using namespace rsoc;
using sc_core::SC_MS;
using sc_core::sc_time;

namespace {
// A 100 MHz CPU whose port is bound to a memory (the processes only compute).
struct MutexCpu {
  models::SoftCpu cpu{"cpu", models::CpuParams{}};
  models::Memory mem{"mem", models::MemoryParams{}};
  MutexCpu() { cpu.initiator.bind(mem.target); }
};

// Cooperative scheduling on such a CPU, loosely timed: a quantum of 1 s, set before the CPU starts.
struct LooselyTimed {
  struct Quantum {
    Quantum() { tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1, sc_core::SC_SEC)); }
  } quantum;  // the first member: set before the CPU below is built
  MutexCpu c;
  runtime::Scheduler sched{c.cpu.thread(0), [] {
                             runtime::SchedulerParams params;
                             params.mode = runtime::SchedulingMode::kCooperative;
                             return params;
                           }()};
};
}  // namespace

TEST(RuntimeMutex, WaiterSleepsUntilTheHolderUnlocks) {
  MutexCpu c;
  runtime::SchedulerParams params;
  params.mode = runtime::SchedulingMode::kCooperative;
  runtime::Scheduler sched(c.cpu.thread(0), params);
  runtime::Mutex keystore;
  sc_time a_unlocked, b_locked, c_done;
  sched.spawn("a", 0, [&](runtime::Process& p) {
    keystore.lock(p);
    p.compute(100000);           // 1 ms holding the lock
    p.sleep(sc_time(4, SC_MS));  // 4 ms off the CPU, still holding it
    keystore.unlock(p);
    a_unlocked = sc_core::sc_time_stamp();
  });
  sched.spawn("b", 0, [&](runtime::Process& p) {
    keystore.lock(p);  // taken: waits without using the CPU
    b_locked = sc_core::sc_time_stamp();
    keystore.unlock(p);
  });
  sched.spawn("c", 0, [&](runtime::Process& p) {
    p.compute(200000);  // runs while a sleeps and b waits
    c_done = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  EXPECT_EQ(a_unlocked, sc_time(5, SC_MS));
  EXPECT_EQ(b_locked, sc_time(5, SC_MS));
  EXPECT_EQ(c_done, sc_time(3, SC_MS));  // 1 ms after a's compute, then its own 2 ms
  EXPECT_EQ(keystore.locks(), 2u);
  EXPECT_EQ(keystore.contended(), 1u);
  EXPECT_FALSE(keystore.locked());
}

TEST(RuntimeMutex, SpinningWaiterYieldsEveryTurnUntilTheHolderUnlocks) {
  // task_mutex_lock of a cooperative tasker: the waiter stays ready and yields while the lock is taken. Here
  // the holder sleeps 4 ms with it and nobody else runs: the waiter spins alone, one cycle a turn (it never
  // spins in zero time), its whole wait counted as waiting for a shared resource.
  MutexCpu c;
  runtime::SchedulerParams params;
  params.mode = runtime::SchedulingMode::kCooperative;
  params.yield_cycles = 10;
  runtime::Scheduler sched(c.cpu.thread(0), params);
  runtime::Mutex lock;
  sc_time b_locked;
  runtime::Process::Ledger b_before{}, b_after{};
  sched.spawn("a", 0, [&](runtime::Process& p) {
    lock.spin_lock(p);
    p.sleep(sc_time(4, SC_MS));
    lock.unlock(p);
  });
  sched.spawn("b", 0, [&](runtime::Process& p) {
    b_before = p.spent();
    lock.spin_lock(p);
    b_after = p.spent();
    b_locked = sc_core::sc_time_stamp();
    lock.unlock(p);
  });
  sc_core::sc_start();
  // b asks at 0 and spins in turns of 10 cycles (100 ns) until the first turn at or after 4 ms.
  EXPECT_GE(b_locked, sc_time(4, SC_MS));
  EXPECT_LT(b_locked, sc_time(4, SC_MS) + sc_time(1, sc_core::SC_US));
  EXPECT_EQ(sched.yields(), 40000u);  // 4 ms / 100 ns
  constexpr auto kSlotWait = static_cast<std::size_t>(runtime::TimeUse::kSlotWait);
  EXPECT_EQ(b_after[kSlotWait] - b_before[kSlotWait], (b_locked - sc_time(0, SC_MS)).value());
  EXPECT_EQ(lock.contended(), 1u);
}

TEST(RuntimeMutex, TheWaiterLearnsOfTheUnlockAtTheHoldersTime) {
  // Cooperative, quantum 1 s: a holds the lock, sleeps 1 ms (b asks for it and waits), then computes 3 ms
  // loosely timed, ahead of the kernel, and unlocks at 4 ms. b waits for the lock until 4 ms, not until the
  // kernel time a's thread stood at (1 ms): its ledger has 4 ms waiting for a shared resource and none for
  // the CPU (a ends at once).
  LooselyTimed t;
  runtime::Mutex lock;
  runtime::Process::Ledger b_ledger{};
  sc_time b_locked;
  t.sched.spawn("a", 0, [&](runtime::Process& p) {
    lock.lock(p);
    p.sleep(sc_time(1, SC_MS));
    p.compute(300000);
    lock.unlock(p);
  });
  t.sched.spawn("b", 0, [&](runtime::Process& p) {
    lock.lock(p);
    b_locked = p.cpu().now();
    b_ledger = p.spent();
    lock.unlock(p);
  });
  sc_core::sc_start();
  EXPECT_EQ(b_locked, sc_time(4, SC_MS));
  EXPECT_EQ(b_ledger[static_cast<std::size_t>(runtime::TimeUse::kSlotWait)], sc_time(4, SC_MS).value());
  EXPECT_EQ(b_ledger[static_cast<std::size_t>(runtime::TimeUse::kCpuWait)], 0u);
  EXPECT_EQ(lock.wait_time(), sc_time(4, SC_MS));
}

TEST(RuntimeMutex, AnUnlockWhileAnExceptionIsHandledSwitchesToNoOtherProcess) {
  // a holds the lock 1 us ahead of the kernel and unlocks it in a catch handler, then rethrows. Another
  // SystemC thread catches an exception of its own at 0.5 us and waits inside its handler. Had the unlock
  // synchronised (a switch while a's exception is being handled), a's `throw;` could rethrow the other
  // thread's exception; the unlock notifies at a's time instead, without a switch: a rethrows its own, and b,
  // waiting for the lock, still gets it at 1 us.
  LooselyTimed t;
  runtime::Mutex lock;
  std::string a_rethrew;
  sc_time b_locked;
  t.sched.spawn("a", 0, [&](runtime::Process& p) {
    lock.lock(p);
    p.sleep(sc_time(10, sc_core::SC_NS));  // b asks for the lock meanwhile
    try {
      try {
        throw std::runtime_error("a's own");
      } catch (...) {
        p.compute(99);  // 0.99 us ahead of the kernel: the unlock at 1 us
        lock.unlock(p);
        throw;
      }
    } catch (const std::exception& e) {
      a_rethrew = e.what();
    }
  });
  t.sched.spawn("b", 0, [&](runtime::Process& p) {
    lock.lock(p);
    b_locked = p.cpu().now();
    lock.unlock(p);
  });
  sc_core::sc_spawn([] {
    sc_core::wait(sc_time(500, sc_core::SC_NS));
    try {
      throw std::runtime_error("the other thread's");
    } catch (...) {
      sc_core::wait(sc_time(1, SC_MS));
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(a_rethrew, "a's own");
  EXPECT_EQ(b_locked, sc_time(1, sc_core::SC_US));
}
