// The OS scheduler: round-robin slices, priorities with preemption, cooperative mode, accounting.
#include "runtime/scheduler.h"

#include <gtest/gtest.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <map>
#include <set>
#include <systemc>

#include "models/memory.h"

using namespace rsoc;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {
constexpr std::uint64_t kCyclesPerMs = 100000;  // 100 MHz

// A 100 MHz CPU whose port is bound to a memory (the scheduler tests only compute).
struct Cpu {
  models::SoftCpu cpu{"cpu", models::CpuParams{}};
  models::Memory mem{"mem", models::MemoryParams{}};
  Cpu() { cpu.initiator.bind(mem.target); }
};
}  // namespace

TEST(RuntimeScheduler, EqualPrioritiesShareTheCpuInTimeSlices) {
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), runtime::SchedulerParams{});  // 10 ms slices
  sc_time a_end, b_end;
  sched.spawn("a", 0, [&](runtime::Process& p) {
    p.compute(25 * kCyclesPerMs);
    a_end = sc_core::sc_time_stamp();
  });
  sched.spawn("b", 0, [&](runtime::Process& p) {
    p.compute(25 * kCyclesPerMs);
    b_end = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  // a 0-10, b 10-20, a 20-30, b 30-40, a 40-45, b 45-50
  EXPECT_EQ(a_end, sc_time(45, SC_MS));
  EXPECT_EQ(b_end, sc_time(50, SC_MS));
  EXPECT_EQ(sched.processes()[0]->cpu_time(), sc_time(25, SC_MS));
  EXPECT_EQ(sched.processes()[1]->cpu_time(), sc_time(25, SC_MS));
  EXPECT_EQ(sched.busy_time(), sc_time(50, SC_MS));
  EXPECT_EQ(sched.context_switches(), 5u);
}

TEST(RuntimeScheduler, HigherPriorityPreemptsAndPaysContextSwitches) {
  Cpu c;
  runtime::SchedulerParams params;
  params.context_switch_cycles = 1000;  // 10 us
  runtime::Scheduler sched(c.cpu.thread(0), params);
  sc_time low_end, high_end;
  sched.spawn("low", 0, [&](runtime::Process& p) {
    p.compute(20 * kCyclesPerMs);
    low_end = sc_core::sc_time_stamp();
  });
  sched.spawn(
      "high", 5,
      [&](runtime::Process& p) {
        p.compute(3 * kCyclesPerMs);
        high_end = sc_core::sc_time_stamp();
      },
      sc_time(5, SC_MS));
  sc_core::sc_start();
  // low runs 0-5 ms; switch to high (10 us), high runs 3 ms; switch back (10 us), low finishes its 15 ms.
  EXPECT_EQ(high_end, sc_time(8010, SC_US));
  EXPECT_EQ(low_end, sc_time(23020, SC_US));
  EXPECT_EQ(sched.processes()[0]->preemptions(), 1u);
  EXPECT_EQ(sched.processes()[0]->cpu_time(), sc_time(20, SC_MS));
}

TEST(RuntimeScheduler, CooperativeProcessesRunUntilTheyYield) {
  Cpu c;
  runtime::SchedulerParams params;
  params.mode = runtime::SchedulingMode::kCooperative;
  runtime::Scheduler sched(c.cpu.thread(0), params);
  std::vector<std::string> order;
  sched.spawn("a", 0, [&](runtime::Process& p) {
    p.compute(25 * kCyclesPerMs);  // no slices: runs 25 ms
    order.push_back("a1@" + sc_core::sc_time_stamp().to_string());
    p.yield();
    order.push_back("a2@" + sc_core::sc_time_stamp().to_string());
  });
  sched.spawn(
      "b", 9,
      [&](runtime::Process& p) {  // even a higher priority waits
        p.compute(1 * kCyclesPerMs);
        order.push_back("b@" + sc_core::sc_time_stamp().to_string());
      },
      sc_time(1, SC_MS));
  sc_core::sc_start();
  EXPECT_EQ(order, (std::vector<std::string>{"a1@25 ms", "b@26 ms", "a2@26 ms"}));
}

TEST(RuntimeScheduler, SleepingReleasesTheCpu) {
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), runtime::SchedulerParams{});
  sc_time b_end;
  sched.spawn("a", 0, [&](runtime::Process& p) {
    p.compute(kCyclesPerMs);
    p.sleep(sc_time(10, SC_MS));
    p.compute(kCyclesPerMs);
  });
  sched.spawn("b", 0, [&](runtime::Process& p) {
    p.compute(5 * kCyclesPerMs);
    b_end = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  EXPECT_EQ(b_end, sc_time(6, SC_MS));  // a 0-1, b 1-6 while a sleeps until 11
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(12, SC_MS));
  EXPECT_EQ(sched.busy_time(), sc_time(7, SC_MS));
}

