#include "platform/vcd_timeline.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>

#include "analysis/output_dir.h"
#include "analysis/output_file.h"
#include "models/fpga_slot.h"
#include "models/kernel_time.h"

namespace rsoc::platform {

namespace fs = std::filesystem;

// `path` is a link to a pipe, for SystemC to open; the thread copies the pipe into `path`.copy, which takes
// the link's place at finish().
class VcdTimeline::Copy {
 public:
  explicit Copy(const fs::path& path) : path_(path), copy_path_(path.string() + ".copy") {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw analysis::write_error(path, std::strerror(errno));
    read_fd_ = fds[0];
    write_fd_ = fds[1];
    out_ = std::make_unique<analysis::OutputFile>(copy_path_, path_);
    std::error_code ec;
    fs::create_symlink("/proc/self/fd/" + std::to_string(write_fd_), path_, ec);
    if (ec) throw analysis::write_error(path_, ec.message());
    thread_ = std::thread([this] { copy(); });
  }

  ~Copy() {
    end();
    ::close(read_fd_);
  }

  // After SystemC closed its file: the rest of the pipe, then the file in place of the link.
  void finish() {
    end();
    out_->close();
    std::error_code ec;
    fs::rename(copy_path_, path_, ec);
    if (ec) throw analysis::write_error(path_, ec.message());
  }

