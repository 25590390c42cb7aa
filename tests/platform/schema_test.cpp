#include "platform/schema.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "platform/scenario_error.h"

namespace rsoc::platform {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// A small scenario schema exercising every node kind.
Schema TestSchema() {
  Schema cpu = Schema::object({
      {"name", Schema::string().pattern_identifier().doc("unique name")},
      {"clock_mhz",
       Schema::number().unit("MHz").exclusive_min(0).max(10000).default_value(100.0).doc("CPU clock")},
      {"hw_threads", Schema::integer().min(1).max(64).default_value(1).doc("hardware threads")},
      {"initial_core", Schema::string().nullable().default_value(nullptr).doc("core loaded at start")},
  });
  Schema bus = Schema::object({
      {"name", Schema::string().pattern_identifier().doc("unique name")},
      {"mode", Schema::enumeration({"async", "sync"}).default_value("async").doc("transfer mode")},
      {"base", Schema::address().min(0x1000).max(0xFFFFFFFF).default_value("0x40000000").doc("base address")},
  });
  Schema slot = Schema::object({
      {"size_kib", Schema::integer().unit("KiB").min(1).doc("slot size")},
      {"enabled", Schema::boolean().default_value(true).doc("slot usable")},
  });
  return Schema::object({
      {"platform",
       Schema::object(
           {
               {"cpus", Schema::array(cpu).min_items(1).max_items(4).doc("processors")},
               {"buses", Schema::array(bus).default_value(json::array()).doc("buses")},
               {"fpga",
                Schema::object({
                                   {"slots", Schema::array(slot).min_items(1).max_items(2).doc("slots")},
                                   {"latency_us", Schema::number().unit("us").min(0).default_value(1.5).doc(
                                                      "configuration latency")},
                               })
                    .doc("reconfigurable fabric")},
           })
           .doc("hardware")},
      {"software",
       Schema::map(Schema::object(
                       {
                           {"cycles_per_block",
                            Schema::integer().unit("cycles").min(1).default_value(10).doc("cost per block")},
                       })
                       .doc("one functionality"))
           .key_name("functionality")
           .key_pattern_identifier()
           .default_value(json::object())
           .doc("software implementations")},
      {"trace", Schema::object({
                                   {"enabled", Schema::boolean().default_value(false).doc("record a trace")},
                                   {"options", Schema::map(Schema::number())
                                                   .key_enum({"latency", "bandwidth"})
                                                   .default_value(json::object())
                                                   .doc("trace options")},
                               })
                    .doc("tracing")},
  });
}

json ValidInput() {
  return json::parse(R"({
    "platform": {
      "cpus": [{"name": "cpu0"}],
      "fpga": {"slots": [{"size_kib": 64}]}
    }
  })");
}

std::vector<std::string> Messages(const IssueList& issues) {
  std::vector<std::string> lines;
  for (const ScenarioIssue& issue : issues) lines.push_back(issue.to_string());
  return lines;
}

// Resolves `input` and returns "FILE: POINTER: MESSAGE" lines.
std::vector<std::string> Issues(const json& input) {
  return Messages(resolve(input, TestSchema(), "s.json").issues);
}

// Resolves ValidInput() with `value` stored at `pointer` and returns the issue lines.
std::vector<std::string> IssuesWith(const std::string& pointer, const json& value) {
  json input = ValidInput();
  input[json::json_pointer(pointer)] = value;
  return Issues(input);
}

using Lines = std::vector<std::string>;

// --- resolution

TEST(SchemaResolve, FillsEveryDefault) {
  const Resolution resolution = resolve(ValidInput(), TestSchema(), "s.json");
  ASSERT_TRUE(resolution.ok()) << resolution.issues.to_string();
  const json expected = json::parse(R"({
    "platform": {
      "cpus": [{"name": "cpu0", "clock_mhz": 100.0, "hw_threads": 1, "initial_core": null}],
      "buses": [],
      "fpga": {"slots": [{"size_kib": 64, "enabled": true}], "latency_us": 1.5}
    },
    "software": {},
    "trace": {"enabled": false, "options": {}}
  })");
  EXPECT_EQ(resolution.value, expected);
  EXPECT_TRUE(resolution.value["platform"]["cpus"][0]["clock_mhz"].is_number_float());
  EXPECT_EQ(resolution.value.dump(2), expected.dump(2));
}

TEST(SchemaResolve, KeepsGivenValuesAndResolvesNestedDefaults) {
  json input = ValidInput();
  input["platform"]["cpus"][0]["clock_mhz"] = 250;  // an integer is a valid number
  input["platform"]["buses"] = json::parse(R"([{"name": "axi", "base": "0x80000000"}])");
  input["software"] = json::parse(R"({"fir": {}, "aes": {"cycles_per_block": 3}})");
  const json out = resolve_or_throw(input, TestSchema(), "s.json");
  EXPECT_EQ(out["platform"]["cpus"][0]["clock_mhz"], json(250.0));
  EXPECT_TRUE(out["platform"]["cpus"][0]["clock_mhz"].is_number_float());
  EXPECT_EQ(out["platform"]["buses"][0],
            json::parse(R"({"name": "axi", "mode": "async", "base": 2147483648})"));
  EXPECT_EQ(out["software"],
            json::parse(R"({"aes": {"cycles_per_block": 3}, "fir": {"cycles_per_block": 10}})"));
}

TEST(SchemaResolve, ResolvedDumpIsSortedAndDeterministic) {
  const json out = resolve_or_throw(ValidInput(), TestSchema(), "s.json");
  EXPECT_EQ(out["trace"].dump(), R"({"enabled":false,"options":{}})");
  EXPECT_EQ(out["platform"]["cpus"][0].dump(),
            R"({"clock_mhz":100.0,"hw_threads":1,"initial_core":null,"name":"cpu0"})");
}