namespace {
std::uint64_t ps(const sc_time& t) {
  return t.value();
}
std::uint64_t spent(const runtime::Process::Ledger& ledger, runtime::TimeUse use) {
  return ledger[static_cast<std::size_t>(use)];
}
std::uint64_t total(const runtime::Process::Ledger& ledger) {
  std::uint64_t sum = 0;
  for (std::uint64_t part : ledger) sum += part;
  return sum;
}
}  // namespace

TEST(RuntimeScheduler, LedgerCountsComputingAndQueueingWithContextSwitches) {
  Cpu c;
  runtime::SchedulerParams params;
  params.context_switch_cycles = 1000;  // 10 us
  runtime::Scheduler sched(c.cpu.thread(0), params);
  runtime::Process::Ledger low{}, high{};
  sched.spawn("low", 0, [&](runtime::Process& p) {
    p.compute(20 * kCyclesPerMs);
    low = p.spent();
  });
  sched.spawn(
      "high", 5,
      [&](runtime::Process& p) {
        p.compute(3 * kCyclesPerMs);
        high = p.spent();
      },
      sc_time(5, SC_MS));
  sc_core::sc_start();
  using runtime::TimeUse;
  // low: 20 ms of its own computing; queued from 5 ms (preempted) until 8.02 ms (high's 3 ms and both
  // switches).
  EXPECT_EQ(spent(low, TimeUse::kCpuCompute), ps(sc_time(20, SC_MS)));
  EXPECT_EQ(spent(low, TimeUse::kCpuWait), ps(sc_time(3020, SC_US)));
  EXPECT_EQ(total(low), ps(sc_time(23020, SC_US)));
  // high: not started until 5 ms, queued for the switch to it, then 3 ms of computing.
  EXPECT_EQ(spent(high, TimeUse::kAsleep), ps(sc_time(5, SC_MS)));
  EXPECT_EQ(spent(high, TimeUse::kCpuWait), ps(sc_time(10, SC_US)));
  EXPECT_EQ(spent(high, TimeUse::kCpuCompute), ps(sc_time(3, SC_MS)));
  EXPECT_EQ(total(high), ps(sc_time(8010, SC_US)));
}

