// TraceEventWriter without a simulation: the JSON it writes, exact microseconds, the bus merging rule, stream
// bursts and window clipping.
#include "analysis/trace_events.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rsoc::analysis {
namespace {

namespace fs = std::filesystem;
using models::BurstRef;
using models::LaneKind;

constexpr std::uint64_t kUs = 1000000;  // picoseconds

// Lanes: 0 cpu.thread0, 1 app, 2 plb, 3 config_port, 4 slot0, 5 dma.
std::vector<models::LaneInfo> lanes() {
  return {{LaneKind::kCpuThread, "cpu.thread0"},  {LaneKind::kProcess, "app"}, {LaneKind::kBus, "plb"},
          {LaneKind::kConfigPort, "config_port"}, {LaneKind::kSlot, "slot0"},  {LaneKind::kDma, "dma"}};
}

fs::path trace_path(const std::string& name) {
  return fs::temp_directory_path() / ("rsoc_trace_" + name + "_" + std::to_string(::getpid()) + ".json");
}

nlohmann::json read(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

// The complete events of a trace.
std::vector<nlohmann::json> spans(const nlohmann::json& trace) {
  std::vector<nlohmann::json> out;
  for (const auto& e : trace.at("traceEvents"))
    if (e.at("ph") == "X") out.push_back(e);
  return out;
}

TEST(TraceEvents, MicrosecondsAreExactDecimals) {
  EXPECT_EQ(us_text(0), "0");
  EXPECT_EQ(us_text(1), "0.000001");
  EXPECT_EQ(us_text(12345678), "12.345678");
  EXPECT_EQ(us_text(153600100000), "153600.1");
  EXPECT_EQ(us_text(3 * kUs), "3");
  EXPECT_EQ(us_text(18446744073709551615ull), "18446744073709.551615");
}

TEST(TraceEvents, LanesAreNamedAndSpansCarryTheirArgs) {
  const fs::path path = trace_path("lanes");
  TraceEventWriter w(path.string(), lanes(), TraceWindow{}, 1 * kUs, Provenance{"9.9", "abc", 7});
  runtime::RequestRecord r;
  r.id = 3;
  r.app = "app";
  r.functionality = "aes128";
  r.blocks = 64;
  r.decision = "hardware";
  r.reason = "policy hardware";
  r.slot = "slot0";
  r.issue_ps = 10 * kUs;
  r.start_ps = 12 * kUs;
  r.end_ps = 20 * kUs + 1;
  r.reconfig_ps = 5 * kUs;
  w.request(r);
  w.process_ran(0, "app", 12 * kUs, 20 * kUs);
  w.process_ran(0, "app", 21 * kUs, 21 * kUs);  // held the CPU for no time: no span
  w.configuration_began(4, 13 * kUs);
  w.configuration_ended(4, 18 * kUs, nullptr);
  w.core_work(4, "block", 19 * kUs, 19 * kUs + 110000);
  w.port_configuration(3, "slot0", 13 * kUs, 18 * kUs, 1000, false);
  w.dma_transfer(5, 1 * kUs, 2 * kUs, 64, "bus", true);
  runtime::RequestRecord stranger = r;
  stranger.app = "nobody";
  EXPECT_THROW(w.request(stranger), std::logic_error);
  w.finish();

  const nlohmann::json t = read(path);
  EXPECT_EQ(t.at("displayTimeUnit"), "ns");
  EXPECT_EQ(t.at("otherData").at("scenario_sha256"), "abc");
  std::map<std::pair<int, int>, std::string> thread_names;
  std::map<int, std::string> process_names;
  for (const auto& e : t.at("traceEvents")) {
    if (e.at("name") == "thread_name")
      thread_names[{e.at("pid").get<int>(), e.at("tid").get<int>()}] = e.at("args").at("name");
    if (e.at("name") == "process_name") process_names[e.at("pid")] = e.at("args").at("name");
  }
  EXPECT_EQ(thread_names.size(), 6u);
  EXPECT_EQ(thread_names.at({3, 3}), "plb");
  EXPECT_EQ(process_names.at(4), "FPGA");
  const auto x = spans(t);
  ASSERT_EQ(x.size(), 6u);
  EXPECT_EQ(x[0].at("name"), "aes128 hardware");
  EXPECT_EQ(x[0].at("pid"), 2);
  EXPECT_EQ(x[0].at("tid"), 2);
  EXPECT_EQ(x[0].at("ts"), 12);
  EXPECT_EQ(x[0].at("dur").get<double>(), 8.000001);
  EXPECT_EQ(x[0].at("args"), nlohmann::json::parse(R"({"id":3,"blocks":64,"reason":"policy hardware",
      "slot":"slot0","reconfig_us":5,"queue_us":2,"ok":true})"));
  EXPECT_EQ(x[1].at("name"), "app");
  EXPECT_EQ(x[1].at("tid"), 1);
  EXPECT_EQ(x[2].at("name"), "configuration");
  EXPECT_EQ(x[2].at("args"), nlohmann::json::parse(R"({"ok":false})"));
  EXPECT_EQ(x[3].at("name"), "block");
  EXPECT_EQ(x[3].at("dur").get<double>(), 0.11);
  EXPECT_EQ(x[4].at("name"), "configure slot0");
  EXPECT_EQ(x[4].at("args").at("words"), 1000);
  EXPECT_EQ(x[5].at("name"), "transfer");
  EXPECT_EQ(x[5].at("args").at("bottleneck"), "bus");
  fs::remove(path);
}

TEST(TraceEvents, BusTransfersCloserThanTheGapAreOneSpan) {
  const fs::path path = trace_path("merge");
  TraceEventWriter w(path.string(), lanes(), TraceWindow{}, 1 * kUs, Provenance{});
  const std::uint64_t ns = 1000;
  // Three accesses 20 ns apart: one span. Then 5 us of idle: a new span, which the kernel's time closes.
  w.bus_transfer(2, 10 * ns, 40 * ns, 1, BurstRef{}, 0);
  w.bus_transfer(2, 60 * ns, 90 * ns, 1, BurstRef{}, 50 * ns);
  w.bus_transfer(2, 110 * ns, 170 * ns, 4, BurstRef{}, 100 * ns);
  w.bus_transfer(2, 5 * kUs, 5 * kUs + 30 * ns, 1, BurstRef{}, 4 * kUs);  // booked ahead of the kernel
  // Out of order within the quantum (another initiator): booked before the last span, less than a gap
  // before it.
  w.bus_transfer(2, 4 * kUs + 500 * ns, 4 * kUs + 530 * ns, 1, BurstRef{}, 4 * kUs);
  w.finish();
  const auto x = spans(read(path));
  ASSERT_EQ(x.size(), 2u);
  EXPECT_EQ(x[0].at("name"), "transfers");
  EXPECT_EQ(x[0].at("ts"), 0.01);
  EXPECT_EQ(x[0].at("dur").get<double>(), 0.16);
  EXPECT_EQ(x[0].at("args"), nlohmann::json::parse(R"({"accesses":3,"words":6,"busy_us":0.12})"));
  EXPECT_EQ(x[1].at("ts"), 4.5);
  EXPECT_EQ(x[1].at("dur").get<double>(), 0.53);
  EXPECT_EQ(x[1].at("args").at("accesses"), 2);
  fs::remove(path);
}

TEST(TraceEvents, AStreamIsOneBurstSpanHoweverFarApartItsChunks) {
  const fs::path path = trace_path("burst");
  TraceEventWriter w(path.string(), lanes(), TraceWindow{}, 1 * kUs, Provenance{});
  const std::uint64_t ns = 1000;
  // A copy loop: a read and a write per chunk, chunks 1 ms apart; another initiator's access in between.
  for (std::uint64_t chunk = 0; chunk < 3; ++chunk) {
    const std::uint64_t t = chunk * 1000 * kUs;
    const BurstRef b{9, chunk == 2};
    w.bus_transfer(2, t, t + 100 * ns, 32, b, t);
    w.bus_transfer(2, t + 100 * ns, t + 200 * ns, 32, b, t);
    if (chunk == 0) w.bus_transfer(2, 500 * kUs, 500 * kUs + 30 * ns, 1, BurstRef{}, 500 * kUs);
  }
  // After the last chunk the burst closes: a later access is a span of its own.
  w.bus_transfer(2, 3000 * kUs, 3000 * kUs + 30 * ns, 1, BurstRef{}, 3000 * kUs);
  w.finish();
  const auto x = spans(read(path));
  ASSERT_EQ(x.size(), 2u);
  EXPECT_EQ(x[0].at("name"), "burst");
  EXPECT_EQ(x[0].at("ts"), 0);
  EXPECT_EQ(x[0].at("dur").get<double>(), 2000.2);
  EXPECT_EQ(x[0].at("args"),
            nlohmann::json::parse(R"({"accesses":7,"words":193,"busy_us":0.63,"bursts":1})"));
  EXPECT_EQ(x[1].at("name"), "transfers");
  EXPECT_EQ(x[1].at("ts"), 3000);
  fs::remove(path);
}

TEST(TraceEvents, TheWindowClipsSpansAndDropsWhatLiesOutside) {
  const fs::path path = trace_path("window");
  TraceEventWriter w(path.string(), lanes(), TraceWindow{10 * kUs, 20 * kUs}, 0, Provenance{});
  w.core_work(4, "block", 5 * kUs, 12 * kUs);                      // clipped to [10, 12)
  w.core_work(4, "block", 12 * kUs, 14 * kUs);                     // inside
  w.core_work(4, "block", 19 * kUs, 25 * kUs);                     // clipped to [19, 20)
  w.core_work(4, "block", 20 * kUs, 21 * kUs);                     // outside
  w.bus_transfer(2, 9 * kUs, 11 * kUs, 2, BurstRef{}, 9 * kUs);    // busy 1 us inside the window
  w.bus_transfer(2, 21 * kUs, 22 * kUs, 2, BurstRef{}, 21 * kUs);  // outside
  w.finish();
  const nlohmann::json t = read(path);
  EXPECT_EQ(t.at("otherData").at("window_end_us"), 20);
  const auto x = spans(t);
  ASSERT_EQ(x.size(), 4u);
  double core_us = 0;
  for (const auto& e : x) {
    EXPECT_GE(e.at("ts").get<double>(), 10);
    EXPECT_LE(e.at("ts").get<double>() + e.at("dur").get<double>(), 20);
    if (e.at("tid") == 5) core_us += e.at("dur").get<double>();
  }
  EXPECT_DOUBLE_EQ(core_us, 2 + 2 + 1);
  EXPECT_EQ(x[0].at("args").at("clipped"), true);
  EXPECT_EQ(x[1].at("args").size(), 0u);
  EXPECT_EQ(x[3].at("args"), nlohmann::json::parse(R"({"accesses":1,"words":2,"busy_us":1,"clipped":true})"));
  fs::remove(path);
}

TEST(TraceEvents, FaultsAreInstantEventsOnTheirLanesInsideTheWindow) {
  const fs::path path = trace_path("faults");
  TraceEventWriter w(path.string(), lanes(), TraceWindow{10 * kUs, 20 * kUs}, 0, Provenance{});
  w.fault(4, "hang", 12 * kUs);
  w.fault(2, "bus error", 15 * kUs + 1);
  w.fault(4, "upset", 9 * kUs);    // before the window
  w.fault(4, "repair", 20 * kUs);  // at its end: outside
  w.finish();
  const nlohmann::json t = read(path);
  std::vector<nlohmann::json> instants;
  for (const auto& e : t.at("traceEvents"))
    if (e.at("ph") == "i") instants.push_back(e);
  ASSERT_EQ(instants.size(), 2u);
  EXPECT_EQ(instants[0],
            nlohmann::json::parse(R"({"name":"hang","ph":"i","s":"t","ts":12,"pid":4,"tid":5})"));
  EXPECT_EQ(instants[1].at("name"), "bus error");
  EXPECT_EQ(instants[1].at("ts").get<double>(), 15.000001);
  EXPECT_EQ(instants[1].at("tid"), 3);
  fs::remove(path);
}

}  // namespace
}  // namespace rsoc::analysis