TEST(SchemaResolve, WrongTypeSaysWhatWasExpected) {
  EXPECT_EQ(IssuesWith("/platform/cpus/0/clock_mhz", "fast"),
            Lines{"s.json: /platform/cpus/0/clock_mhz: expected a number (MHz), got a string \"fast\""});
  EXPECT_EQ(IssuesWith("/platform/cpus/0/hw_threads", true),
            Lines{"s.json: /platform/cpus/0/hw_threads: expected an integer, got a boolean true"});
  EXPECT_EQ(IssuesWith("/platform/cpus/0/name", nullptr),
            Lines{"s.json: /platform/cpus/0/name: expected a string, got null"});
  EXPECT_EQ(IssuesWith("/platform/cpus", json::object()),
            Lines{"s.json: /platform/cpus: expected an array, got an object"});
  EXPECT_EQ(IssuesWith("/platform/fpga", json::array()),
            Lines{"s.json: /platform/fpga: expected an object, got an array"});
  EXPECT_EQ(IssuesWith("/platform/fpga/slots/0/enabled", "yes"),
            Lines{"s.json: /platform/fpga/slots/0/enabled: expected a boolean, got a string \"yes\""});
  EXPECT_EQ(IssuesWith("/platform/cpus/0/initial_core", 3),
            Lines{"s.json: /platform/cpus/0/initial_core: expected a string or null, got an integer 3"});
  EXPECT_EQ(Issues(json::array()), Lines{"s.json: expected an object, got an array"});
}

TEST(SchemaResolve, IntegerRejectsNonIntegralNumbers) {
  EXPECT_EQ(IssuesWith("/platform/cpus/0/hw_threads", 3.0),
            Lines{"s.json: /platform/cpus/0/hw_threads: expected an integer, got a number 3.0"});
  EXPECT_EQ(IssuesWith("/platform/fpga/slots/0/size_kib", 2.5),
            Lines{"s.json: /platform/fpga/slots/0/size_kib: expected an integer (KiB), got a number 2.5"});
  EXPECT_EQ(
      IssuesWith("/platform/cpus/0/hw_threads", json(18446744073709551615ULL)),
      Lines{"s.json: /platform/cpus/0/hw_threads: 18446744073709551615 is out of range; expected an integer "
            "that fits in 64 bits"});
}

TEST(SchemaResolve, OutOfRangeStatesTheRange) {
  EXPECT_EQ(
      IssuesWith("/platform/cpus/0/clock_mhz", 0),
      Lines{
          "s.json: /platform/cpus/0/clock_mhz: 0 is out of range; expected a number (MHz) > 0 and <= 10000"});
  EXPECT_EQ(
      IssuesWith("/platform/cpus/0/clock_mhz", 10000.5),
      Lines{"s.json: /platform/cpus/0/clock_mhz: 10000.5 is out of range; expected a number (MHz) > 0 and <= "
            "10000"});
  EXPECT_EQ(IssuesWith("/platform/cpus/0/clock_mhz", 10000), Lines{});  // inclusive bound
  EXPECT_EQ(
      IssuesWith("/platform/cpus/0/hw_threads", 65),
      Lines{"s.json: /platform/cpus/0/hw_threads: 65 is out of range; expected an integer >= 1 and <= 64"});
  EXPECT_EQ(
      IssuesWith("/platform/cpus/0/hw_threads", -1),
      Lines{"s.json: /platform/cpus/0/hw_threads: -1 is out of range; expected an integer >= 1 and <= 64"});
  EXPECT_EQ(
      IssuesWith("/platform/fpga/slots/0/size_kib", 0),
      Lines{"s.json: /platform/fpga/slots/0/size_kib: 0 is out of range; expected an integer (KiB) >= 1"});
  EXPECT_EQ(IssuesWith("/platform/fpga/latency_us", -0.25),
            Lines{"s.json: /platform/fpga/latency_us: -0.25 is out of range; expected a number (us) >= 0"});
}

TEST(SchemaResolve, UnknownEnumValueSuggestsTheNearest) {
  json input = ValidInput();
  input["platform"]["buses"] =
      json::parse(R"([{"name": "a", "mode": "sync"}, {"name": "b", "mode": "asynch"}])");
  EXPECT_EQ(
      Issues(input),
      Lines{"s.json: /platform/buses/1/mode: \"asynch\" is not one of \"async\", \"sync\"; did you mean "
            "\"async\"?"});
  input["platform"]["buses"][1]["mode"] = "parallel";
  EXPECT_EQ(Issues(input),
            Lines{"s.json: /platform/buses/1/mode: \"parallel\" is not one of \"async\", \"sync\""});
  input["platform"]["buses"][1]["mode"] = 1;
  EXPECT_EQ(Issues(input),
            Lines{"s.json: /platform/buses/1/mode: expected one of \"async\", \"sync\", got an integer 1"});
}

TEST(SchemaResolve, MissingRequiredKeyNamesItsTypeAndDoc) {
  json input = ValidInput();
  input["platform"]["cpus"][0].erase("name");
  input["platform"]["fpga"]["slots"][0].erase("size_kib");
  EXPECT_EQ(Issues(input),
            (Lines{
                "s.json: /platform/cpus/0: missing required key \"name\" (string: unique name)",
                "s.json: /platform/fpga/slots/0: missing required key \"size_kib\" (integer in KiB: "
                "slot size)",
            }));
}