TEST(RuntimeScheduler, LedgerAttributesSleepsWaitsDeviceAccessesRecountsAndCounting) {
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), runtime::SchedulerParams{});
  sc_core::sc_event ready;
  runtime::Process::Ledger end{};
  sc_time read_time, end_time;
  using runtime::TimeUse;
  sched.spawn("p", 0, [&](runtime::Process& p) {
    p.sleep(sc_time(1, SC_MS));
    p.compute(kCyclesPerMs);
    p.wait_for(ready, TimeUse::kSlotWait);  // notified at 3 ms
    const sc_time io_before = p.cpu().io_time();
    p.cpu().read32(0);
    read_time = p.cpu().io_time() - io_before;
    {
      const runtime::Process::Counting reconfiguring(p, TimeUse::kReconfig);
      p.compute(kCyclesPerMs / 2);
      p.cpu().read32(0);
    }
    p.cpu().read32(0);
    p.recount(TimeUse::kCpuIo, TimeUse::kCoreCompute, read_time);
    end = p.spent();
    end_time = p.cpu().now();
  });
  sched.spawn("notifier", 0, [&](runtime::Process& p) {
    p.sleep(sc_time(3, SC_MS));
    ready.notify(sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  ASSERT_GT(read_time, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(spent(end, TimeUse::kAsleep), ps(sc_time(1, SC_MS)));
  EXPECT_EQ(spent(end, TimeUse::kCpuCompute), ps(sc_time(1, SC_MS)));
  EXPECT_EQ(spent(end, TimeUse::kSlotWait), ps(sc_time(1, SC_MS)));  // asleep 2-3 ms, then the CPU was free
  EXPECT_EQ(spent(end, TimeUse::kCpuWait), 0u);
  EXPECT_EQ(spent(end, TimeUse::kCpuIo), ps(read_time));
  EXPECT_EQ(spent(end, TimeUse::kReconfig), ps(sc_time(500, SC_US) + read_time));
  EXPECT_EQ(spent(end, TimeUse::kCoreCompute), ps(read_time));
  EXPECT_EQ(end_time, sc_time(3500, SC_US) + 3 * read_time);
  EXPECT_EQ(total(end), ps(end_time));
}

namespace {
// Two hardware threads of one core that together do 1.19x one thread's work (a Cell PPU), each with its own
// scheduler.
struct SharedCore {
  static models::CpuParams params() {
    models::CpuParams p;
    p.hw_threads = 2;
    p.smt_throughput = 1.19;
    return p;
  }
  models::SoftCpu cpu{"cpu", params()};
  models::Memory mem{"mem", models::MemoryParams{}};
  runtime::Scheduler t0{cpu.thread(0), runtime::SchedulerParams{}};
  runtime::Scheduler t1{cpu.thread(1), runtime::SchedulerParams{}};
  SharedCore() { cpu.initiator.bind(mem.target); }
};
}  // namespace

TEST(RuntimeScheduler, ThreadsSharingOneCoreComputeSlowerTogether) {
  // Two hardware threads of one core that together do 1.19x one thread's work (a Cell PPU): a 100 ms job
  // alone takes 100 ms; with a 50 ms job beside it, both run at 0.595: the short one ends after 84.03 ms, and
  // the long one, 50 ms of work done by then, finishes its other 50 ms at full speed.
  SharedCore core;
  runtime::Scheduler &t0 = core.t0, &t1 = core.t1;
  sc_time alone_end, a_end, b_end;
  t0.spawn("alone", 0, [&](runtime::Process& p) {
    p.compute(100 * kCyclesPerMs);
    alone_end = sc_core::sc_time_stamp() + p.cpu().now() - sc_core::sc_time_stamp();
    p.sleep(sc_time(100, SC_MS));  // both threads start together at 200 ms
    p.compute(100 * kCyclesPerMs);
    a_end = p.cpu().now();
  });
  t1.spawn(
      "b", 0,
      [&](runtime::Process& p) {
        p.compute(50 * kCyclesPerMs);
        b_end = p.cpu().now();
      },
      sc_time(200, SC_MS));
  sc_core::sc_start();
  EXPECT_EQ(alone_end, sc_time(100, SC_MS));
  const double together_ms = 50 * 2 / 1.19;
  EXPECT_NEAR((b_end - sc_time(200, SC_MS)).to_seconds() * 1e3, together_ms, 0.01);
  EXPECT_NEAR((a_end - sc_time(200, SC_MS)).to_seconds() * 1e3, together_ms + 50, 0.01);
}

namespace {
// Two CPUs, each on its own memory (the scheduler tests only compute): cpu0 at 100 MHz, cpu1 at `mhz1`.
struct TwoCpus {
  models::SoftCpu cpu0{"cpu0", models::CpuParams{}};
  models::SoftCpu cpu1;
  models::Memory mem0{"mem0", models::MemoryParams{}}, mem1{"mem1", models::MemoryParams{}};
  explicit TwoCpus(double mhz1 = 100) : cpu1("cpu1", params(mhz1)) {
    cpu0.initiator.bind(mem0.target);
    cpu1.initiator.bind(mem1.target);
  }
  static models::CpuParams params(double mhz) {
    models::CpuParams p;
    p.clock_period = sc_time(1e3 / mhz, sc_core::SC_NS);
    return p;
  }
  std::vector<models::CpuThread*> threads() { return {&cpu0.thread(0), &cpu1.thread(0)}; }
};
}  // namespace

TEST(RuntimeScheduler, TwoProcessesOnTwoCpusFinishInTheTimeOfOne) {
  TwoCpus c;
  runtime::Scheduler sched(c.threads(), runtime::SchedulerParams{});
  sc_time end[2];
  models::CpuThread* ran_on[2] = {nullptr, nullptr};
  for (int i = 0; i < 2; ++i)
    sched.spawn("p" + std::to_string(i), 0, [&, i](runtime::Process& p) {
      ran_on[i] = &p.cpu();
      p.compute(20 * kCyclesPerMs);
      end[i] = p.cpu().now();
    });
  sc_core::sc_start();
  EXPECT_EQ(end[0], sc_time(20, SC_MS));
  EXPECT_EQ(end[1], sc_time(20, SC_MS));
  EXPECT_EQ(ran_on[0], &c.cpu0.thread(0));  // the first free thread in the scheduler's order
  EXPECT_EQ(ran_on[1], &c.cpu1.thread(0));
  EXPECT_EQ(sched.busy_time(0), sc_time(20, SC_MS));
  EXPECT_EQ(sched.busy_time(1), sc_time(20, SC_MS));
  EXPECT_EQ(sched.context_switches(), 0u);
  // The scheduler declares its statistics itself (models/statistics.h): one group per CPU thread, named after
  // its CPU, then one per process; over a 40 ms run each thread was busy half the time.
  std::vector<models::StatGroup> stats;
  const models::StatisticsSource& source = sched;
  source.statistics(40.0, stats);
  ASSERT_EQ(stats.size(), 4u);
  EXPECT_EQ(stats[0].resource, "scheduler.cpu0.thread0");
  EXPECT_EQ(stats[1].resource, "scheduler.cpu1.thread0");
  EXPECT_EQ(stats[2].resource, "process.p0");
  EXPECT_EQ(stats[3].resource, "process.p1");
  EXPECT_EQ(stats[1].stats[0].name, "busy_ms");
  EXPECT_DOUBLE_EQ(stats[1].stats[0].value, 20.0);
  EXPECT_EQ(stats[1].stats[1].name, "utilization");
  EXPECT_DOUBLE_EQ(stats[1].stats[1].value, 0.5);
  EXPECT_EQ(stats[3].stats[0].name, "cpu_ms");
  EXPECT_DOUBLE_EQ(stats[3].stats[0].value, 20.0);
}

TEST(RuntimeScheduler, AffinityKeepsPinnedProcessesOnTheirThreadAndOthersTakeAFreeOne) {
  // a and b are pinned to cpu0 and share it in 10 ms slices; c may run anywhere and takes cpu1.
  TwoCpus c;
  runtime::Scheduler sched(c.threads(), runtime::SchedulerParams{});
  std::map<std::string, sc_time> end;
  std::map<std::string, std::set<const models::CpuThread*>> on;
  auto body = [&](runtime::Process& p) {
    for (int i = 0; i < 4; ++i) {
      on[p.name()].insert(&p.cpu());
      p.compute(5 * kCyclesPerMs);
    }
    end[p.name()] = p.cpu().now();
  };
  sched.spawn("a", 0, body, sc_core::SC_ZERO_TIME, {0});
  sched.spawn("b", 0, body, sc_core::SC_ZERO_TIME, {0});
  sched.spawn("c", 0, body);
  sc_core::sc_start();
  // a 0-10, b 10-20, a 20-30, b 30-40 on cpu0; c 0-20 on cpu1.
  EXPECT_EQ(end["a"], sc_time(30, SC_MS));
  EXPECT_EQ(end["b"], sc_time(40, SC_MS));
  EXPECT_EQ(end["c"], sc_time(20, SC_MS));
  EXPECT_EQ(on["a"], std::set<const models::CpuThread*>{&c.cpu0.thread(0)});
  EXPECT_EQ(on["b"], std::set<const models::CpuThread*>{&c.cpu0.thread(0)});
  EXPECT_EQ(on["c"], std::set<const models::CpuThread*>{&c.cpu1.thread(0)});
  EXPECT_THROW(sched.spawn("d", 0, body, sc_core::SC_ZERO_TIME, {2}), std::invalid_argument);
}

TEST(RuntimeScheduler, AHigherPriorityTakesTheLowestPriorityThreadAndThePreemptedProcessMigrates) {
  // cpu0 at 100 MHz, cpu1 at 200 MHz. b (priority 2) starts on cpu0 with 1M cycles (10 ms), a (priority 1)
  // on cpu1 with 3.5M. h (priority 9) arrives at 5 ms and takes cpu1 from a, the lowest priority running,
  // for 2M cycles (5-15 ms). When b ends at 10 ms, a resumes on cpu0: its 2.5M cycles left at 100 MHz end at
  // 35 ms. Its ledger: 30 ms computing, 5 ms waiting for the CPU, nothing lost or counted twice.
  TwoCpus c(200);
  runtime::Scheduler sched(c.threads(), runtime::SchedulerParams{});
  sc_time a_end, b_end, h_end;
  runtime::Process::Ledger a_ledger{};
  sched.spawn("b", 2, [&](runtime::Process& p) {
    p.compute(10 * kCyclesPerMs);
    b_end = p.cpu().now();
  });
  runtime::Process& a = sched.spawn("a", 1, [&](runtime::Process& p) {
    p.compute(35 * kCyclesPerMs);
    a_end = p.cpu().now();
    a_ledger = p.spent();
  });
  runtime::Process& h = sched.spawn(
      "h", 9,
      [&](runtime::Process& p) {
        p.compute(20 * kCyclesPerMs);
        h_end = p.cpu().now();
      },
      sc_time(5, SC_MS));
  sc_core::sc_start();
  EXPECT_EQ(b_end, sc_time(10, SC_MS));
  EXPECT_EQ(h_end, sc_time(15, SC_MS));
  EXPECT_EQ(a_end, sc_time(35, SC_MS));
  EXPECT_EQ(a.preemptions(), 1u);
  EXPECT_EQ(a.migrations(), 1u);
  EXPECT_EQ(h.migrations(), 0u);
  auto at = [&](runtime::TimeUse use) { return a_ledger[static_cast<std::size_t>(use)]; };
  EXPECT_EQ(at(runtime::TimeUse::kCpuCompute), sc_time(30, SC_MS).value());
  EXPECT_EQ(at(runtime::TimeUse::kCpuWait), sc_time(5, SC_MS).value());
  std::uint64_t total = 0;
  for (std::uint64_t part : a_ledger) total += part;
  EXPECT_EQ(total, a_end.value());
  // Each thread's busy time: cpu0 b 0-10 and a 10-35; cpu1 a 0-5 and h 5-15.
  EXPECT_EQ(sched.busy_time(0), sc_time(35, SC_MS));
  EXPECT_EQ(sched.busy_time(1), sc_time(15, SC_MS));
}

TEST(RuntimeScheduler, ProcessesThatEachHaveAThreadComputeWithoutKernelEvents) {
  // Two processes that may run anywhere on two threads: neither can ever be displaced, so each computes
  // loosely timed and synchronises once per quantum (1 s), not once per computation.
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1, sc_core::SC_SEC));
  TwoCpus c;
  runtime::Scheduler sched(c.threads(), runtime::SchedulerParams{});
  sc_time end[2];
  for (int i = 0; i < 2; ++i)
    sched.spawn("p" + std::to_string(i), 0, [&, i](runtime::Process& p) {
      for (int k = 0; k < 200; ++k) p.compute(kCyclesPerMs / 10);  // 200 x 0.1 ms
      p.cpu().sync();
      end[i] = sc_core::sc_time_stamp();
    });
  sc_core::sc_start();
  EXPECT_EQ(end[0], sc_time(20, SC_MS));
  EXPECT_EQ(end[1], sc_time(20, SC_MS));
  EXPECT_LT(sc_core::sc_delta_count(), 20u);
}

TEST(RuntimeScheduler, CooperativeProcessesKeepTheirThreadUntilTheyYieldOnEveryCpu) {
  // Cooperative, three processes on two CPUs, each computing, yielding, computing again. a (10 + 20 ms)
  // takes cpu0 and b (15 + 25 ms) cpu1; c (3 + 5 ms) waits until a yields cpu0 at 10 ms; c yields it back
  // to a at 13 ms; b yields cpu1 to c at 15 ms (c moves to cpu1), and gets it back when c ends at 20 ms.
  TwoCpus c;
  runtime::SchedulerParams params;
  params.mode = runtime::SchedulingMode::kCooperative;
  runtime::Scheduler sched(c.threads(), params);
  std::map<std::string, sc_time> start, end;
  auto run = [&](std::uint64_t first_ms, std::uint64_t then_ms) {
    return [&, first_ms, then_ms](runtime::Process& p) {
      start[p.name()] = sc_core::sc_time_stamp();
      p.compute(first_ms * kCyclesPerMs);
      p.yield();
      p.compute(then_ms * kCyclesPerMs);
      end[p.name()] = p.cpu().now();
    };
  };
  sched.spawn("a", 0, run(10, 20));
  sched.spawn("b", 0, run(15, 25));
  runtime::Process& pc = sched.spawn("c", 0, run(3, 5));
  sc_core::sc_start();
  EXPECT_EQ(start["c"], sc_time(10, SC_MS));
  EXPECT_EQ(end["c"], sc_time(20, SC_MS));
  EXPECT_EQ(end["a"], sc_time(33, SC_MS));
  EXPECT_EQ(end["b"], sc_time(45, SC_MS));
  EXPECT_EQ(pc.migrations(), 1u);
  EXPECT_EQ(sched.processes()[0]->migrations(), 0u);
}

namespace {
// Cooperative scheduling with yields of 10 cycles and context switches of `switch_cycles`, quantum 1 s.
runtime::SchedulerParams cooperative_turns(std::uint64_t switch_cycles) {
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1, sc_core::SC_SEC));
  runtime::SchedulerParams params;
  params.mode = runtime::SchedulingMode::kCooperative;
  params.yield_cycles = 10;
  params.context_switch_cycles = switch_cycles;
  return params;
}
}  // namespace

