// Timelines of a run (outputs.trace: trace.json; outputs.vcd: timeline.vcd) of scenarios/smoke_aes.json: a
// 153.6001 ms reconfiguration, then 4 requests of 64 AES blocks. The trace agrees with requests.csv and
// stats.json, the window clips it, the VCD's value changes fall where the trace's spans do. Each test is its
// own process (CTest), so each may run one session.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "platform/scenario.h"
#include "platform/session.h"
#include "tests/platform/platform_test_support.h"
#include "tests/test_paths.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using rsoc::test::kSmoke;

// Runs the smoke scenario with `overrides` into a fresh folder; returns the folder.
fs::path run_traced(const std::string& name, const std::vector<std::string>& overrides) {
  const fs::path out =
      fs::temp_directory_path() / ("rsoc_timeline_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(out);
  rsoc::platform::LoadOptions options;
  options.overrides = overrides;
  const auto summary = rsoc::platform::run_session(rsoc::platform::load_scenario_file(kSmoke, options), out);
  EXPECT_EQ(summary.failed, 0u);
  return out;
}

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

// requests.csv as rows of named cells (the smoke scenario's cells hold no commas).
std::vector<std::map<std::string, std::string>> read_requests(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream h(line);
  for (std::string cell; std::getline(h, cell, ',');) header.push_back(cell);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::stringstream l(line);
    std::map<std::string, std::string> row;
    std::size_t i = 0;
    for (std::string cell; std::getline(l, cell, ',') && i < header.size(); ++i) row[header[i]] = cell;
    rows.push_back(row);
  }
  return rows;
}

double stats_value(const json& stats, const std::string& resource, const std::string& name) {
  return stats.at("resources").at(resource).at("stats").at(name).at("value").get<double>();
}

std::vector<json> spans(const json& trace) {
  std::vector<json> out;
  for (const auto& e : trace.at("traceEvents"))
    if (e.at("ph") == "X") out.push_back(e);
  return out;
}

// The (pid, tid) of the lane named `name`.
std::pair<int, int> lane(const json& trace, const std::string& name) {
  for (const auto& e : trace.at("traceEvents"))
    if (e.at("name") == "thread_name" && e.at("args").at("name") == name)
      return {e.at("pid").get<int>(), e.at("tid").get<int>()};
  ADD_FAILURE() << "no lane " << name;
  return {0, 0};
}

std::vector<json> spans_on(const json& trace, const std::string& lane_name) {
  const auto id = lane(trace, lane_name);
  std::vector<json> out;
  for (const auto& e : spans(trace))
    if (e.at("pid") == id.first && e.at("tid") == id.second) out.push_back(e);
  return out;
}

double end_of(const json& span) {
  return span.at("ts").get<double>() + span.at("dur").get<double>();
}

// A VCD as value changes per signal ("plb.busy", "slot0.state"): (time in ps, value).
struct Vcd {
  std::string header;
  std::uint64_t last_time = 0;  // the file's last time
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> changes;
};

Vcd read_vcd(const fs::path& p) {
  std::ifstream in(p);
  Vcd vcd;
  std::map<std::string, std::string> name_of;  // identifier -> scope.name
  std::vector<std::string> scopes;
  std::string line;
  while (std::getline(in, line) && line.find("$enddefinitions") == std::string::npos) {
    vcd.header += line + "\n";
    std::istringstream words(line);
    std::string keyword;
    words >> keyword;
    if (keyword == "$scope") {
      std::string kind, scope;
      words >> kind >> scope;
      scopes.push_back(scope);
    } else if (keyword == "$upscope") {
      scopes.pop_back();
    } else if (keyword == "$var") {
      std::string type, width, id, name;
      words >> type >> width >> id >> name;
      name_of[id] = scopes.back() + "." + name;
    }
  }
  std::uint64_t time = 0;
  while (in >> line) {
    if (line == "$comment") {
      while (in >> line && line != "$end") {
      }
    } else if (line[0] == '#') {
      time = std::stoull(line.substr(1));
      vcd.last_time = time;
    } else if (line[0] == 'b') {
      std::string id;
      in >> id;
      vcd.changes[name_of.at(id)].push_back({time, std::stoull(line.substr(1), nullptr, 2)});
    } else if (line[0] == '0' || line[0] == '1') {
      vcd.changes[name_of.at(line.substr(1))].push_back({time, static_cast<std::uint64_t>(line[0] - '0')});
    }
  }
  return vcd;
}