TEST(SchemaResolve, AbsentObjectWithRequiredFieldsIsMissing) {
  json input = ValidInput();
  input["platform"].erase("fpga");
  EXPECT_EQ(Issues(input),
            Lines{"s.json: /platform: missing required key \"fpga\" (object: reconfigurable fabric)"});
  EXPECT_EQ(Issues(json::object()), Lines{"s.json: missing required key \"platform\" (object: hardware)"});
}

TEST(SchemaResolve, ArraySizeLimits) {
  EXPECT_EQ(IssuesWith("/platform/fpga/slots", json::array()),
            Lines{"s.json: /platform/fpga/slots: expected at least 1 item, got 0"});
  EXPECT_EQ(IssuesWith("/platform/fpga/slots",
                       json::parse(R"([{"size_kib": 1}, {"size_kib": 2}, {"size_kib": 3}])")),
            Lines{"s.json: /platform/fpga/slots: expected at most 2 items, got 3"});
}

TEST(SchemaResolve, UnknownKeySuggestsOrListsAllowedKeys) {
  json input = ValidInput();
  input["platform"]["fpga"]["slotz"] = json::array();
  EXPECT_EQ(Issues(input),
            Lines{"s.json: /platform/fpga/slotz: unknown key \"slotz\"; did you mean \"slots\"?"});
  input = ValidInput();
  input["platform"]["cpus"][0]["frequency"] = 5;
  EXPECT_EQ(Issues(input),
            Lines{"s.json: /platform/cpus/0/frequency: unknown key \"frequency\" (allowed: name, "
                  "clock_mhz, hw_threads, initial_core)"});
  input = ValidInput();
  input["platform"]["cpus"][0]["Clock_MHz"] = 5;  // case differences count as close
  EXPECT_EQ(
      Issues(input),
      Lines{"s.json: /platform/cpus/0/Clock_MHz: unknown key \"Clock_MHz\"; did you mean \"clock_mhz\"?"});
  input = ValidInput();
  input["a/b"] = 1;  // pointer tokens are escaped
  EXPECT_EQ(Issues(input), Lines{"s.json: /a~1b: unknown key \"a/b\" (allowed: platform, software, trace)"});
}

TEST(SchemaResolve, AddressAcceptsIntegersAndHexStrings) {
  json input = ValidInput();
  input["platform"]["buses"] =
      json::parse(R"([{"name": "a", "base": 4096}, {"name": "b", "base": "0xFfFf0000"}])");
  const json out = resolve_or_throw(input, TestSchema(), "s.json");
  EXPECT_EQ(out["platform"]["buses"][0]["base"], json(4096));
  EXPECT_EQ(out["platform"]["buses"][1]["base"], json(0xFFFF0000ULL));
  EXPECT_TRUE(out["platform"]["buses"][1]["base"].is_number_unsigned());
}

TEST(SchemaResolve, AddressErrors) {
  const std::string expected =
      "expected an address: a non-negative integer or a hex string like \"0x40000000\"";
  json input = ValidInput();
  input["platform"]["buses"] = json::parse(R"([
      {"name": "a", "base": "0xZZ"}, {"name": "b", "base": -4}, {"name": "c", "base": 4096.0},
      {"name": "d", "base": "4096"}, {"name": "e", "base": "0x"},
      {"name": "f", "base": "0x10000000000000000"},
      {"name": "g", "base": "0x100000000"}, {"name": "h", "base": 16}])");
  EXPECT_EQ(Issues(input),
            (Lines{
                "s.json: /platform/buses/0/base: " + expected + ", got a string \"0xZZ\"",
                "s.json: /platform/buses/1/base: " + expected + ", got an integer -4",
                "s.json: /platform/buses/2/base: " + expected + ", got a number 4096.0",
                "s.json: /platform/buses/3/base: " + expected + ", got a string \"4096\"",
                "s.json: /platform/buses/4/base: " + expected + ", got a string \"0x\"",
                "s.json: /platform/buses/5/base: " + expected + ", got a string \"0x10000000000000000\"",
                "s.json: /platform/buses/6/base: 0x100000000 is out of range; expected an address >= "
                "0x1000 and <= 0xFFFFFFFF",
                "s.json: /platform/buses/7/base: 16 is out of range; expected an address >= 0x1000 "
                "and <= 0xFFFFFFFF",
            }));
}

TEST(SchemaResolve, NullableAcceptsNull) {
  json input = ValidInput();
  input["platform"]["cpus"][0]["initial_core"] = "aes";
  EXPECT_EQ(resolve_or_throw(input, TestSchema(), "s.json")["platform"]["cpus"][0]["initial_core"],
            json("aes"));
  input["platform"]["cpus"][0]["initial_core"] = nullptr;
  EXPECT_TRUE(
      resolve_or_throw(input, TestSchema(), "s.json")["platform"]["cpus"][0]["initial_core"].is_null());
}

TEST(SchemaResolve, StringLengthAndIdentifier) {
  EXPECT_EQ(
      IssuesWith("/platform/cpus/0/name", "Cpu0"),
      Lines{"s.json: /platform/cpus/0/name: \"Cpu0\" is not a valid identifier; expected a string matching "
            "[a-z][a-z0-9_]*"});
  EXPECT_EQ(
      IssuesWith("/platform/cpus/0/name", "0cpu"),
      Lines{"s.json: /platform/cpus/0/name: \"0cpu\" is not a valid identifier; expected a string matching "
            "[a-z][a-z0-9_]*"});
  const Schema named = Schema::object({{"label", Schema::string().min_length(2).max_length(4)}});
  EXPECT_EQ(Messages(resolve(json{{"label", "x"}}, named, "f").issues),
            Lines{"f: /label: \"x\" is too short; expected a string of at least 2 characters"});
  EXPECT_EQ(Messages(resolve(json{{"label", "abcde"}}, named, "f").issues),
            Lines{"f: /label: \"abcde\" is too long; expected a string of at most 4 characters"});
  EXPECT_TRUE(resolve(json{{"label", "\xC3\xA9t\xC3\xA9"}}, named, "f").ok());  // 3 characters, 5 bytes
}