TEST(RuntimeScheduler, AYieldWithNothingDueLeavesTheKernelWhereItIs) {
  // Cooperative, one process alone, quantum 1 s: a yield that finds nothing due in the kernel up to the
  // process's time has nothing to see, so it does not synchronise: 1000 turns of 100 cycles (1 ms) cost no
  // kernel event, and the kernel's time is still 0 after them.
  const runtime::SchedulerParams params = cooperative_turns(0);  // the quantum first: the CPU starts with it
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), params);
  sc_time kernel_after, local_after;
  sched.spawn("a", 0, [&](runtime::Process& p) {
    for (int k = 0; k < 1000; ++k) {
      p.compute(90);
      p.yield();
    }
    kernel_after = sc_core::sc_time_stamp();
    local_after = p.cpu().now();
  });
  sc_core::sc_start();
  EXPECT_EQ(kernel_after, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(local_after, sc_time(1, SC_MS));
  EXPECT_EQ(sched.yields(), 1000u);
  EXPECT_EQ(sched.context_switches(), 0u);
  EXPECT_LT(sc_core::sc_delta_count(), 10u);
}

TEST(RuntimeScheduler, AYieldSeesWhatBecameReadyByItsTime) {
  // The same process, and b, which asks for the CPU at 0.5 ms: the first yield at or after 0.5 ms (the one
  // at 0.5 ms exactly) finds b due, synchronises, and gives b the CPU after a context switch of 50 cycles.
  const runtime::SchedulerParams params = cooperative_turns(50);  // the quantum first: the CPU starts with it
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), params);
  sc_time b_start, a_end;
  int a_turns_before_b = -1;
  int turns = 0;
  sched.spawn("a", 0, [&](runtime::Process& p) {
    for (; turns < 1000; ++turns) {
      p.compute(90);
      p.yield();
    }
    a_end = p.cpu().now();
  });
  sched.spawn(
      "b", 0,
      [&](runtime::Process& p) {
        b_start = p.cpu().now();
        a_turns_before_b = turns;
      },
      sc_time(500, SC_US));
  sc_core::sc_start();
  EXPECT_EQ(a_turns_before_b, 499);  // in its 500th turn, which ended at 0.5 ms
  EXPECT_EQ(b_start, sc_time(500, SC_US) + sc_time(500, sc_core::SC_NS));
  // a: 1 ms of turns, and the two switches (to b, and back when b ends at once).
  EXPECT_EQ(a_end, sc_time(1, SC_MS) + sc_time(1, SC_US));
  EXPECT_EQ(sched.context_switches(), 2u);
}