// Changes as a VCD shows them: the last of those at one time, and none that repeats the value.
std::vector<std::pair<std::uint64_t, std::uint64_t>> as_vcd_shows(
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& changes) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (const auto& c : changes) {
    if (!out.empty() && out.back().first == c.first) out.pop_back();
    if (out.empty() || out.back().second != c.second) out.push_back(c);
  }
  return out;
}

std::uint64_t ps_of_us(double us) {
  return static_cast<std::uint64_t>(us * 1e6 + 0.5);
}

}  // namespace

TEST(Timeline, OffByDefault) {
  const fs::path out = run_traced("off", {});
  EXPECT_TRUE(fs::exists(out / "requests.csv"));
  EXPECT_FALSE(fs::exists(out / "trace.json"));
  EXPECT_FALSE(fs::exists(out / "timeline.vcd"));
  const json resolved = read_json(out / "resolved_scenario.json");
  EXPECT_TRUE(resolved.at("outputs").at("trace").is_null());
  EXPECT_TRUE(resolved.at("outputs").at("vcd").is_null());
  fs::remove_all(out);
}

TEST(Timeline, TraceAgreesWithRequestsAndStats) {
  const fs::path out = run_traced("trace", {"outputs.trace={}"});
  const json trace = read_json(out / "trace.json");
  ASSERT_TRUE(trace.at("traceEvents").is_array());
  EXPECT_EQ(trace.at("displayTimeUnit"), "ns");

  // Structure: every complete event is whole, on a named lane of a named group.
  std::set<std::pair<int, int>> named_threads;
  std::set<int> named_processes;
  for (const auto& e : trace.at("traceEvents")) {
    if (e.at("ph") != "M") continue;
    if (e.at("name") == "thread_name") named_threads.insert({e.at("pid").get<int>(), e.at("tid").get<int>()});
    if (e.at("name") == "process_name") named_processes.insert(e.at("pid").get<int>());
  }
  const std::vector<json> all = spans(trace);
  ASSERT_GT(all.size(), 256u);  // at least the core's blocks
  for (const auto& e : all) {
    for (const char* key : {"name", "ph", "ts", "dur", "pid", "tid"}) ASSERT_TRUE(e.contains(key)) << e;
    EXPECT_TRUE(e.at("name").is_string());
    EXPECT_TRUE(e.at("ts").is_number());
    EXPECT_GE(e.at("dur").get<double>(), 0);
    EXPECT_TRUE(named_threads.count({e.at("pid").get<int>(), e.at("tid").get<int>()})) << e;
    EXPECT_TRUE(named_processes.count(e.at("pid").get<int>())) << e;
  }

  // Requests: one span each on the application's lane, from start to end as in requests.csv.
  const auto rows = read_requests(out / "requests.csv");
  const std::vector<json> requests = spans_on(trace, "encryptor");
  ASSERT_EQ(requests.size(), rows.size());
  ASSERT_EQ(rows.size(), 4u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& r = requests[i];
    EXPECT_EQ(r.at("name"), "aes128 hardware");
    EXPECT_EQ(r.at("args").at("id"), std::stoull(rows[i].at("id")));
    EXPECT_EQ(r.at("args").at("blocks"), 64);
    EXPECT_EQ(r.at("args").at("slot"), "slot0");
    EXPECT_EQ(r.at("args").at("reason"), rows[i].at("reason"));
    EXPECT_NEAR(r.at("ts").get<double>(), std::stod(rows[i].at("start_ms")) * 1e3, 1e-6);
    EXPECT_NEAR(end_of(r), std::stod(rows[i].at("end_ms")) * 1e3, 1e-6);
  }

  // The reconfiguration: the port's span runs from START to the last word; requests.csv's reconfig_ms also
  // counts the driver's START write and STATUS read around it (50 ns each: CPU issue, bus, port access).
  const std::vector<json> port = spans_on(trace, "config_port");
  ASSERT_EQ(port.size(), 1u);
  EXPECT_EQ(port[0].at("name"), "configure slot0");
  EXPECT_EQ(port[0].at("args").at("words"), 128000);
  EXPECT_NEAR(std::stod(rows[0].at("reconfig_ms")) * 1e3 - port[0].at("dur").get<double>(), 0.1, 1e-6);
  EXPECT_NEAR(port[0].at("dur").get<double>(), 153600, 1e-6);

  // The slot: the same configuration, then the core's work, which adds up to its busy time in stats.json.
  const json stats = read_json(out / "stats.json");
  const std::vector<json> slot = spans_on(trace, "slot0");
  ASSERT_FALSE(slot.empty());
  EXPECT_EQ(slot[0].at("name"), "configuration");
  EXPECT_EQ(slot[0].at("ts"), port[0].at("ts"));
  EXPECT_EQ(slot[0].at("dur"), port[0].at("dur"));
  EXPECT_EQ(slot[0].at("args").at("core"), "slot0.aes_core");
  double core_us = 0;
  std::size_t blocks = 0;
  for (std::size_t i = 1; i < slot.size(); ++i) {
    core_us += slot[i].at("dur").get<double>();
    blocks += slot[i].at("name") == "block" ? 1 : 0;
  }
  EXPECT_EQ(blocks, 4u * 64u);
  EXPECT_NEAR(core_us, stats_value(stats, "slot.slot0", "core_busy_ms") * 1e3, 1e-6);

  // The bus: activity spans that account for all of its busy time; the bitstream copy is one burst.
  double bus_us = 0;
  std::size_t bursts = 0;
  for (const auto& s : spans_on(trace, "plb")) {
    bus_us += s.at("args").at("busy_us").get<double>();
    bursts += s.at("name") == "burst" ? 1 : 0;
  }
  EXPECT_EQ(bursts, 1u);
  EXPECT_NEAR(bus_us, stats_value(stats, "bus.plb", "busy_ms") * 1e3, 1e-6);

  // The CPU thread: the application holds it as long as stats.json says it used the CPU.
  double cpu_us = 0;
  for (const auto& s : spans_on(trace, "cpu.thread0")) {
    EXPECT_EQ(s.at("name"), "encryptor");
    cpu_us += s.at("dur").get<double>();
  }
  EXPECT_NEAR(cpu_us, stats_value(stats, "process.encryptor", "cpu_ms") * 1e3, 1e-6);
  fs::remove_all(out);
}