TEST(SchemaResolve, LongStringsAreShortenedInMessages) {
  const std::string long_value(100, 'x');
  EXPECT_EQ(IssuesWith("/platform/cpus/0/clock_mhz", long_value),
            Lines{"s.json: /platform/cpus/0/clock_mhz: expected a number (MHz), got a string \"" +
                  std::string(60, 'x') + "...\""});
}

TEST(SchemaResolve, MapKeysAndValues) {
  json input = ValidInput();
  input["software"] = json::parse(R"({"Fir": {}, "aes": {"cycles_per_block": 0}})");
  input["trace"]["options"] = json::parse(R"({"latency": 1, "bandwith": 2, "color": 3})");
  EXPECT_EQ(Issues(input),
            (Lines{
                "s.json: /software/Fir: key \"Fir\" is not a valid identifier; expected a key "
                "matching [a-z][a-z0-9_]*",
                "s.json: /software/aes/cycles_per_block: 0 is out of range; expected an integer "
                "(cycles) >= 1",
                "s.json: /trace/options/bandwith: unknown key \"bandwith\"; did you mean "
                "\"bandwidth\"?",
                "s.json: /trace/options/color: unknown key \"color\" (allowed: latency, bandwidth)",
            }));
  const Schema sized = Schema::object({{"m", Schema::map(Schema::integer()).min_items(1).max_items(1)}});
  EXPECT_EQ(Messages(resolve(json::parse(R"({"m": {}})"), sized, "f").issues),
            Lines{"f: /m: expected at least 1 entry, got 0"});
  EXPECT_EQ(Messages(resolve(json::parse(R"({"m": {"a": 1, "b": 2}})"), sized, "f").issues),
            Lines{"f: /m: expected at most 1 entry, got 2"});
}

TEST(SchemaResolve, ReportsEveryIssueInDocumentOrder) {
  // nlohmann::json keeps keys sorted, so "document order" is the order of the sorted document.
  const char* text = R"({
    "trace": {"enabled": "no"},
    "platform": {
      "fpga": {"slots": [], "latency_us": "slow"},
      "cpus": [{"clock_mhz": 0, "name": "Cpu"}, {"name": "b", "hw_threads": 0, "colour": 1}]
    },
    "softwar": {}
  })";
  const Lines sorted{
      "s.json: /platform/cpus/0/clock_mhz: 0 is out of range; expected a number (MHz) > 0 and <= 10000",
      "s.json: /platform/cpus/0/name: \"Cpu\" is not a valid identifier; expected a string matching "
      "[a-z][a-z0-9_]*",
      "s.json: /platform/cpus/1/colour: unknown key \"colour\" (allowed: name, clock_mhz, hw_threads, "
      "initial_core)",
      "s.json: /platform/cpus/1/hw_threads: 0 is out of range; expected an integer >= 1 and <= 64",
      "s.json: /platform/fpga/latency_us: expected a number (us), got a string \"slow\"",
      "s.json: /platform/fpga/slots: expected at least 1 item, got 0",
      "s.json: /softwar: unknown key \"softwar\"; did you mean \"software\"?",
      "s.json: /trace/enabled: expected a boolean, got a string \"no\"",
  };
  EXPECT_EQ(Issues(json::parse(text)), sorted);

  // ordered_json keeps the order of the source text.
  const Resolution ordered = resolve(ordered_json::parse(text), TestSchema(), "s.json");
  EXPECT_EQ(Messages(ordered.issues),
            (Lines{sorted[7], sorted[5], sorted[4], sorted[0], sorted[1], sorted[3], sorted[2], sorted[6]}));

  try {
    resolve_or_throw(json::parse(text), TestSchema(), "s.json");
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(error.issues().size(), sorted.size());
    std::string all;
    for (const std::string& line : sorted) all += (all.empty() ? "" : "\n") + line;
    EXPECT_EQ(std::string(error.what()), all);
  }
}

TEST(SchemaResolve, ObjectIssuesComeBeforeTheirChildren) {
  json input = ValidInput();
  input["platform"]["cpus"][0] = json::parse(R"({"clock_mhz": "fast"})");
  EXPECT_EQ(Issues(input),
            (Lines{
                "s.json: /platform/cpus/0: missing required key \"name\" (string: unique name)",
                "s.json: /platform/cpus/0/clock_mhz: expected a number (MHz), got a string \"fast\"",
            }));
}

TEST(SchemaResolve, CallerAddsItsOwnIssues) {
  json input = ValidInput();
  input["platform"]["cpus"][0]["hw_threads"] = 0;
  Resolution resolution = resolve(input, TestSchema(), "s.json");
  resolution.issues.add("/platform/buses/0/name", "bus \"x\" is declared twice");
  resolution.issues.add(ScenarioIssue{"other.json", "", "cross-file problem"});
  try {
    resolution.issues.throw_if_any();
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()),
              "s.json: /platform/cpus/0/hw_threads: 0 is out of range; expected an integer >= 1 and <= 64\n"
              "s.json: /platform/buses/0/name: bus \"x\" is declared twice\n"
              "other.json: cross-file problem");
  }
}

