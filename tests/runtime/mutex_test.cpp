// The OS mutex: a second process waits (off the CPU) until the holder unlocks.
#include "runtime/mutex.h"

#include <gtest/gtest.h>

#include <systemc>

#include "models/memory.h"

using namespace rsoc;
using sc_core::SC_MS;
using sc_core::sc_time;

TEST(RuntimeMutex, WaiterSleepsUntilTheHolderUnlocks) {
  models::SoftCpu cpu{"cpu", models::CpuParams{}};  // 100 MHz
  models::Memory mem{"mem", models::MemoryParams{}};
  cpu.initiator.bind(mem.target);
  runtime::SchedulerParams params;
  params.mode = runtime::SchedulingMode::kCooperative;
  runtime::Scheduler sched(cpu.thread(0), params);
  runtime::Mutex keystore;
  sc_time a_unlocked, b_locked, c_done;
  sched.spawn("a", 0, [&](runtime::Process& p) {
    keystore.lock(p);
    p.compute(100000);           // 1 ms holding the lock
    p.sleep(sc_time(4, SC_MS));  // 4 ms off the CPU, still holding it
    keystore.unlock();
    a_unlocked = sc_core::sc_time_stamp();
  });
  sched.spawn("b", 0, [&](runtime::Process& p) {
    keystore.lock(p);  // taken: waits without using the CPU
    b_locked = sc_core::sc_time_stamp();
    keystore.unlock();
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