TEST(Timeline, TraceWindowClipsSpans) {
  // From 100 ms, in the middle of the reconfiguration, to 153.7 ms, during the first request's blocks.
  const fs::path out = run_traced("window", {"outputs.trace.start_ms=100", "outputs.trace.end_ms=153.7"});
  const json trace = read_json(out / "trace.json");
  const std::vector<json> all = spans(trace);
  ASSERT_FALSE(all.empty());
  for (const auto& e : all) {
    EXPECT_GE(e.at("ts").get<double>(), 100000) << e;
    EXPECT_LE(end_of(e), 153700 + 1e-6) << e;
  }
  const std::vector<json> slot = spans_on(trace, "slot0");
  ASSERT_GT(slot.size(), 2u);
  EXPECT_EQ(slot[0].at("name"), "configuration");
  EXPECT_EQ(slot[0].at("ts"), 100000);
  EXPECT_EQ(slot[0].at("args").at("clipped"), true);
  EXPECT_NEAR(end_of(slot[0]), 153600.05, 1e-6);  // START 50 ns after the request began, then 153.6 ms
  const std::vector<json> requests = spans_on(trace, "encryptor");
  ASSERT_EQ(requests.size(), 1u);  // the first request, cut at both ends
  EXPECT_EQ(requests[0].at("ts"), 100000);
  EXPECT_EQ(end_of(requests[0]), 153700);
  EXPECT_EQ(requests[0].at("args").at("clipped"), true);
  fs::remove_all(out);
}

TEST(Timeline, WindowWithNothingInItGivesAValidTraceWithoutSpans) {
  const fs::path out = run_traced("empty_window", {"outputs.trace.start_ms=500", "outputs.trace.end_ms=600"});
  const json trace = read_json(out / "trace.json");
  EXPECT_TRUE(spans(trace).empty());
  EXPECT_GT(trace.at("traceEvents").size(), 0u);  // the lanes are still named
  EXPECT_EQ(trace.at("otherData").at("window_start_us"), 500000);
  fs::remove_all(out);
}