TEST(RuntimeScheduler, CooperativeSwitchesPassTheThreadsTimeOnWithOneKernelEventEach) {
  // Two cooperative processes taking turns of 100 cycles (90 computing, a 10-cycle yield), 100 turns each,
  // quantum 1 s, 50-cycle context switches. Every yield switches (200), and a's end gives b the thread (one
  // more): 20,000 cycles of turns and 201 switches end b at 30,050 cycles, a one switch before. The yielding
  // process does not synchronise before the switch: the next one is woken at its time, one kernel event a
  // switch.
  const runtime::SchedulerParams params = cooperative_turns(50);  // the quantum first: the CPU starts with it
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), params);
  std::map<std::string, sc_time> end;
  std::map<std::string, runtime::Process::Ledger> ledger;
  for (const char* name : {"a", "b"})
    sched.spawn(name, 0, [&](runtime::Process& p) {
      for (int k = 0; k < 100; ++k) {
        p.compute(90);
        p.yield();
      }
      end[p.name()] = p.cpu().now();
      ledger[p.name()] = p.spent();
    });
  sc_core::sc_start();
  EXPECT_EQ(end["b"], sc_time(300500, sc_core::SC_NS));
  EXPECT_EQ(end["a"], sc_time(300000, sc_core::SC_NS));
  EXPECT_EQ(sched.context_switches(), 201u);
  // Each process: its own 100 turns computing (10 us), the rest queued (the other's turns and the switches).
  for (const char* name : {"a", "b"}) {
    const auto& l = ledger[name];
    EXPECT_EQ(l[static_cast<std::size_t>(runtime::TimeUse::kCpuCompute)], sc_time(100, SC_US).value()) << name;
    EXPECT_EQ(l[static_cast<std::size_t>(runtime::TimeUse::kCpuCompute)] +
                  l[static_cast<std::size_t>(runtime::TimeUse::kCpuWait)],
              end[name].value())
        << name;
  }
  EXPECT_LE(sc_core::sc_delta_count(), 201u + 10u);
}