TEST(SchemaResolve, ValidDocumentDoesNotThrow) {
  IssueList issues("f");
  EXPECT_NO_THROW(issues.throw_if_any());
  EXPECT_NO_THROW(resolve_or_throw(ValidInput(), TestSchema(), "s.json"));
}

// --- schema declaration bugs

TEST(SchemaDeclaration, RejectsMisuse) {
  EXPECT_THROW(Schema::string().min(1), std::logic_error);
  EXPECT_THROW(Schema::number().min_items(1), std::logic_error);
  EXPECT_THROW(Schema::boolean().unit("s"), std::logic_error);
  EXPECT_THROW(Schema::array(Schema::integer()).key_enum({"a"}), std::logic_error);
  EXPECT_THROW(Schema::object({{"a", Schema::integer()}, {"a", Schema::number()}}), std::invalid_argument);
  EXPECT_THROW(Schema::enumeration({}), std::invalid_argument);
  EXPECT_THROW(Schema::enumeration({"a", "a"}), std::invalid_argument);
}

TEST(SchemaDeclaration, InvalidDefaultIsABug) {
  const Schema schema =
      Schema::object({{"mode", Schema::enumeration({"a", "b"}).default_value("c").doc("mode")}});
  EXPECT_THROW(resolve(json::object(), schema, "f"), std::logic_error);
  EXPECT_THROW(document(schema), std::logic_error);
  EXPECT_NO_THROW(resolve(json{{"mode", "a"}}, schema, "f"));
}

TEST(SchemaDeclaration, RequiredRemovesTheDefault) {
  const Schema schema = Schema::object({{"n", Schema::integer().default_value(1).required().doc("n")}});
  EXPECT_EQ(Messages(resolve(json::object(), schema, "f").issues),
            Lines{"f: missing required key \"n\" (integer: n)"});
}

// --- suggestions

TEST(SchemaSuggestion, EditDistance) {
  EXPECT_EQ(edit_distance("slots", "slots"), 0u);
  EXPECT_EQ(edit_distance("slotz", "slots"), 1u);
  EXPECT_EQ(edit_distance("clokc", "clock"), 1u);  // transposition
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("abcdef", "badcfe"), 3u);  // three transpositions
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);         // optimal string alignment, not Damerau's 2
}

TEST(SchemaSuggestion, NearestMatchOnlyWhenClose) {
  const std::vector<std::string> keys{"clock_mhz", "hw_threads", "name"};
  EXPECT_EQ(nearest_match("clok_mhz", keys), std::optional<std::string>("clock_mhz"));
  EXPECT_EQ(nearest_match("nmae", keys), std::optional<std::string>("name"));
  EXPECT_EQ(nearest_match("frequency", keys), std::nullopt);
  EXPECT_EQ(nearest_match("xy", {"ab"}), std::nullopt);  // a complete rewrite is no suggestion
  EXPECT_EQ(nearest_match("a", {}), std::nullopt);
}

TEST(SchemaSuggestion, HugeNamesGetNoSuggestionAndCostNoQuadraticMemory) {
  // Two names of a million characters one edit apart: no suggestion (nobody types such a name), at once; the
  // distance itself keeps three rows of the table, not the whole 10^12 of it.
  const std::string a(1000000, 'a');
  std::string b = a;
  b[500000] = 'b';
  EXPECT_EQ(nearest_match(a, {b}), std::nullopt);
  EXPECT_EQ(nearest_match("bus_name_that_is_long_x", {"bus_name_that_is_long_y", std::string(100000, 'z')}),
            std::optional<std::string>("bus_name_that_is_long_y"));
  EXPECT_EQ(edit_distance(std::string(3000, 'a'), std::string(3000, 'a') + "b"), 1u);
}

// --- overrides

TEST(SchemaOverride, DottedPathSetsAValue) {
  json doc = ValidInput();
  apply_override(doc, "platform.cpus.0.clock_mhz=250.5", TestSchema());
  EXPECT_EQ(doc["platform"]["cpus"][0]["clock_mhz"], json(250.5));
  apply_override(doc, "platform.cpus.0.name=\"quoted\"", TestSchema());
  EXPECT_EQ(doc["platform"]["cpus"][0]["name"], json("quoted"));
}

TEST(SchemaOverride, JsonPointerPathSetsAValue) {
  json doc = ValidInput();
  apply_override(doc, "/platform/cpus/0/hw_threads=4", TestSchema());
  EXPECT_EQ(doc["platform"]["cpus"][0]["hw_threads"], json(4));
}

TEST(SchemaOverride, ValueIsJsonWhenItParsesElseAString) {
  json doc = ValidInput();
  apply_override(doc, "platform.cpus.0.initial_core=null", TestSchema());
  EXPECT_TRUE(doc["platform"]["cpus"][0]["initial_core"].is_null());
  apply_override(doc, "platform.cpus.0.initial_core=aes", TestSchema());
  EXPECT_EQ(doc["platform"]["cpus"][0]["initial_core"], json("aes"));
  apply_override(doc, "trace.enabled=true", TestSchema());
  EXPECT_EQ(doc["trace"]["enabled"], json(true));
  apply_override(doc, "platform.fpga.slots=[{\"size_kib\": 8}, {\"size_kib\": 16}]", TestSchema());
  EXPECT_EQ(doc["platform"]["fpga"]["slots"], json::parse(R"([{"size_kib": 8}, {"size_kib": 16}])"));
  apply_override(doc, "platform.cpus.0.name=a=b", TestSchema());  // only the first '=' separates
  EXPECT_EQ(doc["platform"]["cpus"][0]["name"], json("a=b"));
  apply_override(doc, "platform.cpus.0.name=", TestSchema());
  EXPECT_EQ(doc["platform"]["cpus"][0]["name"], json(""));
}

