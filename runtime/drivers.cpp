#include "runtime/drivers.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/address_map.h"
#include "models/config_port.h"
#include "models/crypto/bytes.h"
#include "models/ip_core.h"
#include "models/pio_replay.h"

namespace rsoc::runtime {

namespace reg = models::reg;
namespace port_reg = models::port_reg;
namespace dma_reg = models::dma_reg;

namespace {
using crypto::store_be32;
std::uint32_t be32(const std::uint8_t* p) {
  return crypto::load_be32(p);
}
// Where word i of the bank `field` starts in the key or block.
unsigned byte_of_word(const BankField& field, unsigned i) {
  return field.byte_offset + (field.lsw_first ? field.bytes - 4 * (i + 1) : 4 * i);
}

void write_field(models::CpuThread& cpu, std::uint64_t base, const BankField& field,
                 const std::uint8_t* bytes) {
  for (unsigned i = 0; i < field.bytes / 4; ++i)
    cpu.write32(base + field.offset + 4 * i, be32(bytes + byte_of_word(field, i)));
}

void read_field(models::CpuThread& cpu, std::uint64_t base, const BankField& field, std::uint8_t* bytes) {
  for (unsigned i = 0; i < field.bytes / 4; ++i)
    store_be32(bytes + byte_of_word(field, i), cpu.read32(base + field.offset + 4 * i));
}

// Whether, between two readings of a process's ledger, the process did its own work only (computing, its
// device accesses, waiting for a core) for exactly `duration`: nothing else ran on its CPU meanwhile.
// `core_wait` gets the part it waited for the core.
bool own_work_only(const Process::Ledger& before, const Process::Ledger& after,
                   const sc_core::sc_time& duration, sc_core::sc_time* core_wait) {
  std::uint64_t own = 0;
  for (std::size_t u = 0; u < before.size(); ++u) {
    const std::uint64_t spent = after[u] - before[u];
    const auto use = static_cast<TimeUse>(u);
    if (use == TimeUse::kCpuCompute || use == TimeUse::kCpuIo || use == TimeUse::kCoreCompute) {
      own += spent;
    } else if (spent != 0) {
      return false;
    }
  }
  constexpr auto kCore = static_cast<std::size_t>(TimeUse::kCoreCompute);
  *core_wait = sc_core::sc_time::from_value(after[kCore] - before[kCore]);
  return own == duration.value();
}
}  // namespace

sc_core::sc_time CoreDriver::watchdog(Process& p) const {
  return costs_.watchdog_cycles ? p.cpu().cycle_time(costs_.watchdog_cycles) : sc_core::SC_ZERO_TIME;
}

void CoreDriver::wait_status(Process& p, const std::uint64_t* bases, std::size_t n, std::uint32_t mask,
                             PollPause pause) {
  const sc_core::sc_time started = p.cpu().now(), limit = watchdog(p);
  std::uint64_t done = 0;  // bit i: the core at bases[i] showed `mask`
  const std::uint64_t all = n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  for (std::uint64_t round = 0; round < costs_.max_polls; ++round) {
    if (pause == PollPause::kYieldEachRound)
      p.yield();
    else if (round > 0)
      p.poll_pause();
    for (std::size_t i = 0; i < n; ++i) {
      if (done >> i & 1) continue;
      models::CpuThread& cpu = p.cpu();  // the process may hold another thread after a pause
      cpu.compute(costs_.poll_loop_cycles);
      ++polls_;
      const sc_core::sc_time io_before = cpu.io_time();
      if ((cpu.read32(bases[i] + reg::kStatus) & mask) == mask)
        done |= std::uint64_t{1} << i;
      else  // the core is still busy
        p.recount(TimeUse::kCpuIo, TimeUse::kCoreCompute, cpu.io_time() - io_before);
    }
    if (done == all) return;
    if (limit != sc_core::SC_ZERO_TIME && p.cpu().now() - started >= limit)
      throw DriverTimeout("core at " + models::hex(bases[0]) + " did not finish within the watchdog's " +
                          std::to_string(costs_.watchdog_cycles) + " CPU cycles");
  }
  throw DeviceFault("core at " + models::hex(bases[0]) + " did not become ready after " +
                    std::to_string(costs_.max_polls) + " status polls");
}

bool CoreDriver::holds(std::uint64_t base, Functionality f, const std::vector<std::uint8_t>& key,
                       bool encrypt) const {
  const auto held = loaded_.find(base);
  return held != loaded_.end() && held->second.f == f && held->second.key == key &&
         held->second.encrypt == encrypt && !core_interface(f, encrypt, key).init_every_request;
}

void CoreDriver::load(Process& p, std::uint64_t base, Functionality f, const std::vector<std::uint8_t>& key,
                      bool encrypt) {
  const auto held = loaded_.find(base);
  const bool same = held != loaded_.end() && held->second.f == f && held->second.key == key &&
                    held->second.encrypt == encrypt;
  const CoreInterface core = core_interface(f, encrypt, key);
  if (same && !core.init_every_request) return;
  models::CpuThread& cpu = p.cpu();
  if (!same) {
    for (const BankField& field : core.key) write_field(cpu, base, field, key.data());
    for (const auto& [offset, value] : core.setup) cpu.write32(base + offset, value);
  }
  cpu.write32(base + reg::kCtrl, reg::kCtrlInit);
  wait_status(p, base, reg::kStatusReady);
  loaded_.insert_or_assign(base, Loaded{f, key, encrypt});
}

void CoreDriver::start(Process& p, std::uint64_t base, Functionality f, const std::vector<std::uint8_t>& key,
                       const std::vector<std::uint8_t>& block, bool encrypt) {
  if (block.size() != info(f).block_bytes)
    throw DriverError("start: one block of " + std::string(info(f).name));
  p.cpu().compute(costs_.cycles_per_request);
  load(p, base, f, key, encrypt);
  models::CpuThread& cpu = p.cpu();  // load() may have switched
  cpu.compute(costs_.cycles_per_block + costs_.cycles_per_cipher_block);
  write_field(cpu, base, core_interface(f, encrypt).block, block.data());
  cpu.write32(base + reg::kCtrl, reg::kCtrlNext);
}

std::vector<std::uint8_t> CoreDriver::finish(Process& p, std::uint64_t base, Functionality f) {
  std::vector<std::uint8_t> out(info(f).output_bytes());
  wait_status(p, base, reg::kStatusReady | reg::kStatusValid);
  read_field(p.cpu(), base, core_interface(f, true).result, out.data());
  return out;
}

std::vector<std::uint8_t> CoreDriver::run(Process& p, std::uint64_t base, Functionality f,
                                          const std::vector<std::uint8_t>& key,
                                          const std::vector<std::uint8_t>& data, bool encrypt,
                                          const models::IpCore* core_model, std::uint64_t unit_bytes) {
  const FunctionalityInfo& fi = info(f);
  const std::uint64_t unit = unit_bytes ? unit_bytes : fi.block_bytes;
  if (unit % fi.block_bytes != 0 || data.size() % unit != 0)
    throw DriverError(std::to_string(data.size()) + " bytes are not whole blocks of " + std::to_string(unit) +
                      " bytes (whole " + fi.name + " cipher blocks)");
  const CoreInterface core = core_interface(f, encrypt);
  p.cpu().compute(costs_.cycles_per_request);
  load(p, base, f, key, encrypt);

  // A unit of `unit` bytes gives `unit_out` bytes (a custom functionality's blocks may shrink or grow).
  const std::uint64_t unit_out = unit / fi.block_bytes * fi.output_bytes();
  std::vector<std::uint8_t> out(data.size() / unit * unit_out);
  if (!path_.engines.empty()) {
    run_dma(p, base, fi, core, data, out, core_model, unit);
    return out;
  }
  run_pio(p, base, core, data.data(), out.data(), data.size(), unit);
  return out;
}

std::uint64_t CoreDriver::replayed_together(const Process& p, const models::CpuThread& cpu,
                                            const models::PioRecording& recording, std::uint64_t left) {
  std::uint64_t n = cpu.repetitions_before_sync(recording, left);
  if (n <= 1) return 1;
  // Repetition j (from 0) starts at start + j d, after a preemption point for j > 0 that must switch to
  // nobody: before `until`.
  const sc_core::sc_time until = p.preemption_free_until(), start = cpu.now();
  if (until <= start) return 1;
  const std::uint64_t d = recording.initiator.duration.value();  // > 0: n > 1
  return std::min<std::uint64_t>(n, 1 + ((until - start).value() - 1) / d);
}

void CoreDriver::run_pio(Process& p, std::uint64_t base, const CoreInterface& core, const std::uint8_t* in,
                         std::uint8_t* out, std::uint64_t bytes, std::uint64_t unit) {
  const unsigned cipher_block_bytes = core.block.bytes, result_bytes = core.result.bytes;
  // In burst timing the first cipher block that others of the request follow is recorded, and the others are
  // replayed from it. Where every block is one cipher block, what is recorded and replayed is the block's own
  // work with it; else that work is done at each block's start, and a replay stops at the block's end.
  const bool whole = unit == cipher_block_bytes;
  // The request's own recording and words (processes may run requests between its cipher blocks), taken from
  // those earlier requests left, for their memory.
  PioScratch::Lease scratch(spare_);
  models::PioRecording& recording = scratch->recording;
  models::CpuThread* recorder = nullptr;  // the thread the recording began on (the process may move)
  bool replaying = false;
  RecordedBlock recorded;
  for (std::uint64_t off = 0, out_off = 0; off < bytes; off += cipher_block_bytes, out_off += result_bytes) {
    if (off > 0) p.preemption_point();
    models::CpuThread& cpu = p.cpu();
    if (replaying && &cpu != recorder) replaying = false;  // a recording replays on the thread it was made on
    const bool block_start = off % unit == 0;
    if (replaying) {
      if (block_start && !whole) cpu.compute(costs_.cycles_per_block);
      // The cipher blocks up to the thread's next synchronisation, and up to a preemption point that would
      // switch, in one replay (of this block's, unless every block is one).
      const std::uint64_t left = ((whole ? bytes : off / unit * unit + unit) - off) / cipher_block_bytes;
      const std::uint64_t n = replay_pio(p, base, core, in + off, out + out_off, left, *scratch, recorded);
      if (n == 0) {
        replaying = false;
        continue;
      }
      off += (n - 1) * cipher_block_bytes;
      out_off += (n - 1) * result_bytes;
      continue;
    }
    const bool record = costs_.pio_timing == PioTiming::kBurst && off + cipher_block_bytes < bytes;
    if (block_start && !(record && whole)) cpu.compute(costs_.cycles_per_block);
    Process::Ledger before{};
    const std::uint64_t polls_before = polls_;
    if (record) {
      before = p.spent();
      recorder = &cpu;
      cpu.begin_recording(recording);
      ++recordings_;
    }
    try {
      if (record && whole) cpu.compute(costs_.cycles_per_block);
      if (costs_.cycles_per_cipher_block) cpu.compute(costs_.cycles_per_cipher_block);
      write_field(cpu, base, core.block, in + off);
      cpu.write32(base + reg::kCtrl, reg::kCtrlNext);
      wait_status(p, base, reg::kStatusReady | reg::kStatusValid);
      read_field(p.cpu(), base, core.result, out + out_off);
    } catch (...) {
      if (record) recorder->end_recording(recording);
      throw;
    }
    if (!record) continue;
    recorder->end_recording(recording);
    // Replayable when every model on the path could note it and nothing else ran meanwhile (on the same
    // thread); else the next cipher block is recorded again.
    replaying = recording.replayable() && recorder == &p.cpu() &&
                own_work_only(before, p.spent(), recording.initiator.duration, &recorded.core_wait);
    recorded.polls = polls_ - polls_before;
  }
}

std::uint64_t CoreDriver::replay_pio(Process& p, std::uint64_t base, const CoreInterface& core,
                                     const std::uint8_t* in, std::uint8_t* out, std::uint64_t left,
                                     PioScratch& scratch, const RecordedBlock& recorded) {
  const unsigned cipher_block_bytes = core.block.bytes, result_bytes = core.result.bytes;
  const unsigned in_words = core.block.bytes / 4, out_words = core.result.bytes / 4;
  const unsigned stride = std::max(in_words, out_words);
  models::CpuThread& cpu = p.cpu();
  models::PioRecording& recording = scratch.recording;
  std::vector<std::uint32_t>& words = scratch.words;  // replayed cipher blocks in, their results out
  const std::uint64_t n = left > 1 ? replayed_together(p, cpu, recording, left) : 1;
  words.resize(n * stride);
  const std::uint8_t* from = in;
  for (std::uint32_t* w = words.data(); w != words.data() + n * stride;
       w += stride, from += cipher_block_bytes)
    for (unsigned i = 0; i < in_words; ++i) w[i] = be32(from + byte_of_word(core.block, i));
  const auto status = cpu.replay(base + core.block.offset, words.data(),
                                 static_cast<unsigned>(4 * words.size()), recording, n);
  ++replay_payloads_;
  if (status == tlm::TLM_INCOMPLETE_RESPONSE) {  // the core never finished the replayed block: poll it
    // (a core that can hang replays one cipher block at a time: this one)
    wait_status(p, base, reg::kStatusReady | reg::kStatusValid);
    read_field(p.cpu(), base, core.result, out);
    return 0;
  }
  if (status != tlm::TLM_OK_RESPONSE)
    throw DeviceFault("PIO replay to the core at " + models::hex(base) + " failed: response " +
                      std::to_string(static_cast<int>(status)));
  std::uint8_t* to = out;
  for (const std::uint32_t* w = words.data(); w != words.data() + n * stride; w += stride, to += result_bytes)
    for (unsigned i = 0; i < out_words; ++i) store_be32(to + byte_of_word(core.result, i), w[i]);
  if (recorded.core_wait != sc_core::SC_ZERO_TIME)
    p.recount(TimeUse::kCpuIo, TimeUse::kCoreCompute,
              n == 1 ? recorded.core_wait : models::whole_periods(recorded.core_wait, n, "core waits"));
  polls_ += recorded.polls * n;
  replays_ += n;
  return n;
}

void CoreDriver::run_dma(Process& p, std::uint64_t base, const FunctionalityInfo& fi,
                         const CoreInterface& core, const std::vector<std::uint8_t>& data,
                         std::vector<std::uint8_t>& out, const models::IpCore* core_model,
                         std::uint64_t unit_bytes) {
  const unsigned block_words = fi.block_bytes / 4, result_words = fi.output_bytes() / 4;
  const std::uint64_t fifo_words = p.cpu().read32(base + reg::kFifoWords);
  // This core's engine and its share of the buffer.
  const auto engine = path_.engine_of.find(base);
  const std::size_t e = engine == path_.engine_of.end() ? 0 : engine->second % path_.engines.size();
  DmaChannel& channel = *path_.engines[e];
  const std::uint64_t share = buffer_share(path_.buffer_bytes, path_.engines.size());
  const std::uint64_t buffer = path_.buffer + e * share;
  const std::uint64_t piece_blocks = blocks_per_piece(fi, fifo_words, share);
  if (piece_blocks == 0)
    throw DriverError("DMA data path: a " + std::string(fi.name) + " block does not fit the core's FIFO (" +
                      std::to_string(fifo_words) + " words) or its share of the buffer (" +
                      std::to_string(share) + " bytes)");
  const std::uint64_t blocks = data.size() / fi.block_bytes;  // cipher blocks
  const std::uint64_t per_unit = unit_bytes / fi.block_bytes;
  auto units_begun_before = [&](std::uint64_t b) { return (b + per_unit - 1) / per_unit; };
  std::vector<std::uint32_t> words, results;
  for (std::uint64_t first = 0; first < blocks; first += piece_blocks) {
    if (first > 0) p.preemption_point();
    const std::uint64_t n = std::min(piece_blocks, blocks - first);
    // Every block that begins in the piece, and every cipher block of it.
    p.cpu().compute(costs_.cycles_per_block * (units_begun_before(first + n) - units_begun_before(first)) +
                    costs_.cycles_per_cipher_block * n);
    words.resize(n * block_words);
    for (std::uint64_t b = 0; b < n; ++b)
      for (unsigned i = 0; i < block_words; ++i)
        words[b * block_words + i] = be32(&data[(first + b) * fi.block_bytes + byte_of_word(core.block, i)]);
    results.resize(n * result_words);
    const unsigned bytes = static_cast<unsigned>(4 * words.size());
    const unsigned result_bytes = static_cast<unsigned>(4 * results.size());
    const std::uint64_t in = buffer, at = buffer + bytes;
    DmaChannel::Lease lease(channel, p);  // the buffer is ours until the results are read
    if (p.cpu().debug_write(in, words.data(), bytes) != bytes)
      throw DriverError("DMA data path: the buffer at " + models::hex(in) + " is not writable memory");
    if (!lease.transfer(in, false, base + reg::kStreamIn, true, words.size(), core_model, watchdog(p)) ||
        !lease.transfer(base + reg::kStreamOut, true, at, false, results.size(), core_model, watchdog(p)))
      throw DeviceFault("DMA transfer to or from the core at " + models::hex(base) + " failed");
    if (p.cpu().debug_read(at, results.data(), result_bytes) != result_bytes)
      throw DriverError("DMA data path: the buffer at " + models::hex(at) + " is not readable memory");
    for (std::uint64_t b = 0; b < n; ++b)
      for (unsigned i = 0; i < result_words; ++i)
        store_be32(&out[(first + b) * fi.output_bytes() + byte_of_word(core.result, i)],
                   results[b * result_words + i]);
  }
}

void write_number(models::CpuThread& cpu, std::uint64_t address, const crypto::BigInt& v, std::size_t words) {
  for (const std::uint32_t w : v.to_words(words)) {
    cpu.write32(address, w);
    address += 4;
  }
}

crypto::BigInt read_number(models::CpuThread& cpu, std::uint64_t address, std::size_t words) {
  std::vector<std::uint32_t> w(words);
  for (std::size_t i = 0; i < words; ++i) w[i] = cpu.read32(address + 4 * i);
  return crypto::BigInt::from_words(w);
}

DmaChannel::Lease::Lease(DmaChannel& channel, Process& p) : channel_(channel), p_(p) {
  while (channel_.busy_) p_.wait_for(channel_.released_, TimeUse::kSlotWait);
  channel_.busy_ = true;
}

DmaChannel::Lease::~Lease() {
  channel_.busy_ = false;
  p_.notify(channel_.released_);
}

bool DmaChannel::Lease::transfer(std::uint64_t src, bool src_fixed, std::uint64_t dst, bool dst_fixed,
                                 std::uint64_t words, const models::IpCore* core,
                                 const sc_core::sc_time& watchdog) {
  models::CpuThread& cpu = p_.cpu();  // until the wait below
  const std::uint64_t base = channel_.base_;
  const sc_core::sc_time core_before = core ? core->stream_wait_time() : sc_core::SC_ZERO_TIME;
  cpu.write32(base + dma_reg::kSrc, static_cast<std::uint32_t>(src));
  cpu.write32(base + dma_reg::kDst, static_cast<std::uint32_t>(dst));
  cpu.write32(base + dma_reg::kWords, static_cast<std::uint32_t>(words));
  cpu.write32(base + dma_reg::kCtrl, dma_reg::kCtrlStart | (src_fixed ? dma_reg::kCtrlSrcFixed : 0u) |
                                         (dst_fixed ? dma_reg::kCtrlDstFixed : 0u));
  constexpr auto kMoving = static_cast<std::size_t>(TimeUse::kBusTransfer);
  const std::uint64_t moving_before = p_.spent()[kMoving];
  // Sleep until the interrupt (or the watchdog).
  if (watchdog == sc_core::SC_ZERO_TIME) {
    p_.wait_for(channel_.engine_.done_event(), TimeUse::kBusTransfer);
  } else if (!p_.wait_for(channel_.engine_.done_event(), watchdog, TimeUse::kBusTransfer)) {
    p_.cpu().write32(base + dma_reg::kCtrl, dma_reg::kCtrlAbort);
    // The engine ends the transfer at the abort's time, which the write's own synchronisation may reach: its
    // done event can come before this process waits for it. So the engine's state is what is waited for, a
    // DMA clock period at a time, as a driver polls STATUS after an abort.
    while (channel_.engine_.transferring())
      p_.wait_for(channel_.engine_.done_event(), channel_.engine_.params().clock_period,
                  TimeUse::kBusTransfer);
    throw DriverTimeout("DMA transfer from " + models::hex(src) + " to " + models::hex(dst) +
                        " did not end within the watchdog's " + sc_core::sc_time(watchdog).to_string());
  }
  if (core) {  // what the transfer spent on the core (at most all of it) was waiting for the core
    const sc_core::sc_time moving = sc_core::sc_time::from_value(p_.spent()[kMoving] - moving_before);
    p_.recount(TimeUse::kBusTransfer, TimeUse::kCoreCompute,
               std::min(core->stream_wait_time() - core_before, moving));
  }
  return !(p_.cpu().read32(base + dma_reg::kStatus) & dma_reg::kStatusError);
}

bool ReconfigurationDriver::configure(Process& p, unsigned slot_index, std::uint64_t address,
                                      std::uint64_t bytes, std::string* error,
                                      const std::function<bool()>& cancelled) const {
  const std::uint64_t words = bytes / 4;
  p.cpu().write32(port_ + port_reg::kCtrl, port_reg::kCtrlStart | slot_index);
  // A configuration that stops half way is aborted: the port's session ends and the slot is left empty, so
  // that a later request can configure it again. (The process's thread: a DMA feed waits, and the process
  // may resume on another one.)
  const auto abort = [&] { p.cpu().write32(port_ + port_reg::kCtrl, port_reg::kCtrlAbort); };
  // In one piece, or in pieces of kCancellablePiece words with a cancellation check (and a preemption point)
  // between them.
  const std::uint64_t piece = cancelled ? kCancellablePiece : words;
  try {
    for (std::uint64_t done = 0; done < words;) {
      if (done > 0 && cancelled) {
        p.preemption_point();
        if (cancelled()) {
          *error = "cancelled";
          abort();
          return false;
        }
      }
      const std::uint64_t n = std::min(piece, words - done);
      if (feed_.dma) {
        if (!DmaChannel::Lease(*feed_.dma, p)
                 .transfer(address + 4 * done, false, port_ + port_reg::kData, true, n)) {
          *error = "DMA transfer of the bitstream failed";
          abort();
          return false;
        }
      } else {
        const auto status = p.cpu().stream_copy(address + 4 * done, port_ + port_reg::kData, true, n,
                                                feed_.cpu_copy_cycles_per_word);
        if (status != tlm::TLM_OK_RESPONSE) {
          *error = "bitstream copy failed: bus error";
          abort();
          return false;
        }
      }
      done += n;
    }
  } catch (const std::overflow_error&) {  // a duration past 2^57 ps (models/kernel_time.h)
    abort();
    throw;
  }
  const std::uint32_t status = p.cpu().read32(port_ + port_reg::kStatus);
  if ((status & port_reg::kStatusDone) && !(status & port_reg::kStatusError)) return true;
  if (status & port_reg::kStatusBusy) {
    *error = "configuration port still busy: bitstream incomplete";
    abort();
  } else {
    *error = "configuration port reported an error";
  }
  return false;
}

}  // namespace rsoc::runtime