TEST(RuntimeScheduler, PreemptionPointsSwitchToNobodyBeforeTheSliceEnds) {
  // Alone, a process is never switched away from at a preemption point; with another of its priority ready
  // on its thread, from the end of its slice on (10 ms from when it got the CPU).
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), runtime::SchedulerParams{});
  sc_time alone, shared, shared_later, after_switch;
  sched.spawn("a", 0, [&](runtime::Process& p) {
    alone = p.preemption_free_until();
    p.compute(kCyclesPerMs);  // b arrives meanwhile (at 0.5 ms)
    shared = p.preemption_free_until();
    p.compute(12 * kCyclesPerMs);  // preempted at 10 ms, runs again from 20 ms
    after_switch = p.preemption_free_until();
  });
  sched.spawn(
      "b", 0,
      [&](runtime::Process& p) {
        shared_later = p.preemption_free_until();
        p.compute(10 * kCyclesPerMs);
      },
      sc_time(500, SC_US));
  sc_core::sc_start();
  EXPECT_EQ(alone, sc_core::sc_max_time());
  EXPECT_EQ(shared, sc_time(10, SC_MS));
  EXPECT_EQ(shared_later, sc_time(20, SC_MS));  // b's slice, a waiting
  EXPECT_EQ(after_switch, sc_core::sc_max_time());  // b has finished
}