TEST(SchemaOverride, CreatesIntermediateObjectsAndAppends) {
  json doc = ValidInput();
  apply_override(doc, "platform.buses.0.name=axi",
                 TestSchema());  // "buses" absent: array created, index 0 appends
  apply_override(doc, "platform.buses.1.mode=sync", TestSchema());
  apply_override(doc, "/platform/buses/-/name=apb", TestSchema());
  apply_override(doc, "trace.options.latency=2", TestSchema());
  apply_override(doc, "software.fir.cycles_per_block=7", TestSchema());
  EXPECT_EQ(doc["platform"]["buses"], json::parse(R"([{"name": "axi"}, {"mode": "sync"}, {"name": "apb"}])"));
  EXPECT_EQ(doc["trace"], json::parse(R"({"options": {"latency": 2}})"));
  EXPECT_EQ(doc["software"], json::parse(R"({"fir": {"cycles_per_block": 7}})"));
}

TEST(SchemaOverride, ThenResolveChecksTheValue) {
  json doc = ValidInput();
  apply_override(doc, "platform.buses.0.mode=synch", TestSchema());
  apply_override(doc, "platform.buses.0.name=b0", TestSchema());
  EXPECT_EQ(Issues(doc),
            Lines{"s.json: /platform/buses/0/mode: \"synch\" is not one of \"async\", \"sync\"; did "
                  "you mean \"sync\"?"});
}

ScenarioIssue OverrideIssue(json& doc, const std::string& assignment) {
  IssueList issues;
  const json before = doc;
  EXPECT_FALSE(apply_override(doc, assignment, TestSchema(), issues));
  EXPECT_EQ(doc, before) << "a failed override must leave the document unchanged";
  EXPECT_EQ(issues.size(), 1u);
  return issues.empty() ? ScenarioIssue{} : issues[0];
}

TEST(SchemaOverride, ANumberNoDoubleHoldsIsAnErrorNotAString) {
  json doc = ValidInput();
  EXPECT_EQ(OverrideIssue(doc, "platform.cpus.0.clock_mhz=1e400").to_string(),
            "--set platform.cpus.0.clock_mhz=1e400: /platform/cpus/0/clock_mhz: number 1e400 is out of range "
            "(beyond what a double holds: about 1.8e308)");
  EXPECT_EQ(
      OverrideIssue(doc, "platform.fpga.slots=[{\"size_kib\": -1e999}]").to_string(),
      "--set platform.fpga.slots=[{\"size_kib\": -1e999}]: /platform/fpga/slots: number -1e999 is out of "
      "range (beyond what a double holds: about 1.8e308)");
}

// A value nested deeper than a scenario file may be is refused before it is parsed: walking 60,000 levels
// (what a command line holds) overflowed the stack under AddressSanitizer. Brackets inside strings do not
// count.
TEST(SchemaOverride, AValueNestedTooDeepIsRefusedBeforeItIsParsed) {
  json doc = ValidInput();
  const std::string too_deep = "the value is JSON nested deeper than 256 levels";
  const std::string deepest = std::string(256, '[') + std::string(256, ']');
  IssueList issues;
  EXPECT_TRUE(apply_override(doc, "trace.options.latency=" + deepest, TestSchema(), issues));
  EXPECT_EQ(doc["trace"]["options"]["latency"], json::parse(deepest));  // then checked by the resolver
  const std::string brackets_in_a_string = "\"" + std::string(1000, '[') + "\"";
  EXPECT_TRUE(apply_override(doc, "trace.options.latency=" + brackets_in_a_string, TestSchema(), issues));
  EXPECT_TRUE(issues.empty());
  EXPECT_EQ(OverrideIssue(doc, "trace.options.latency=[" + deepest + "]").message, too_deep);
  const std::string command_line_deep = std::string(60000, '[') + std::string(60000, ']');
  const ScenarioIssue issue = OverrideIssue(doc, "trace.options.latency=" + command_line_deep);
  EXPECT_EQ(issue.pointer, "/trace/options/latency");
  EXPECT_EQ(issue.message, too_deep);
}

TEST(SchemaOverride, UnknownKeyIsRejectedWithSuggestion) {
  json doc = ValidInput();
  const ScenarioIssue issue = OverrideIssue(doc, "platform.cpus.0.clok_mhz=5");
  EXPECT_EQ(issue.file, "--set platform.cpus.0.clok_mhz=5");
  EXPECT_EQ(issue.pointer, "/platform/cpus/0/clok_mhz");
  EXPECT_EQ(issue.message, "unknown key \"clok_mhz\"; did you mean \"clock_mhz\"?");
  EXPECT_EQ(
      issue.to_string(),
      "--set platform.cpus.0.clok_mhz=5: /platform/cpus/0/clok_mhz: unknown key \"clok_mhz\"; did you mean "
      "\"clock_mhz\"?");
  EXPECT_EQ(OverrideIssue(doc, "/platfrom/x=1").to_string(),
            "--set /platfrom/x=1: /platfrom: unknown key \"platfrom\"; did you mean \"platform\"?");
  EXPECT_EQ(OverrideIssue(doc, "trace.options.colour=1").to_string(),
            "--set trace.options.colour=1: /trace/options/colour: unknown key \"colour\" (allowed: latency, "
            "bandwidth)");
  EXPECT_EQ(
      OverrideIssue(doc, "platform.cpus.0.clock_mhz.x=1").to_string(),
      "--set platform.cpus.0.clock_mhz.x=1: /platform/cpus/0/clock_mhz/x: unknown key \"x\": the value at "
      "/platform/cpus/0/clock_mhz is a number (MHz), not an object");
}

