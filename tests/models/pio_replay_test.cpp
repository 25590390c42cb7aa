// PIO record and replay: a recorded cipher block replayed with new data gives what the same accesses made
// word by word give — results, times, and every count of the CPU, the bus and the core — and what cannot be
// replayed (a target that notes nothing, an FMC bus) is refused.
#include "models/pio_replay.h"

#include <gtest/gtest.h>

#include <array>
#include <tuple>
#include <type_traits>
#include <vector>

#include "models/crypto/aes128.h"
#include "models/crypto/des.h"
#include "models/fmc_bus.h"
#include "models/fpga_slot.h"
#include "models/ip_core.h"
#include "models/memory.h"
#include "models/onchip_bus.h"
#include "models/soft_cpu.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

constexpr std::uint64_t kSlotA = 0x80000000, kSlotB = 0x80010000, kRam = 0x10000000;

// A 100 MHz CPU (10 cycles to issue an access) on a bus (2 + 1 cycles) with two slots holding AES cores
// that take 20 cycles a block (a status read right after the start finds the core busy) and a RAM.
template <class Params>
Params with_faults(Params params) {
  if constexpr (std::is_same_v<Params, SlotParams>)
    params.hangs = FaultStream();
  else
    params.faults = FaultStream();
  return params;
}

// A bus with the CPU, two AES slots and a RAM; the bus's accesses may fail (`bus_faults`) and slot b's cores
// may hang (`hangs_on_b`), never here: their streams draw no fault.
struct Bench {
  explicit Bench(CoreKind kind = CoreKind::kAes128, bool bus_faults = false, bool hangs_on_b = false)
      : bus("bus", bus_faults ? with_faults(OnChipBusParams{ns(10), 2, 1}) : OnChipBusParams{ns(10), 2, 1}),
        b("b", hangs_on_b ? with_faults(SlotParams{}) : SlotParams{}) {
    bus.add_initiator(cpu.initiator);
    for (auto* slot : {&a, &b}) {
      CoreParams core{kind};
      core.block_cycles = 20;
      slot->add_candidate(1, make_core(std::string(slot->basename()) + ".core", core));
      slot->preload(1);
    }
    bus.add_target(a.target, kSlotA, 0x2000, "a");
    bus.add_target(b.target, kSlotB, 0x2000, "b");
    bus.add_target(ram.target, kRam, 0x1000, "ram");
  }
  SoftCpu cpu{"cpu", CpuParams{ns(10), 1, 10, 1024}};
  OnChipBus bus;
  FpgaSlot a{"a", SlotParams{}}, b;
  Memory ram{"ram", MemoryParams{0x1000, ns(10), 1, 1}};
};

const std::array<std::uint8_t, 16> kKey = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                           0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};

std::array<std::uint32_t, 4> words_of(const std::uint8_t* bytes) {
  std::array<std::uint32_t, 4> w{};
  for (int i = 0; i < 4; ++i)
    w[i] = (std::uint32_t{bytes[4 * i]} << 24) | (std::uint32_t{bytes[4 * i + 1]} << 16) |
           (std::uint32_t{bytes[4 * i + 2]} << 8) | bytes[4 * i + 3];
  return w;
}

// Loads `key` (its words) into the core at `base`, set to encrypt, and waits for its INIT.
template <std::size_t N>
void load_key_words(CpuThread& t, std::uint64_t base, const std::array<std::uint32_t, N>& key) {
  for (std::size_t i = 0; i < N; ++i) t.write32(base + reg::kKey + 4 * i, key[i]);
  t.write32(base + reg::kConfig, reg::kConfigEncrypt);
  t.write32(base + reg::kCtrl, reg::kCtrlInit);
  while (!(t.read32(base + reg::kStatus) & reg::kStatusReady)) {
  }
}

void load_key(CpuThread& t, std::uint64_t base) {
  load_key_words(t, base, words_of(kKey.data()));
}

// The same with a DES core: a 64-bit key.
void load_des_key(CpuThread& t, std::uint64_t base, std::uint64_t key) {
  load_key_words(t, base, std::array<std::uint32_t, 2>{static_cast<std::uint32_t>(key >> 32),
                                                      static_cast<std::uint32_t>(key)});
}