TEST(Timeline, VcdChangesWhereTheTraceSpansAre) {
  const fs::path out = run_traced("vcd", {"outputs.trace={}", "outputs.vcd={}"});
  const Vcd vcd = read_vcd(out / "timeline.vcd");
  EXPECT_NE(vcd.header.find("1 ps"), std::string::npos) << vcd.header;
  EXPECT_NE(vcd.header.find("busy"), std::string::npos);
  ASSERT_EQ(vcd.changes.count("slot0.state"), 1u) << vcd.header;
  ASSERT_EQ(vcd.changes.count("plb.busy"), 1u) << vcd.header;

  // The slot: empty, configuring from START (50 ns: CPU issue, bus, port access) to the last word 153.6 ms
  // later, ready, then busy during every core operation of the trace.
  const auto& state = vcd.changes.at("slot0.state");
  ASSERT_GE(state.size(), 3u);
  EXPECT_EQ(state[0], (std::pair<std::uint64_t, std::uint64_t>{0, 0}));
  EXPECT_EQ(state[1], (std::pair<std::uint64_t, std::uint64_t>{50000, 1}));
  EXPECT_EQ(state[2], (std::pair<std::uint64_t, std::uint64_t>{153600050000, 2}));
  const json trace = read_json(out / "trace.json");
  std::vector<std::pair<std::uint64_t, std::uint64_t>> expected{{0, 0}};
  for (const auto& s : spans_on(trace, "slot0")) {
    const bool configuration = s.at("name") == "configuration";
    expected.push_back({ps_of_us(s.at("ts").get<double>()), configuration ? 1 : 3});
    expected.push_back({ps_of_us(end_of(s)), 2});
  }
  EXPECT_EQ(state, as_vcd_shows(expected));

  // The bus: high exactly as long as stats.json says it carried transfers.
  const auto& busy = vcd.changes.at("plb.busy");
  EXPECT_EQ(busy[1], (std::pair<std::uint64_t, std::uint64_t>{10000, 1}));  // the START write, after 10 ns
  EXPECT_EQ(busy[2], (std::pair<std::uint64_t, std::uint64_t>{40000, 0}));  // 3 bus cycles
  std::uint64_t high_ps = 0;
  for (std::size_t i = 1; i < busy.size(); ++i)
    if (busy[i - 1].second == 1) high_ps += busy[i].first - busy[i - 1].first;
  EXPECT_EQ(busy.back().second, 0u);
  const json stats = read_json(out / "stats.json");
  EXPECT_NEAR(static_cast<double>(high_ps) * 1e-9, stats_value(stats, "bus.plb", "busy_ms"), 1e-9);
  fs::remove_all(out);
}

TEST(Timeline, VcdWindowStartsWithTheStateOfItsFirstMoment) {
  const fs::path out = run_traced("vcd_window", {"outputs.vcd.start_ms=100", "outputs.vcd.end_ms=153.7"});
  EXPECT_FALSE(fs::exists(out / "trace.json"));
  const Vcd vcd = read_vcd(out / "timeline.vcd");
  const auto& state = vcd.changes.at("slot0.state");
  ASSERT_GE(state.size(), 4u);
  EXPECT_EQ(state[0], (std::pair<std::uint64_t, std::uint64_t>{0, 0}));  // initial value
  // At 100 ms the slot is configuring: it says so then, not at 50 ns.
  EXPECT_EQ(state[1], (std::pair<std::uint64_t, std::uint64_t>{100000000000, 1}));
  EXPECT_EQ(state[2], (std::pair<std::uint64_t, std::uint64_t>{153600050000, 2}));
  for (const auto& [signal, changes] : vcd.changes)
    for (const auto& c : changes) {
      EXPECT_TRUE(c.first == 0 || c.first >= 100000000000) << signal << " at " << c.first;
      EXPECT_LT(c.first, 153700000000u) << signal;
    }
  EXPECT_EQ(vcd.last_time,
            153700000000u);  // the file ends where the window ends, not with the run (154.75 ms)
  fs::remove_all(out);
}