TEST(SchemaOverride, ArrayIndexMustExistOrAppend) {
  json doc = ValidInput();
  EXPECT_EQ(OverrideIssue(doc, "platform.cpus.3.name=x").to_string(),
            "--set platform.cpus.3.name=x: /platform/cpus/3: index 3 is out of range; the array has 1 item "
            "(index 1 "
            "appends)");
  EXPECT_EQ(
      OverrideIssue(doc, "platform.cpus.first.name=x").to_string(),
      "--set platform.cpus.first.name=x: /platform/cpus/first: no element named \"first\" (the names: "
      "\"cpu0\"; or an index: 0, 1, ..., or - to append)");
  // An element by its name is the element at its index.
  json by_name = ValidInput(), by_index = ValidInput();
  apply_override(by_name, "platform.cpus.cpu0.clock_mhz=50", TestSchema());
  apply_override(by_index, "platform.cpus.0.clock_mhz=50", TestSchema());
  EXPECT_EQ(by_name, by_index);
  EXPECT_EQ(OverrideIssue(doc, "platform.cpus.01.name=x").message,
            "expected an array index (0, 1, ..., or - to append), got \"01\"");
  apply_override(doc, "platform.cpus.1.name=cpu1", TestSchema());
  EXPECT_EQ(doc["platform"]["cpus"].size(), 2u);
  EXPECT_EQ(doc["platform"]["cpus"][1], json::parse(R"({"name": "cpu1"})"));
}

TEST(SchemaOverride, MalformedAssignments) {
  json doc = ValidInput();
  EXPECT_EQ(OverrideIssue(doc, "platform.cpus.0.clock_mhz").to_string(),
            "--set platform.cpus.0.clock_mhz: malformed override: expected PATH=VALUE");
  EXPECT_EQ(OverrideIssue(doc, "=5").to_string(),
            "--set =5: malformed override: empty path; expected PATH=VALUE");
  EXPECT_EQ(OverrideIssue(doc, "platform..cpus=5").to_string(),
            "--set platform..cpus=5: malformed override: empty key in path \"platform..cpus\"");
  EXPECT_EQ(
      OverrideIssue(doc, "/platform/~2=5").to_string(),
      "--set /platform/~2=5: malformed override: invalid escape in JSON pointer \"/platform/~2\"; use ~0 for "
      "'~' and ~1 for '/'");
}

TEST(SchemaOverride, WrongShapeInTheDocumentIsRejected) {
  json doc = ValidInput();
  doc["platform"]["fpga"] = "big";
  EXPECT_EQ(
      OverrideIssue(doc, "platform.fpga.latency_us=2").to_string(),
      "--set platform.fpga.latency_us=2: /platform/fpga: cannot set \"latency_us\" here: expected an object, "
      "got a string \"big\"");
  doc["platform"]["cpus"] = json::object();
  EXPECT_EQ(
      OverrideIssue(doc, "platform.cpus.0.name=x").to_string(),
      "--set platform.cpus.0.name=x: /platform/cpus: cannot set item \"0\" here: expected an array, got an "
      "object");
}

TEST(SchemaOverride, AllIssuesReportedTogether) {
  json doc = ValidInput();
  try {
    apply_overrides(doc, {"platform.cpus.0.clok_mhz=5", "trace.enabled=true", "nothing"}, TestSchema());
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(
        std::string(error.what()),
        "--set platform.cpus.0.clok_mhz=5: /platform/cpus/0/clok_mhz: unknown key \"clok_mhz\"; did you mean "
        "\"clock_mhz\"?\n"
        "--set nothing: malformed override: expected PATH=VALUE");
  }
  EXPECT_EQ(doc["trace"]["enabled"], json(true));  // the valid assignment applies
}

TEST(SchemaOverride, OrderedDocument) {
  ordered_json doc = ordered_json::parse(R"({"trace": {}, "platform": {"cpus": [{"name": "a"}]}})");
  apply_override(doc, "platform.cpus.0.hw_threads=2", TestSchema());
  EXPECT_EQ(doc.dump(), R"({"trace":{},"platform":{"cpus":[{"name":"a","hw_threads":2}]}})");
  EXPECT_THROW(apply_override(doc, "platform.cpuz.0.name=x", TestSchema()), ScenarioError);
}

// --- documentation