// A driver's loop body: its own work, the block (N words: 4 for AES, 2 for DES) written, started, polled
// until done and its result read.
template <std::size_t N>
std::array<std::uint32_t, N> cipher_block(CpuThread& t, std::uint64_t base,
                                          const std::array<std::uint32_t, N>& in) {
  t.compute(50);
  for (std::size_t i = 0; i < N; ++i) t.write32(base + reg::kBlock + 4 * i, in[i]);
  t.write32(base + reg::kCtrl, reg::kCtrlNext);
  constexpr std::uint32_t kDone = reg::kStatusReady | reg::kStatusValid;
  while ((t.read32(base + reg::kStatus) & kDone) != kDone) {
  }
  std::array<std::uint32_t, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = t.read32(base + reg::kResult + 4 * i);
  return out;
}

std::array<std::uint32_t, 4> input(int i) {
  std::array<std::uint8_t, 16> bytes{};
  for (int k = 0; k < 16; ++k) bytes[k] = static_cast<std::uint8_t>(i * 37 + k * 11);
  return words_of(bytes.data());
}

// Everything the CPU, the bus and one core count.
struct Counts {
  sc_core::sc_time now, compute, io, bus_busy, core_busy;
  std::uint64_t cycles, accesses, transactions, words, written, read, status_reads, operations;
  auto times() const { return std::make_tuple(now, compute, io, bus_busy, core_busy); }
  auto numbers() const {
    return std::make_tuple(cycles, accesses, transactions, words, written, read, status_reads, operations);
  }
};

Counts counts(CpuThread& t, const OnChipBus& bus, const FpgaSlot& slot) {
  const IpCore& core = *slot.core();
  return Counts{t.now(),          t.compute_time(),     t.io_time(),       bus.calendar().busy_time(),
                core.busy_time(), t.cycles(),           t.accesses(),      bus.transactions(),
                bus.words(),      core.words_written(), core.words_read(), core.status_reads(),
                core.operations()};
}

Counts operator-(const Counts& x, const Counts& y) {
  return Counts{x.now - y.now,
                x.compute - y.compute,
                x.io - y.io,
                x.bus_busy - y.bus_busy,
                x.core_busy - y.core_busy,
                x.cycles - y.cycles,
                x.accesses - y.accesses,
                x.transactions - y.transactions,
                x.words - y.words,
                x.written - y.written,
                x.read - y.read,
                x.status_reads - y.status_reads,
                x.operations - y.operations};
}

TEST(ModelPioReplay, AReplayGivesWhatTheAccessesItStandsForGive) {
  test::set_quantum(ns(700));  // the CPU synchronises inside the cipher blocks
  Bench bench;
  constexpr int kBlocks = 8;
  std::vector<std::array<std::uint32_t, 4>> word_out, replay_out;
  Counts word{}, burst{};
  bool replayable = false;
  test::TestThread th("th", [&] {
    CpuThread& t = bench.cpu.thread(0);
    load_key(t, kSlotA);
    const Counts a0 = counts(t, bench.bus, bench.a);
    for (int i = 0; i < kBlocks; ++i) word_out.push_back(cipher_block(t, kSlotA, input(i)));
    word = counts(t, bench.bus, bench.a) - a0;

    load_key(t, kSlotB);
    const Counts b0 = counts(t, bench.bus, bench.b);
    PioRecording recording;
    t.begin_recording(recording);
    replay_out.push_back(cipher_block(t, kSlotB, input(0)));
    t.end_recording(recording);
    replayable = recording.replayable();
    for (int i = 1; i < kBlocks; ++i) {
      std::array<std::uint32_t, 4> w = input(i);
      EXPECT_EQ(t.replay(kSlotB + reg::kBlock, w.data(), 16, recording), tlm::TLM_OK_RESPONSE);
      replay_out.push_back(w);
    }
    burst = counts(t, bench.bus, bench.b) - b0;
  });
  sc_core::sc_start();
  ASSERT_TRUE(replayable);
  // The results are the cipher's.
  const crypto::Aes128 aes(kKey);
  ASSERT_EQ(replay_out.size(), static_cast<std::size_t>(kBlocks));
  for (int i = 0; i < kBlocks; ++i) {
    std::array<std::uint8_t, 16> in{}, out{};
    const auto w = input(i);
    for (int k = 0; k < 16; ++k) in[k] = static_cast<std::uint8_t>(w[k / 4] >> (24 - 8 * (k % 4)));
    aes.encrypt(in.data(), out.data());
    EXPECT_EQ(replay_out[i], words_of(out.data())) << i;
    EXPECT_EQ(word_out[i], replay_out[i]) << i;
  }
  // Per cipher block: 50 cycles, 10 accesses of 100 + 30 + 10 ns and one more status read; the core 20
  // cycles.
  EXPECT_EQ(word.now, ns(kBlocks * (500 + 11 * 140)));
  EXPECT_EQ(word.accesses, kBlocks * 11u);
  EXPECT_EQ(word.core_busy, ns(kBlocks * 200));
  // The replays give every time and count the accesses made word by word give: the thread's time, compute
  // and device time, the bus's and the core's busy time; cycles, accesses, bus transactions and words, the
  // core's words written and read, status reads and operations.
  EXPECT_EQ(burst.times(), word.times());
  EXPECT_EQ(burst.numbers(), word.numbers());
}