TEST(RuntimeScheduler, APreemptedProcessCompletesItsSliceSoItsEqualsStillTakeTurns) {
  // SCHED_RR: a slice is CPU time held. A daemon of higher priority waking every 10 ms (as the reference's
  // kernel daemon does) preempts the long process inside each of its slices; the short one of its priority
  // still runs once the long one has held the CPU for one slice, not after the whole long computation.
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), runtime::SchedulerParams{});  // 10 ms slices, free switches
  sc_time small_start, small_end, long_end;
  sched.spawn("long", 20, [&](runtime::Process& p) {
    p.compute(400 * kCyclesPerMs);
    long_end = sc_core::sc_time_stamp();
  });
  sched.spawn(
      "small", 20,
      [&](runtime::Process& p) {
        small_start = sc_core::sc_time_stamp();
        p.compute(kCyclesPerMs / 10);
        small_end = sc_core::sc_time_stamp();
      },
      sc_time(1, SC_MS));
  sched.spawn(
      "daemon", 50,
      [&](runtime::Process& p) {
        for (int i = 0; i < 45; ++i) {
          p.compute(2000);  // 20 us
          p.sleep(sc_time(9980, SC_US));
        }
      },
      sc_time(5, SC_MS));
  sc_core::sc_start();
  // long 0-5 ms, daemon 5-5.02, long 5.02-10.02 (its slice: 10 ms of CPU time), small 10.02-10.12.
  EXPECT_EQ(small_start, sc_time(10020, SC_US));
  EXPECT_EQ(small_end, sc_time(10120, SC_US));
  // Its 400 ms, small's 0.1 and the daemon's rounds from 5 ms every 10 ms (40 by then) of 20 us.
  EXPECT_EQ(long_end, sc_time(400100 + 40 * 20, SC_US));
  EXPECT_EQ(sched.processes()[0]->preemptions(), 41u);  // 40 by the daemon, 1 at its slice's end
}

TEST(RuntimeScheduler, AProcessPreemptedManyTimesYieldsAfterOneSliceOfItsOwnCpuTime) {
  Cpu c;
  runtime::SchedulerParams params;
  params.context_switch_cycles = 1000;  // 10 us
  runtime::Scheduler sched(c.cpu.thread(0), params);
  sc_time a_cpu_when_b_starts, b_start;
  runtime::Process* a = nullptr;
  a = &sched.spawn("a", 0, [&](runtime::Process& p) { p.compute(25 * kCyclesPerMs); });
  sched.spawn(
      "b", 0,
      [&](runtime::Process& p) {
        b_start = sc_core::sc_time_stamp();
        a_cpu_when_b_starts = a->cpu_time();
        p.compute(kCyclesPerMs);
      },
      sc_time(1, SC_MS));
  sched.spawn(
      "high", 5,
      [&](runtime::Process& p) {
        for (int k = 0; k < 3; ++k) {  // preempts a three times (from 2, 3.98 and 5.96 ms), 0.5 ms each
          if (k > 0) p.sleep(sc_time(1470, SC_US));
          p.compute(kCyclesPerMs / 2);
        }
      },
      sc_time(2, SC_MS));
  sc_core::sc_start();
  EXPECT_EQ(a_cpu_when_b_starts, sc_time(10, SC_MS));
  // a's 10 ms, high's 3 x 0.5 ms, 7 switches (a->high->a three times, a->b) of 10 us.
  EXPECT_EQ(b_start, sc_time(11570, SC_US));
  EXPECT_EQ(a->preemptions(), 4u);
}

