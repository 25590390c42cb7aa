#include "analysis/trace_events.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "analysis/output_dir.h"

namespace rsoc::analysis {

using models::Lane;
using models::LaneKind;

std::string us_text(std::uint64_t ps) {
  std::string text = std::to_string(ps / 1000000);
  std::uint64_t fraction = ps % 1000000;
  if (fraction == 0) return text;
  std::string digits = std::to_string(fraction);
  digits.insert(0, 6 - digits.size(), '0');
  digits.erase(digits.find_last_not_of('0') + 1);
  return text + "." + digits;
}

namespace {

std::string quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The inside of a JSON object, built key by key.
class Args {
 public:
  Args& text(const char* key, const std::string& value) { return add(key, quoted(value)); }
  Args& count(const char* key, std::uint64_t value) { return add(key, std::to_string(value)); }
  Args& flag(const char* key, bool value) { return add(key, value ? "true" : "false"); }
  Args& micros(const char* key, std::uint64_t ps) { return add(key, us_text(ps)); }
  const std::string& str() const { return text_; }

 private:
  Args& add(const char* key, const std::string& json) {
    if (!text_.empty()) text_ += ',';
    text_ += quoted(key) + ':' + json;
    return *this;
  }
  std::string text_;
};

// Lanes of one kind are the threads of one trace process.
int pid_of(LaneKind kind) {
  switch (kind) {
    case LaneKind::kCpuThread:
      return 1;
    case LaneKind::kProcess:
      return 2;
    case LaneKind::kBus:
      return 3;
    case LaneKind::kConfigPort:
    case LaneKind::kSlot:
      return 4;
    case LaneKind::kDma:
      return 5;
  }
  return 0;
}

const char* group_name(int pid) {
  static const char* const names[] = {"", "CPU", "OS processes", "buses", "FPGA", "DMA engines"};
  return names[pid];
}

int tid_of(Lane lane) {
  return static_cast<int>(lane) + 1;
}

}  // namespace

TraceEventWriter::TraceEventWriter(const std::string& path, std::vector<models::LaneInfo> lanes,
                                   TraceWindow window, std::uint64_t bus_merge_gap_ps,
                                   const Provenance& provenance)
    : out_(path),
      lanes_(std::move(lanes)),
      window_(window),
      gap_ps_(bus_merge_gap_ps),
      bus_spans_(lanes_.size()),
      configuring_since_(lanes_.size()) {
  Args other;
  other.text("rsoc_version", provenance.version)
      .text("scenario_sha256", provenance.scenario_sha256)
      .count("seed", provenance.seed)
      .micros("window_start_us", window_.start_ps)
      .micros("bus_merge_gap_us", gap_ps_);
  if (window_.end_ps != std::numeric_limits<std::uint64_t>::max())
    other.micros("window_end_us", window_.end_ps);
  out_ << "{\"displayTimeUnit\":\"ns\",\"otherData\":{" << other.str() << "},\"traceEvents\":[";
  std::vector<bool> named(6, false);
  for (Lane lane = 0; lane < lanes_.size(); ++lane) {
    const models::LaneInfo& info = lanes_[lane];
    const int pid = pid_of(info.kind);
    const std::string ids = ",\"pid\":" + std::to_string(pid) + ",\"tid\":";
    if (!named[pid]) {
      named[pid] = true;
      event("{\"name\":\"process_name\",\"ph\":\"M\"" + ids +
            "0,\"args\":{\"name\":" + quoted(group_name(pid)) + "}}");
      event("{\"name\":\"process_sort_index\",\"ph\":\"M\"" + ids +
            "0,\"args\":{\"sort_index\":" + std::to_string(pid) + "}}");
    }
    const std::string tid = std::to_string(tid_of(lane));
    event("{\"name\":\"thread_name\",\"ph\":\"M\"" + ids + tid + ",\"args\":{\"name\":" + quoted(info.name) +
          "}}");
    event("{\"name\":\"thread_sort_index\",\"ph\":\"M\"" + ids + tid + ",\"args\":{\"sort_index\":" + tid +
          "}}");
    if (info.kind == LaneKind::kProcess) process_lanes_[info.name] = lane;
  }
}

void TraceEventWriter::event(const std::string& json) {
  out_ << (first_event_ ? "\n" : ",\n") << json;
  first_event_ = false;
}

bool TraceEventWriter::clip(std::uint64_t& start, std::uint64_t& end, bool* clipped) const {
  if (start == end) return start >= window_.start_ps && start < window_.end_ps;
  const std::uint64_t s = std::max(start, window_.start_ps), e = std::min(end, window_.end_ps);
  if (s >= e) return false;
  if (s != start || e != end) *clipped = true;
  start = s;
  end = e;
  return true;
}

void TraceEventWriter::span(Lane lane, const std::string& name, std::uint64_t start_ps, std::uint64_t end_ps,
                            const std::string& args) {
  event("{\"name\":" + quoted(name) + ",\"ph\":\"X\",\"ts\":" + us_text(start_ps) +
        ",\"dur\":" + us_text(end_ps - start_ps) + ",\"pid\":" + std::to_string(pid_of(lanes_[lane].kind)) +
        ",\"tid\":" + std::to_string(tid_of(lane)) + ",\"args\":{" + args + "}}");
}

void TraceEventWriter::fault(Lane lane, const char* what, std::uint64_t at_ps) {
  std::uint64_t end = at_ps;
  if (!clip(at_ps, end, nullptr)) return;
  event("{\"name\":" + quoted(what) + ",\"ph\":\"i\",\"s\":\"t\",\"ts\":" + us_text(at_ps) + ",\"pid\":" +
        std::to_string(pid_of(lanes_[lane].kind)) + ",\"tid\":" + std::to_string(tid_of(lane)) + "}");
}

void TraceEventWriter::request(const runtime::RequestRecord& r) {
  const auto lane = process_lanes_.find(r.app);
  if (lane == process_lanes_.end()) throw std::logic_error("trace: no lane for process \"" + r.app + "\"");
  std::uint64_t start = r.start_ps, end = r.end_ps;
  bool clipped = false;
  if (!clip(start, end, &clipped)) return;
  Args args;
  args.count("id", r.id)
      .count("blocks", r.blocks)
      .text("reason", r.reason)
      .text("slot", r.slot)
      .micros("reconfig_us", r.reconfig_ps)
      .micros("queue_us", r.start_ps - r.issue_ps)
      .flag("ok", r.ok);
  if (!r.ok) args.text("error", r.error);
  if (clipped) args.flag("clipped", true);
  span(lane->second, r.functionality + " " + r.decision, start, end, args.str());
}

bool TraceEventWriter::mergeable(const BusSpan& a, const BusSpan& b) const {
  if (b.start <= a.end + gap_ps_ && a.start <= b.end + gap_ps_) return true;
  for (std::uint64_t id : b.bursts)
    if (std::find(a.bursts.begin(), a.bursts.end(), id) != a.bursts.end()) return true;
  return false;
}

void TraceEventWriter::bus_transfer(Lane bus, std::uint64_t start_ps, std::uint64_t end_ps,
                                    std::uint64_t words, models::BurstRef burst, std::uint64_t now_ps) {
  bool clipped = false;
  if (clip(start_ps, end_ps, &clipped)) {
    BusSpan s;
    s.start = start_ps;
    s.end = end_ps;
    s.busy = end_ps - start_ps;
    s.accesses = 1;
    s.words = words;
    s.clipped = clipped;
    if (burst.id != 0) s.bursts.push_back(burst.id);
    std::vector<BusSpan>& spans = bus_spans_[bus];
    for (std::size_t i = 0; i < spans.size();) {
      if (!mergeable(spans[i], s)) {
        ++i;
        continue;
      }
      const BusSpan& m = spans[i];
      s.start = std::min(s.start, m.start);
      s.end = std::max(s.end, m.end);
      s.busy += m.busy;
      s.accesses += m.accesses;
      s.words += m.words;
      s.clipped = s.clipped || m.clipped;
      for (std::uint64_t id : m.bursts)
        if (std::find(s.bursts.begin(), s.bursts.end(), id) == s.bursts.end()) s.bursts.push_back(id);
      s.open_bursts.insert(s.open_bursts.end(), m.open_bursts.begin(), m.open_bursts.end());
      spans.erase(spans.begin() + static_cast<std::ptrdiff_t>(i));
      i = 0;  // the span grew: it may reach spans it did not reach before
    }
    if (burst.id != 0) {
      const auto open = std::find(s.open_bursts.begin(), s.open_bursts.end(), burst.id);
      if (burst.last && open != s.open_bursts.end()) {
        s.open_bursts.erase(open);
      } else if (!burst.last && open == s.open_bursts.end()) {
        s.open_bursts.push_back(burst.id);
      }
    }
    spans.push_back(std::move(s));
  }
  flush_bus(bus, now_ps);
}

void TraceEventWriter::write_bus_span(Lane lane, const BusSpan& s) {
  Args args;
  args.count("accesses", s.accesses).count("words", s.words).micros("busy_us", s.busy);
  if (!s.bursts.empty()) args.count("bursts", s.bursts.size());
  if (s.clipped) args.flag("clipped", true);
  span(lane, s.bursts.empty() ? "transfers" : "burst", s.start, s.end, args.str());
}

void TraceEventWriter::flush_bus(Lane lane, std::uint64_t now_ps) {
  std::vector<BusSpan>& spans = bus_spans_[lane];
  for (std::size_t i = 0; i < spans.size();) {
    // Nothing starts before the kernel's time: a span more than the gap before it is final (unless a stream
    // it holds may still send chunks).
    if (spans[i].open_bursts.empty() && spans[i].end + gap_ps_ < now_ps) {
      write_bus_span(lane, spans[i]);
      spans.erase(spans.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

void TraceEventWriter::configuration_began(Lane slot, std::uint64_t at_ps) {
  configuring_since_[slot] = at_ps;
}

void TraceEventWriter::configuration_ended(Lane slot, std::uint64_t at_ps, const std::string* core) {
  const std::optional<std::uint64_t> began = configuring_since_[slot];
  configuring_since_[slot].reset();
  if (!began) return;  // configured at boot
  std::uint64_t start = *began, end = at_ps;
  bool clipped = false;
  if (!clip(start, end, &clipped)) return;
  Args args;
  if (core) args.text("core", *core);
  args.flag("ok", core != nullptr);
  if (clipped) args.flag("clipped", true);
  span(slot, "configuration", start, end, args.str());
}

void TraceEventWriter::core_work(Lane slot, const char* operation, std::uint64_t start_ps,
                                 std::uint64_t end_ps) {
  bool clipped = false;
  if (!clip(start_ps, end_ps, &clipped)) return;
  span(slot, operation, start_ps, end_ps, clipped ? "\"clipped\":true" : "");
}

void TraceEventWriter::port_configuration(Lane port, const std::string& slot, std::uint64_t start_ps,
                                          std::uint64_t end_ps, std::uint64_t words, bool ok) {
  bool clipped = false;
  if (!clip(start_ps, end_ps, &clipped)) return;
  Args args;
  args.text("slot", slot).count("words", words).flag("ok", ok);
  if (clipped) args.flag("clipped", true);
  span(port, "configure " + slot, start_ps, end_ps, args.str());
}

void TraceEventWriter::dma_transfer(Lane dma, std::uint64_t start_ps, std::uint64_t end_ps,
                                    std::uint64_t words, const std::string& bottleneck, bool ok) {
  bool clipped = false;
  if (!clip(start_ps, end_ps, &clipped)) return;
  Args args;
  args.count("words", words).text("bottleneck", bottleneck).flag("ok", ok);
  if (clipped) args.flag("clipped", true);
  span(dma, "transfer", start_ps, end_ps, args.str());
}

void TraceEventWriter::process_ran(Lane cpu_thread, const std::string& process, std::uint64_t start_ps,
                                   std::uint64_t end_ps) {
  bool clipped = false;
  if (start_ps == end_ps || !clip(start_ps, end_ps, &clipped)) return;  // held the thread for no time
  span(cpu_thread, process, start_ps, end_ps, clipped ? "\"clipped\":true" : "");
}

void TraceEventWriter::finish() {
  for (Lane lane = 0; lane < bus_spans_.size(); ++lane) {
    for (const BusSpan& s : bus_spans_[lane]) write_bus_span(lane, s);
    bus_spans_[lane].clear();
  }
  out_ << "\n]}\n";
  out_.close();
}

}  // namespace rsoc::analysis