TEST(ModelPioReplay, OneReplayOfManyRepetitionsGivesWhatAsManyReplaysGive) {
  // DES cores, whose repetitions are computed together (eight blocks interleaved, then four, then one: 15
  // repetitions take every path), against one replay per repetition, and against words.
  test::set_quantum(ns(1000000));  // every repetition before the next synchronisation
  Bench bench(CoreKind::kDes);
  constexpr int kBlocks = 16;
  constexpr std::uint64_t kDesKey = 0x133457799BBCDFF1;
  auto des_input = [](int i) {
    const auto w = input(i);
    return std::array<std::uint32_t, 2>{w[0], w[1]};
  };
  std::vector<std::array<std::uint32_t, 2>> word_out, each_out, many_out;
  Counts word{}, each{}, many{};
  std::uint64_t together = 0, together_single = 0;
  test::TestThread th("th", [&] {
    CpuThread& t = bench.cpu.thread(0);
    load_des_key(t, kSlotA, kDesKey);
    Counts c0 = counts(t, bench.bus, bench.a);
    for (int i = 0; i < kBlocks; ++i) word_out.push_back(cipher_block(t, kSlotA, des_input(i)));
    word = counts(t, bench.bus, bench.a) - c0;

    load_des_key(t, kSlotB, kDesKey);
    c0 = counts(t, bench.bus, bench.b);
    PioRecording recording;
    t.begin_recording(recording);
    each_out.push_back(cipher_block(t, kSlotB, des_input(0)));
    t.end_recording(recording);
    for (int i = 1; i < kBlocks; ++i) {
      std::array<std::uint32_t, 2> w = des_input(i);
      EXPECT_EQ(t.replay(kSlotB + reg::kBlock, w.data(), 8, recording), tlm::TLM_OK_RESPONSE);
      each_out.push_back(w);
    }
    each = counts(t, bench.bus, bench.b) - c0;

    // Slot A again (its core idle, its key loaded): the first cipher block recorded, the other 15 in one
    // replay.
    c0 = counts(t, bench.bus, bench.a);
    const sc_core::sc_time kernel_before = sc_core::sc_time_stamp();
    t.begin_recording(recording);
    many_out.push_back(cipher_block(t, kSlotA, des_input(0)));
    t.end_recording(recording);
    together = t.repetitions_before_sync(recording, kBlocks - 1);
    std::vector<std::uint32_t> words;
    for (int i = 1; i < kBlocks; ++i)
      for (std::uint32_t w : des_input(i)) words.push_back(w);
    EXPECT_EQ(t.replay(kSlotA + reg::kBlock, words.data(), static_cast<unsigned>(4 * words.size()), recording,
                       kBlocks - 1),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(sc_core::sc_time_stamp(), kernel_before);  // no synchronisation in between
    for (int i = 1; i < kBlocks; ++i) many_out.push_back({words[2 * (i - 1)], words[2 * (i - 1) + 1]});
    many = counts(t, bench.bus, bench.a) - c0;
    recording.single();  // as a model that replays one repetition at a time says
    together_single = t.repetitions_before_sync(recording, kBlocks - 1);
  });
  sc_core::sc_start();
  EXPECT_EQ(together, kBlocks - 1u);
  EXPECT_EQ(together_single, 1u);
  const crypto::Des des(kDesKey);
  ASSERT_EQ(many_out.size(), static_cast<std::size_t>(kBlocks));
  ASSERT_EQ(each_out.size(), static_cast<std::size_t>(kBlocks));
  for (int i = 0; i < kBlocks; ++i) {
    const auto w = des_input(i);
    const std::uint64_t c = des.encrypt((std::uint64_t{w[0]} << 32) | w[1]);
    EXPECT_EQ(word_out[i], (std::array<std::uint32_t, 2>{static_cast<std::uint32_t>(c >> 32),
                                                         static_cast<std::uint32_t>(c)}))
        << i;
    EXPECT_EQ(each_out[i], word_out[i]) << i;
    EXPECT_EQ(many_out[i], word_out[i]) << i;
  }
  EXPECT_EQ(each.times(), word.times());
  EXPECT_EQ(each.numbers(), word.numbers());
  EXPECT_EQ(many.times(), word.times());
  EXPECT_EQ(many.numbers(), word.numbers());
}

// Records one cipher block at `base` into `r`: whether the recording may stand for repetitions (it is always
// replayable).
bool repeatable_recording(CpuThread& t, PioRecording& r, std::uint64_t base) {
  t.begin_recording(r);
  cipher_block(t, base, input(0));
  t.end_recording(r);
  EXPECT_TRUE(r.replayable());
  return r.repeatable();
}

TEST(ModelPioReplay, AModelThatDrawsFaultsReplaysOneRepetitionAtATime) {
  test::set_quantum(ns(1000000));
  Bench bench(CoreKind::kAes128, false, true);  // slot b's cores can hang
  bool plain = false, core_hangs = true;
  test::TestThread th("th", [&] {
    CpuThread& t = bench.cpu.thread(0);
    load_key(t, kSlotA);
    load_key(t, kSlotB);
    PioRecording r;
    plain = repeatable_recording(t, r, kSlotA);
    core_hangs = repeatable_recording(t, r, kSlotB);
    plain = plain && repeatable_recording(t, r, kSlotA);
  });
  sc_core::sc_start();
  EXPECT_TRUE(plain);
  EXPECT_FALSE(core_hangs);
}

TEST(ModelPioReplay, ABusThatDrawsFaultsReplaysOneRepetitionAtATime) {
  test::set_quantum(ns(1000000));
  Bench bench(CoreKind::kAes128, true);  // a bus whose accesses may fail
  bool bus_faults = true;
  test::TestThread th("th", [&] {
    CpuThread& t = bench.cpu.thread(0);
    load_key(t, kSlotA);
    PioRecording r;
    bus_faults = repeatable_recording(t, r, kSlotA);
  });
  sc_core::sc_start();
  EXPECT_FALSE(bus_faults);
}

TEST(ModelPioReplay, WhatCannotBeReplayedIsRefused) {
  test::set_quantum(ns(1000));
  Bench bench;
  // An FMC bus hanging from the on-chip bus, with a third AES slot behind it.
  FmcBusParams fmc_params;
  fmc_params.clock_period = ns(10);
  fmc_params.cpu_clock_period = ns(10);
  FmcBus fmc("fmc", fmc_params);
  FpgaSlot c("c", SlotParams{});
  c.add_candidate(1, make_core("c.aes", CoreParams{CoreKind::kAes128}));
  c.preload(1);
  bench.bus.add_target(fmc.target, 0x60000000, 0x10000, "fmc");
  fmc.add_target(c.target, 0, 0x2000, "c");
  bool alone = false, with_ram = true, through_fmc = true, replaced = true;
  test::TestThread th("th", [&] {
    CpuThread& t = bench.cpu.thread(0);
    load_key(t, kSlotA);
    PioRecording r;
    t.begin_recording(r);
    cipher_block(t, kSlotA, input(0));
    t.end_recording(r);
    alone = r.replayable();
    t.begin_recording(r);  // the same, and a word of RAM: the memory notes nothing
    cipher_block(t, kSlotA, input(1));
    t.read32(kRam);
    t.end_recording(r);
    with_ram = r.replayable();
    load_key(t, 0x60000000);
    t.begin_recording(r);
    cipher_block(t, 0x60000000, input(2));
    t.end_recording(r);
    through_fmc = r.replayable();
    PioRecording other;  // a recording begun inside this one replaces it
    t.begin_recording(r);
    cipher_block(t, kSlotA, input(3));
    t.begin_recording(other);
    cipher_block(t, kSlotA, input(4));
    t.end_recording(other);
    t.end_recording(r);
    replaced = r.replayable();
  });
  sc_core::sc_start();
  EXPECT_TRUE(alone);
  EXPECT_FALSE(with_ram);
  EXPECT_FALSE(through_fmc);
  EXPECT_FALSE(replaced);
}

}  // namespace
}  // namespace rsoc::models