 private:
  void copy() {
    std::vector<char> buffer(1 << 16);
    std::string header;  // until the $date section is replaced
    bool dated = false;
    for (;;) {
      const ssize_t n = ::read(read_fd_, buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      if (dated) {
        out_->write(buffer.data(), n);  // after a failed write, the rest is read and dropped
        continue;
      }
      header.append(buffer.data(), static_cast<std::size_t>(n));
      dated = undate(header);
      if (dated) out_->write(header.data(), header.size());
    }
    if (!dated) out_->write(header.data(), header.size());
  }

  // SystemC dates the file with the wall clock; rsoc's results are the same from run to run, so the date
  // says where the run's time is instead (host.json). False until the header holds the whole $date section.
  static bool undate(std::string& header) {
    const std::size_t date = header.find("$date");
    if (date == std::string::npos) return header.size() > 4096;  // no $date in SystemC's header: left as is
    const std::size_t end = header.find("$end", date);
    if (end == std::string::npos) return header.size() > 4096;
    header.replace(date, end - date, "$date\n     see host.json (results are the same from run to run)\n");
    return true;
  }

  // Closes the pipe's write end (the end of the file once SystemC closed its own) and waits for the copy.
  void end() {
    if (write_fd_ >= 0) ::close(write_fd_);
    write_fd_ = -1;
    if (thread_.joinable()) thread_.join();
  }

  fs::path path_, copy_path_;
  int read_fd_ = -1, write_fd_ = -1;
  std::unique_ptr<analysis::OutputFile> out_;
  std::thread thread_;
};

using models::Lane;
using models::SlotState;

namespace {
const std::uint64_t kNoEnd = models::to_ps(sc_core::sc_max_time());  // a window without an end
int code(SlotState state) {
  return static_cast<int>(state);
}
}  // namespace

VcdTimeline::VcdTimeline(const sc_core::sc_module_name& name, const std::string& path_stem,
                         const std::vector<models::LaneInfo>& lanes, const sc_core::sc_time& start,
                         const sc_core::sc_time& end)
    : sc_module(name),
      start_ps_(models::to_ps(start)),
      end_ps_(models::to_ps(end)),
      is_bus_(lanes.size(), false),
      state_(lanes.size(), 0),
      slot_signals_(lanes.size()),
      bus_signals_(lanes.size()) {
  copy_ = std::make_unique<Copy>(path_stem + ".vcd");
  file_ = sc_core::sc_create_vcd_trace_file(path_stem.c_str());
  file_->set_time_unit(1, sc_core::SC_PS);
  for (Lane lane = 0; lane < lanes.size(); ++lane) {
    const std::string& signal = lanes[lane].name;
    if (lanes[lane].kind == models::LaneKind::kSlot) {
      slot_signals_[lane] =
          std::make_unique<sc_core::sc_signal<sc_dt::sc_uint<2>>>((signal + "_state").c_str());
      sc_core::sc_trace(file_, *slot_signals_[lane], signal + ".state");
    } else if (lanes[lane].kind == models::LaneKind::kBus) {
      is_bus_[lane] = true;
      bus_signals_[lane] = std::make_unique<sc_core::sc_signal<bool>>((signal + "_busy").c_str());
      sc_core::sc_trace(file_, *bus_signals_[lane], signal + ".busy");
    }
  }
  SC_HAS_PROCESS(VcdTimeline);
  SC_THREAD(replay);
}

VcdTimeline::~VcdTimeline() {
  if (file_) sc_core::sc_close_vcd_trace_file(file_);
}

void VcdTimeline::close() {
  if (file_) sc_core::sc_close_vcd_trace_file(file_);
  file_ = nullptr;
  if (copy_) copy_->finish();
  copy_.reset();
}

void VcdTimeline::push(std::uint64_t at_ps, Lane lane, int value) {
  if (at_ps >= end_ps_) return;
  queue_.push(Change{at_ps, seq_++, lane, value});
  if (!sc_core::sc_is_running()) return;  // elaboration: the replayer starts with the queue
  const std::uint64_t now = models::to_ps(models::kernel_time());
  if (at_ps < start_ps_ && !open_) {
    // Before the window: only the state matters. Nothing can be reported for a time before the kernel's, so
    // what is due by now is final.
    while (!queue_.empty() && queue_.top().at < start_ps_ && queue_.top().at <= now) {
      apply(queue_.top());
      queue_.pop();
    }
    return;
  }
  wake_.notify(at_ps > now ? sc_core::sc_time::from_value(at_ps - now) : sc_core::SC_ZERO_TIME);
}

void VcdTimeline::apply(const Change& c) {
  if (is_bus_[c.lane]) {
    state_[c.lane] += c.value;
    if (open_) bus_signals_[c.lane]->write(state_[c.lane] > 0);
  } else {
    state_[c.lane] = c.value;
    if (open_) slot_signals_[c.lane]->write(static_cast<unsigned>(c.value));
  }
}

void VcdTimeline::open_window() {
  while (!queue_.empty() && queue_.top().at < start_ps_) {
    apply(queue_.top());
    queue_.pop();
  }
  open_ = true;
  for (Lane lane = 0; lane < state_.size(); ++lane) {
    if (bus_signals_[lane]) bus_signals_[lane]->write(state_[lane] > 0);
    if (slot_signals_[lane]) slot_signals_[lane]->write(static_cast<unsigned>(state_[lane]));
  }
}

void VcdTimeline::replay() {
  for (;;) {
    const std::uint64_t now = models::to_ps(models::kernel_time());
    if (!open_ && now >= start_ps_) open_window();
    while (!queue_.empty() && queue_.top().at <= now) {
      apply(queue_.top());
      queue_.pop();
    }
    if (file_ && now >= end_ps_) {
      // The window's end: SystemC ends the file with the time it is closed at (changes up to the last
      // instant are in it: the trace is written at the end of every instant).
      sc_core::sc_close_vcd_trace_file(file_);
      file_ = nullptr;
    }
    std::uint64_t next = std::numeric_limits<std::uint64_t>::max();
    if (!queue_.empty()) next = queue_.top().at;
    if (!open_) next = std::min(next, start_ps_);
    if (file_ && end_ps_ != kNoEnd) next = std::min(next, end_ps_);
    if (next != std::numeric_limits<std::uint64_t>::max())
      wake_.notify(sc_core::sc_time::from_value(next - now));
    sc_core::wait(wake_);
  }
}

void VcdTimeline::bus_transfer(Lane bus, std::uint64_t start_ps, std::uint64_t end_ps) {
  if (start_ps == end_ps) return;
  push(start_ps, bus, +1);
  push(end_ps, bus, -1);
}

void VcdTimeline::configuration_began(Lane slot, std::uint64_t at_ps) {
  push(at_ps, slot, code(SlotState::kConfiguring));
}

void VcdTimeline::configuration_ended(Lane slot, std::uint64_t at_ps, bool ok) {
  push(at_ps, slot, code(ok ? SlotState::kReady : SlotState::kEmpty));
}

void VcdTimeline::core_work(Lane slot, std::uint64_t start_ps, std::uint64_t end_ps) {
  push(start_ps, slot, code(SlotState::kBusy));
  push(end_ps, slot, code(SlotState::kReady));
}

}  // namespace rsoc::platform