TEST(SchemaDocument, RowsForNestedArraysAndMaps) {
  const std::vector<SchemaDocRow> rows = document(TestSchema());
  std::vector<std::string> paths;
  for (const SchemaDocRow& row : rows) paths.push_back(row.path);
  EXPECT_EQ(paths, (std::vector<std::string>{
                       "platform",
                       "platform.cpus",
                       "platform.cpus[].name",
                       "platform.cpus[].clock_mhz",
                       "platform.cpus[].hw_threads",
                       "platform.cpus[].initial_core",
                       "platform.buses",
                       "platform.buses[].name",
                       "platform.buses[].mode",
                       "platform.buses[].base",
                       "platform.fpga",
                       "platform.fpga.slots",
                       "platform.fpga.slots[].size_kib",
                       "platform.fpga.slots[].enabled",
                       "platform.fpga.latency_us",
                       "software",
                       "software.<functionality>",
                       "software.<functionality>.cycles_per_block",
                       "trace",
                       "trace.enabled",
                       "trace.options",
                       "trace.options.<key>",
                   }));
  auto row = [&rows](const std::string& path) {
    for (const SchemaDocRow& r : rows) {
      if (r.path == path) return r;
    }
    ADD_FAILURE() << "no row " << path;
    return SchemaDocRow{};
  };
  EXPECT_EQ(row("platform.cpus[].clock_mhz"), (SchemaDocRow{"platform.cpus[].clock_mhz", "number", "MHz",
                                                            "100.0", "> 0, <= 10000", "CPU clock"}));
  EXPECT_EQ(row("platform.cpus[].name"), (SchemaDocRow{"platform.cpus[].name", "string", "", "required",
                                                       "[a-z][a-z0-9_]*", "unique name"}));
  EXPECT_EQ(row("platform.cpus"), (SchemaDocRow{"platform.cpus", "array of object", "", "required",
                                                "at least 1 item, at most 4 items", "processors"}));
  EXPECT_EQ(row("platform.cpus[].initial_core"),
            (SchemaDocRow{"platform.cpus[].initial_core", "string or null", "", "null", "",
                          "core loaded at start"}));
  EXPECT_EQ(row("platform.buses[].mode"), (SchemaDocRow{"platform.buses[].mode", "enum: async | sync", "",
                                                        "\"async\"", "", "transfer mode"}));
  EXPECT_EQ(row("platform.buses[].base"),
            (SchemaDocRow{"platform.buses[].base", "address", "", "\"0x40000000\"",
                          ">= 0x1000, <= 0xFFFFFFFF", "base address"}));
  EXPECT_EQ(row("software"), (SchemaDocRow{"software", "map of object", "", "{}", "keys: [a-z][a-z0-9_]*",
                                           "software implementations"}));
  EXPECT_EQ(row("software.<functionality>"),
            (SchemaDocRow{"software.<functionality>", "object", "", "see fields", "", "one functionality"}));
  EXPECT_EQ(row("software.<functionality>.cycles_per_block"),
            (SchemaDocRow{"software.<functionality>.cycles_per_block", "integer", "cycles", "10", ">= 1",
                          "cost per block"}));
  EXPECT_EQ(row("trace.options"), (SchemaDocRow{"trace.options", "map of number", "", "{}",
                                                "keys: latency | bandwidth", "trace options"}));
  EXPECT_EQ(row("trace"), (SchemaDocRow{"trace", "object", "", "see fields", "", "tracing"}));
}

TEST(SchemaDocument, ArrayOfScalarsGetsAnItemRow) {
  const Schema schema = Schema::object({
      {"weights",
       Schema::array(Schema::number().min(0).max(1).doc("one weight")).max_items(8).doc("weights")},
      {"grid", Schema::array(Schema::array(Schema::integer())).doc("grid")},
  });
  const std::vector<SchemaDocRow> rows = document(schema);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0],
            (SchemaDocRow{"weights", "array of number", "", "required", "at most 8 items", "weights"}));
  EXPECT_EQ(rows[1], (SchemaDocRow{"weights[]", "number", "", "required", ">= 0, <= 1", "one weight"}));
  EXPECT_EQ(rows[2].path, "grid");
  EXPECT_EQ(rows[2].type, "array of array of integer");
  EXPECT_EQ(rows[3].path, "grid[]");
  EXPECT_EQ(rows[4].path, "grid[][]");
  EXPECT_EQ(undocumented_paths(schema), (std::vector<std::string>{"grid[]", "grid[][]"}));
}

TEST(SchemaDocument, UndocumentedPathsOfTheTestSchema) {
  // Only the map value of trace.options lacks a description.
  EXPECT_EQ(undocumented_paths(TestSchema()), std::vector<std::string>{"trace.options.<key>"});
}

TEST(SchemaDocument, MarkdownTable) {
  const Schema schema = Schema::object({
      {"mode", Schema::enumeration({"async", "sync"}).default_value("async").doc("transfer | mode")},
      {"clock_mhz", Schema::number().unit("MHz").exclusive_min(0).doc("clock")},
      {"stages",
       Schema::map(Schema::integer().doc("depth")).key_name("stage").key_doc("a stage name").doc("stages")},
  });
  EXPECT_EQ(document_markdown(schema),
            "| Key | Type | Unit | Default | Range | Description |\n"
            "|-----|------|------|---------|-------|-------------|\n"
            "| `mode` | enum: async \\| sync |  | `\"async\"` |  | transfer \\| mode |\n"
            "| `clock_mhz` | number | MHz | required | > 0 | clock |\n"
            "| `stages` | map of integer |  | required |  | stages Keys: a stage name |\n"
            "| `stages.<stage>` | integer |  | required |  | depth |\n");
}

// --- issues

TEST(SchemaIssue, Formatting) {
  EXPECT_EQ((ScenarioIssue{"f.json", "/a/b", "bad"}).to_string(), "f.json: /a/b: bad");
  EXPECT_EQ((ScenarioIssue{"f.json", "", "bad"}).to_string(), "f.json: bad");
  EXPECT_EQ((ScenarioIssue{"f.json", "", "malformed JSON: x", 3, 7}).to_string(),
            "f.json:3:7: malformed JSON: x");
  const ScenarioError error("f.json", "/x", "oops");
  EXPECT_EQ(std::string(error.what()), "f.json: /x: oops");
  ASSERT_EQ(error.issues().size(), 1u);
  EXPECT_EQ(error.issues()[0], (ScenarioIssue{"f.json", "/x", "oops"}));
}

TEST(SchemaIssue, PointerHelpers) {
  EXPECT_EQ(pointer_child("", "platform"), "/platform");
  EXPECT_EQ(pointer_child("/platform", std::size_t{3}), "/platform/3");
  EXPECT_EQ(pointer_child("/a", "b/c~d"), "/a/b~1c~0d");
}

}  // namespace
}  // namespace rsoc::platform
