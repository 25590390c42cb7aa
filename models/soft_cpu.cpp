#include "models/soft_cpu.h"

#include <algorithm>
#include <utility>

#include "models/address_map.h"
#include "models/stream.h"

namespace rsoc::models {

using sc_core::sc_time;

SoftCpu::SoftCpu(const sc_core::sc_module_name& name, const CpuParams& params)
    : sc_module(name), params_(params) {
  if (params.hw_threads == 0)
    throw ElaborationError(std::string(this->name()) + ": needs at least one hardware thread");
  for (unsigned i = 0; i < params.hw_threads; ++i) threads_.push_back(std::make_unique<CpuThread>(*this, i));
}

void SoftCpu::attach_extension(const ExtensionUnit& prototype) {
  const std::string unit = prototype.name();
  if (threads_.front()->has_extension(unit))
    throw ElaborationError(std::string(name()) + ": extension " + unit + " attached twice");
  for (auto& t : threads_) t->extensions_.push_back(prototype.new_context());
}

ExtensionUnit& CpuThread::extension(const std::string& name) {
  return const_cast<ExtensionUnit&>(std::as_const(*this).extension(name));
}

const ExtensionUnit& CpuThread::extension(const std::string& name) const {
  for (const auto& e : extensions_)
    if (e->name() == name) return *e;
  throw std::out_of_range(std::string(cpu_.name()) + ": no extension " + name);
}

bool CpuThread::has_extension(const std::string& name) const {
  return std::any_of(extensions_.begin(), extensions_.end(),
                     [&](const auto& e) { return e->name() == name; });
}

CpuThread::CpuThread(SoftCpu& cpu, unsigned index)
    : cpu_(cpu), index_(index), issue_(cpu.cycles(cpu.params().mmio_cycles)) {
  qk_.reset();
  // The payloads own their extensions (a payload frees its extensions when it is destroyed).
  pio_ = new PioReplayExtension;
  trans_.set_extension(pio_);
  replay_ = new PioReplayExtension;
  replay_->replaying = true;
  replay_trans_.set_extension(replay_);
  trans_tag_ = new EnergyTag;
  trans_.set_extension(trans_tag_);
  replay_tag_ = new EnergyTag;
  replay_trans_.set_extension(replay_tag_);
}

void CpuThread::keep(const sc_time& local, const sc_time& kernel_now) {
  if (pio_->recording) pio_->recording->initiator.steps.push_back(kernel_now + local - recording_from_.now);
  qk_.set(local);
  if (qk_.need_sync_at(kernel_now)) qk_.sync();
}

double SoftCpu::smt_slowdown(unsigned active, double smt_throughput) const {
  const unsigned n = thread_count();
  if (params_.smt_throughput <= 0 || n < 2 || active < 2) return 1.0;
  const double k = static_cast<double>(active);
  const double gain = smt_throughput > 0 ? smt_throughput : params_.smt_throughput;
  const double together = 1 + (gain - 1) * (k - 1) / static_cast<double>(n - 1);
  return k / together;
}

void CpuThread::set_active(bool active) {
  if (active == active_) return;
  active_ = active;
  active ? ++cpu_.active_threads_ : --cpu_.active_threads_;
  if (cpu_.params_.smt_throughput > 0) cpu_.threads_changed_.notify(sc_core::SC_ZERO_TIME);
}

sc_time CpuThread::cycle_time(std::uint64_t cycles, double smt_throughput) const {
  const sc_time t = cpu_.cycles(cycles);
  if (cpu_.params_.smt_throughput <= 0) return t;
  // itself counted once
  return t * cpu_.smt_slowdown(cpu_.active_threads_ + (active_ ? 0u : 1u), smt_throughput);
}

void CpuThread::compute(std::uint64_t cycles, double smt_throughput) {
  const sc_time t = cycle_time(cycles, smt_throughput);
  cycles_ += cycles;
  compute_time_ += t;
  keep(qk_.get_local_time() + t);
}

void CpuThread::charge(const sc_time& t) {
  cycles_ += static_cast<std::uint64_t>(t / cpu_.params().clock_period + 0.5);
  compute_time_ += t;
}

void CpuThread::busy_wait(const sc_time& until) {
  const sc_time t = now();
  if (until <= t) return;
  cycles_ += static_cast<std::uint64_t>((until - t) / cpu_.params().clock_period + 0.5);
  io_time_ += until - t;
  keep(qk_.get_local_time() + (until - t));
}

void CpuThread::sync() {
  // At no offset a synchronisation is a zero-time wait: one delta cycle, in which whatever else is due at this
  // instant runs first. With nothing due (no runnable process, no delta notification, no pending update) the
  // wait would resume this thread at once with nothing having happened: it is skipped.
  if (qk_.get_local_time() == sc_core::SC_ZERO_TIME && !sc_core::sc_pending_activity_at_current_time()) {
    qk_.reset();
    return;
  }
  qk_.sync();
}

tlm::tlm_response_status CpuThread::transport(tlm::tlm_command command, std::uint64_t address,
                                              unsigned char* data, unsigned length, bool issue) {
  trans_.set_command(command);
  trans_.set_address(address);
  trans_.set_data_ptr(data);
  trans_.set_data_length(length);
  trans_.set_streaming_width(length);
  trans_.set_byte_enable_ptr(nullptr);
  trans_.set_dmi_allowed(false);
  trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const sc_time t0 = now();
  sc_time delay = qk_.get_local_time();
  if (issue) delay += issue_;
  cpu_.initiator->b_transport(trans_, delay);
  ++accesses_;
  if (issue) cycles_ += cpu_.params().mmio_cycles;
  // A target may have synchronised (wait) inside b_transport: measure the stall on the thread's clock.
  const sc_time kernel_now = kernel_time();
  io_time_ += kernel_now + delay - t0;
  keep(delay, kernel_now);
  return trans_.get_response_status();
}

void CpuThread::fail(const char* access, std::uint64_t address, tlm::tlm_response_status status) const {
  throw BusError(std::string(cpu_.name()) + ": " + access + " at " + hex(address) +
                     " failed: " + trans_.get_response_string(),
                 address, status);
}

void CpuThread::begin_recording(PioRecording& r) {
  r.begin(now());
  recording_from_ = Snapshot{now(), compute_time_, io_time_, accesses_, cycles_};
  pio_->recording = &r;
}

void CpuThread::end_recording(PioRecording& r) {
  if (pio_->recording != &r) {
    r.refuse();
    return;
  }
  pio_->recording = nullptr;
  const Snapshot& s = recording_from_;
  PioRecording::InitiatorCost& c = r.initiator;
  c.duration = now() - s.now;
  c.compute = compute_time_ - s.compute;
  c.io = io_time_ - s.io;
  c.accesses = accesses_ - s.accesses;
  c.cycles = cycles_ - s.cycles;
  if (r.target_accesses() != c.accesses) r.refuse();  // an access no target could replay
  r.end();
}

tlm::tlm_response_status CpuThread::replay(std::uint64_t address, void* data, unsigned length,
                                           PioRecording& r, std::uint64_t repetitions) {
  const PioRecording::InitiatorCost& c = r.initiator;
  replay_->recording = &r;
  replay_->shift = now() - r.start();
  replay_->repetitions = repetitions;
  replay_->period = c.duration;
  replay_trans_.set_command(tlm::TLM_WRITE_COMMAND);
  replay_trans_.set_address(address);
  replay_trans_.set_data_ptr(static_cast<unsigned char*>(data));
  replay_trans_.set_data_length(length);
  replay_trans_.set_streaming_width(length);
  replay_trans_.set_byte_enable_ptr(nullptr);
  replay_trans_.set_dmi_allowed(false);
  replay_trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = qk_.get_local_time();  // the models annotate nothing for a replay
  cpu_.initiator->b_transport(replay_trans_, delay);
  replay_->recording = nullptr;
  // The local time moves as the recorded accesses moved it, so that the thread synchronises at the same
  // times; with no synchronisation due before the end, one step does the same.
  const sc_time start = now();
  sc_time duration = c.duration;
  if (repetitions == 1) {
    cycles_ += c.cycles;
    accesses_ += c.accesses;
    compute_time_ += c.compute;
    io_time_ += c.io;
  } else {
    cycles_ += c.cycles * repetitions;
    accesses_ += c.accesses * repetitions;
    compute_time_ += whole_periods(c.compute, repetitions, "replayed computation");
    io_time_ += whole_periods(c.io, repetitions, "replayed accesses");
    duration = whole_periods(c.duration, repetitions, "replayed repetitions");
  }
  if (start + duration < qk_.next_sync_point()) {
    qk_.set(qk_.get_local_time() + duration);
  } else {
    sc_time from = start;
    for (std::uint64_t j = 0; j < repetitions; ++j, from += c.duration) {
      for (const sc_time& step : c.steps) {
        const sc_time kernel_now = kernel_time();
        keep(from + step - kernel_now, kernel_now);
      }
    }
  }
  return replay_trans_.get_response_status();
}

std::uint64_t CpuThread::repetitions_before_sync(const PioRecording& r, std::uint64_t most) const {
  if (most <= 1 || !r.repeatable()) return 1;
  const sc_time start = now(), &sync = qk_.next_sync_point();
  const sc_time& d = r.initiator.duration;
  if (sync <= start || d == sc_core::SC_ZERO_TIME) return 1;
  // The largest k with start + k d < sync.
  const std::uint64_t k = ((sync - start).value() - 1) / d.value();
  return std::max<std::uint64_t>(1, std::min(k, most));
}

namespace {
unsigned debug_access(tlm::tlm_base_initiator_socket<>& socket, tlm::tlm_command command,
                      std::uint64_t address, unsigned char* data, unsigned length) {
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(data);
  trans.set_data_length(length);
  trans.set_streaming_width(length);
  return socket->transport_dbg(trans);
}
}  // namespace

unsigned CpuThread::debug_write(std::uint64_t address, const void* data, unsigned length) {
  // TLM payloads carry a non-const pointer; a write never modifies the data.
  return debug_access(cpu_.initiator, tlm::TLM_WRITE_COMMAND, address,
                      static_cast<unsigned char*>(const_cast<void*>(data)), length);
}

unsigned CpuThread::debug_read(std::uint64_t address, void* data, unsigned length) {
  return debug_access(cpu_.initiator, tlm::TLM_READ_COMMAND, address, static_cast<unsigned char*>(data),
                      length);
}

tlm::tlm_response_status CpuThread::stream_copy(std::uint64_t src, std::uint64_t dst, bool dst_fixed,
                                                std::uint64_t words, unsigned cycles_per_word,
                                                std::string* bottleneck) {
  sc_time delay = qk_.get_local_time();
  const sc_time start = now();
  const auto result = stream_words(
      cpu_.initiator, this, std::string(cpu_.name()) + ".copy_loop", src, false, dst, dst_fixed, words,
      cpu_.cycles(cycles_per_word), cpu_.params().stream_chunk_words, delay,
      [this](sc_time& d) {
        keep(d);
        d = qk_.get_local_time();
      },
      payer_);
  keep(delay);
  cycles_ += result.words_moved * cycles_per_word;
  io_time_ += now() - start;
  if (bottleneck) *bottleneck = result.bottleneck;
  return result.status;
}

void SoftCpu::statistics(double end_ms, std::vector<StatGroup>& out) const {
  double busy = 0;
  for (unsigned i = 0; i < thread_count(); ++i) {
    const CpuThread& t = *threads_[i];
    StatGroup g{std::string(name()) + ".thread" + std::to_string(i), "cpu_thread", {}};
    g.add("busy_ms", to_ms(t.busy_time()), "ms", "time computing or stalled on device accesses")
        .add("compute_ms", to_ms(t.compute_time()), "ms", "time spent computing")
        .add("io_ms", to_ms(t.io_time()), "ms",
             "time stalled on device accesses (bus, wait states, polls, copies)")
        .add("utilization", utilization(to_ms(t.busy_time()), end_ms), "ratio",
             "busy time over simulated time")
        .add("cycles", static_cast<double>(t.cycles()), "cycles", "CPU cycles charged")
        .add("accesses", static_cast<double>(t.accesses()), "count", "device loads and stores issued");
    if (t.has_extension("desrnd"))
      g.add("desrnd_instructions", static_cast<double>(t.extension("desrnd").instructions()), "count",
            "desrnd extension instructions executed");
    out.push_back(g);
    busy += to_ms(t.busy_time());
  }
  // The CPU as a whole (after its threads: on a tie, a thread is the busiest resource).
  const double threads = static_cast<double>(thread_count());
  StatGroup g{std::string(name()), "cpu", {}};
  g.add("busy_ms", busy, "ms", "time its hardware threads computed or stalled on device accesses, summed")
      .add("utilization", utilization(busy, end_ms) / threads, "ratio",
           "busy time over simulated time, per hardware thread")
      .add("hw_threads", threads, "count", "hardware threads");
  if (has_power())
    g.add("energy_mj", (idle_mw() * end_ms + busy_thread_mw() * busy) * 1e-3, "mJ",
          "idle power over the run, and what each busy thread adds while busy");
  out.push_back(g);
}
}  // namespace rsoc::models