TEST(RuntimeScheduler, AnArrivalFindsTheSliceOfAProcessThatRanAloneRefilledAtEveryExpiry) {
  // Alone, a process's slice runs out every 10 ms of its CPU time and is refilled at once: an equal arriving
  // at 12 ms waits for the end of the current slice (20 ms), not for nothing (the 10 ms expiry passed with
  // nobody to switch to). A process keeps what is left of its slice across a sleep.
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), runtime::SchedulerParams{});
  sc_time b_start, d_start;
  sched.spawn("a", 0, [&](runtime::Process& p) {
    p.compute(25 * kCyclesPerMs);  // alone to 20 ms, b 20-21 ms, a 21-26 ms: 5 ms of a slice used
    p.sleep(sc_time(1, SC_MS));    // 26-27 ms
    p.compute(10 * kCyclesPerMs);  // from 27 ms; d arrives at 28 ms; the slice ends 5 ms later
  });
  sched.spawn(
      "b", 0,
      [&](runtime::Process& p) {
        b_start = sc_core::sc_time_stamp();
        p.compute(kCyclesPerMs);
      },
      sc_time(12, SC_MS));
  sched.spawn(
      "d", 0,
      [&](runtime::Process& p) {
        d_start = sc_core::sc_time_stamp();
        p.compute(kCyclesPerMs);
      },
      sc_time(28, SC_MS));
  sc_core::sc_start();
  EXPECT_EQ(b_start, sc_time(20, SC_MS));
  EXPECT_EQ(d_start, sc_time(32, SC_MS));
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(38, SC_MS));
}

TEST(RuntimeScheduler, ASliceThatRunsOutAsAHigherPriorityArrivesGoesToTheBack) {
  // a's slice ends at 10 ms, when a higher priority takes the CPU: a goes to the back of its priority (its
  // slice was over), so b, waiting since 1 ms, runs after the higher one, not a.
  Cpu c;
  runtime::Scheduler sched(c.cpu.thread(0), runtime::SchedulerParams{});
  sc_time b_start;
  sched.spawn("a", 0, [&](runtime::Process& p) { p.compute(20 * kCyclesPerMs); });
  sched.spawn(
      "b", 0,
      [&](runtime::Process& p) {
        b_start = sc_core::sc_time_stamp();
        p.compute(kCyclesPerMs);
      },
      sc_time(1, SC_MS));
  sched.spawn("high", 5, [&](runtime::Process& p) { p.compute(kCyclesPerMs); }, sc_time(10, SC_MS));
  sc_core::sc_start();
  EXPECT_EQ(b_start, sc_time(11, SC_MS));
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(22, SC_MS));
}

TEST(RuntimeScheduler, CodeWithItsOwnSmtGainRunsAtItsOwnShareOfTheCore) {
  // The core of ThreadsSharingOneCoreComputeSlowerTogether (1.19), but b's code gains 1.6 from the two
  // threads: side by side, b runs at 0.8 of full speed and a at 0.595. b's 50 ms take 62.5 ms; a has done
  // 37.19 ms of its 100 by then and does the other 62.81 ms at full speed.
  SharedCore core;
  runtime::Scheduler &t0 = core.t0, &t1 = core.t1;
  sc_time a_end, b_end;
  t0.spawn("a", 0, [&](runtime::Process& p) {
    p.compute(100 * kCyclesPerMs);
    a_end = p.cpu().now();
  });
  t1.spawn("b", 0, [&](runtime::Process& p) {
    p.compute(50 * kCyclesPerMs, 1.6);
    b_end = p.cpu().now();
  });
  sc_core::sc_start();
  EXPECT_NEAR(b_end.to_seconds() * 1e3, 62.5, 0.01);
  EXPECT_NEAR(a_end.to_seconds() * 1e3, 62.5 + (100 - 62.5 * 0.595), 0.01);
}
