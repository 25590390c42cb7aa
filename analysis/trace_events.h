#pragma once
// TraceEventWriter: trace.json, a Chrome/Perfetto trace of a window of one run (the Trace Event Format: a
// JSON object whose "traceEvents" array holds complete events "ph":"X" with ts and dur in microseconds,
// written as exact decimals of picoseconds, and "ph":"M" metadata naming the lanes). Streamed as the models
// report; only the bus spans still growing are held in memory. Open it in https://ui.perfetto.dev.
//
// Lanes are threads, grouped by kind into processes: CPU (one lane per hardware thread), OS processes,
// buses, FPGA (the configuration port, then the slots), DMA engines. Spans:
//   - process lanes: each request from its start to its end (as requests.csv), named "<functionality>
//     <decision>"; args id, blocks, reason, slot, reconfig_us, queue_us, ok (and error);
//   - CPU-thread lanes: each interval a process holds the thread, named by the process;
//   - the port lane: each configuration from START to its last word, "configure <slot>"; args words, ok;
//   - slot lanes: each configuration ("configuration"; args core, ok) and each operation of the hosted core
//     ("init", "block", "stream": its busy interval);
//   - DMA lanes: each transfer ("transfer"; args words, bottleneck, ok);
//   - slot and bus lanes: faults and repairs as instant events ("ph":"i", "s":"t"), named as reported
//     ("hang", "upset", "repair", "configuration error", "bus error");
//   - bus lanes: activity spans. Merging rule: transfers on one bus separated by less than `bus_merge_gap` of
//     idle time are one span ("transfers"); the chunks of one pipelined stream (a DMA transfer, a CPU copy
//     loop) are one span however far apart they are ("burst"), together with whatever the bus carried in
//     between. args: accesses (transfers merged), words, busy_us (time the bus really carried them), bursts.
// Window: every interval is clipped to [window.start, window.end) before anything else (clipped spans carry
// args.clipped); what lies outside is dropped. The bus spans add up to the bus's busy time in the window, the
// core spans of a slot to its cores' busy time.

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/output_file.h"
#include "analysis/provenance.h"
#include "models/activity.h"
#include "runtime/request_record.h"

namespace rsoc::analysis {

struct TraceWindow {
  std::uint64_t start_ps = 0;
  std::uint64_t end_ps = std::numeric_limits<std::uint64_t>::max();  // max: to the end of the run
};

class TraceEventWriter final : public models::ActivitySink {
 public:
  // Creates `path` and writes the lane names. Throws OutputDirError when it cannot be written.
  TraceEventWriter(const std::string& path, std::vector<models::LaneInfo> lanes, TraceWindow window,
                   std::uint64_t bus_merge_gap_ps, const Provenance& provenance);

  // A completed request, on the lane of the process named r.app (throws std::logic_error for an unknown one).
  void request(const runtime::RequestRecord& r);
  // Writes the spans still growing and ends the document. Throws OutputDirError when writing failed.
  void finish();

  void bus_transfer(models::Lane bus, std::uint64_t start_ps, std::uint64_t end_ps, std::uint64_t words,
                    models::BurstRef burst, std::uint64_t now_ps) override;
  void configuration_began(models::Lane slot, std::uint64_t at_ps) override;
  void configuration_ended(models::Lane slot, std::uint64_t at_ps, const std::string* core) override;
  void core_work(models::Lane slot, const char* operation, std::uint64_t start_ps,
                 std::uint64_t end_ps) override;
  void port_configuration(models::Lane port, const std::string& slot, std::uint64_t start_ps,
                          std::uint64_t end_ps, std::uint64_t words, bool ok) override;
  void dma_transfer(models::Lane dma, std::uint64_t start_ps, std::uint64_t end_ps, std::uint64_t words,
                    const std::string& bottleneck, bool ok) override;
  void process_ran(models::Lane cpu_thread, const std::string& process, std::uint64_t start_ps,
                   std::uint64_t end_ps) override;
  void fault(models::Lane lane, const char* what, std::uint64_t at_ps) override;

 private:
  // A bus activity span still growing.
  struct BusSpan {
    std::uint64_t start = 0, end = 0, busy = 0, accesses = 0, words = 0;
    bool clipped = false;
    std::vector<std::uint64_t> bursts;       // streams it holds
    std::vector<std::uint64_t> open_bursts;  // those whose last chunk has not come yet
  };

  // Clips [start, end) to the window; false when nothing of it is inside (an instant is inside when its time
  // is). Sets *clipped when it cut something off.
  bool clip(std::uint64_t& start, std::uint64_t& end, bool* clipped) const;
  // Writes one complete event; `args` is the inside of a JSON object ("" for none).
  void span(models::Lane lane, const std::string& name, std::uint64_t start_ps, std::uint64_t end_ps,
            const std::string& args);
  void event(const std::string& json);
  bool mergeable(const BusSpan& a, const BusSpan& b) const;
  void write_bus_span(models::Lane lane, const BusSpan& s);
  // Writes the spans of `lane` that nothing booked from `now_ps` on can extend.
  void flush_bus(models::Lane lane, std::uint64_t now_ps);

  OutputFile out_;
  std::vector<models::LaneInfo> lanes_;
  std::map<std::string, models::Lane> process_lanes_;  // by process name
  TraceWindow window_;
  std::uint64_t gap_ps_;
  bool first_event_ = true;
  std::vector<std::vector<BusSpan>> bus_spans_;                  // by lane
  std::vector<std::optional<std::uint64_t>> configuring_since_;  // by slot lane: when the configuration began
};

// `ps` picoseconds as an exact decimal number of microseconds ("153600.1", "0.000001", "12").
std::string us_text(std::uint64_t ps);

}  // namespace rsoc::analysis
