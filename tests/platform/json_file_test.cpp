#include "platform/json_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "platform/scenario_error.h"

namespace rsoc::platform {
namespace {

// A file under the test temporary directory, named after the running test and removed afterwards.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = (std::filesystem::path(::testing::TempDir()) /
             (std::string("rsoc_") + info->test_suite_name() + "_" + info->name() + ".json"))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The what() of the ScenarioError thrown by `parse`, or "" when nothing is thrown.
template <typename F>
std::string ErrorOf(F parse) {
  try {
    parse();
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "";
}

TEST(JsonFile, ReadsAValidFile) {
  const TempFile file(R"({"platform": {"cpus": [{"name": "cpu0", "clock_mhz": 100}]}, "b": [1, 2.5, null]})");
  const nlohmann::json doc = read_json_file(file.path());
  EXPECT_EQ(doc, nlohmann::json::parse(R"({"platform": {"cpus": [{"name": "cpu0", "clock_mhz": 100}]},
                                          "b": [1, 2.5, null]})"));
}

TEST(JsonFile, MissingFile) {
  const std::string path = ::testing::TempDir() + "rsoc_no_such_scenario.json";
  EXPECT_EQ(ErrorOf([&] { read_json_file(path); }), path + ": cannot open: No such file or directory");
}

TEST(JsonFile, DirectoryIsUnreadable) {
  const std::string path = ::testing::TempDir();
  EXPECT_EQ(ErrorOf([&] { read_json_file(path); }), path + ": cannot read: Is a directory");
}

TEST(JsonFile, MalformedFileReportsLineAndColumn) {
  const TempFile file("{\n  \"platform\": {\n    \"cpus\": [1, 2,, 3]\n  }\n}\n");
  try {
    read_json_file(file.path());
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& error) {
    ASSERT_EQ(error.issues().size(), 1u);
    const ScenarioIssue& issue = error.issues()[0];
    EXPECT_EQ(issue.file, file.path());
    EXPECT_EQ(issue.line, 3);
    EXPECT_EQ(issue.column, 19);
    EXPECT_EQ(std::string(error.what()),
              file.path() +
                  ":3:19: malformed JSON: syntax error while parsing value - unexpected ','; expected '[', "
                  "'{', or a literal");
  }
}

TEST(JsonFile, MalformedTextPositions) {
  EXPECT_EQ(
      ErrorOf([] { parse_json_text("", "empty.json"); }),
      "empty.json:1:1: malformed JSON: syntax error while parsing value - unexpected end of input; expected "
      "'[', '{', or a literal");
  EXPECT_EQ(ErrorOf([] { parse_json_text("{\"a\": 1,", "cut.json"); }),
            "cut.json:1:9: malformed JSON: syntax error while parsing object key - unexpected end of input; "
            "expected "
            "string literal");
  EXPECT_EQ(ErrorOf([] { parse_json_text("{\"a\": 1}\n}", "tail.json"); }),
            "tail.json:2:1: malformed JSON: syntax error while parsing value - unexpected '}'; expected end "
            "of input");
  EXPECT_EQ(ErrorOf([] { parse_json_text("[1,\n 2,\n x]", "lit.json"); }),
            "lit.json:3:2: malformed JSON: syntax error while parsing value - invalid literal; last read: "
            "'2,<U+000A> x'");
}

TEST(JsonFile, DeepNestingIsRefusedAtTheBracketThatGoesTooDeep) {
  // A million levels would exhaust the stack of whatever walks the document: refused before parsing, with the
  // position of the 257th opening bracket; brackets inside strings do not count.
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  EXPECT_EQ(ErrorOf([&] { parse_json_text(deep, "deep.json"); }),
            "deep.json:1:257: JSON nested deeper than 256 levels");
  std::string nested = "{\"s\": \"" + std::string(1000, '[') + "\",\n \"a\": ";
  for (int i = 0; i < 300; ++i) nested += "{\"a\": ";
  EXPECT_EQ(ErrorOf([&] { parse_json_text(nested, "objects.json"); }),
            "objects.json:2:" + std::to_string(7 + 6 * 255) + ": JSON nested deeper than 256 levels");
  const std::string fine = std::string(256, '[') + std::string(256, ']');
  EXPECT_EQ(ErrorOf([&] { parse_json_text(fine, "fine.json"); }), "");
}

TEST(JsonFile, ANumberNoDoubleHoldsIsAScenarioErrorAtItsPosition) {
  EXPECT_EQ(ErrorOf([] { parse_json_text("{\n  \"seed\": 1,\n  \"x\": 1e400\n}", "big.json"); }),
            "big.json:3:8: number 1e400 is out of range (beyond what a double holds: about 1.8e308)");
}

TEST(JsonFile, DuplicateKeyNamesItsObject) {
  const TempFile file(
      R"({"platform": {"cpus": [{"name": "a"}, {"clock_mhz": 1, "name": "b", "clock_mhz": 2}]}})");
  EXPECT_EQ(ErrorOf([&] { read_json_file(file.path()); }),
            file.path() + ": /platform/cpus/1: duplicate key \"clock_mhz\"");
}

TEST(JsonFile, EveryDuplicateIsReported) {
  const char* text = R"({"a": 1, "b": {"x": [[], {"k": 1, "k": 2}], "x": 3}, "a": 2})";
  try {
    parse_json_text(text, "dup.json");
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()),
              "dup.json: /b/x/1: duplicate key \"k\"\n"
              "dup.json: /b: duplicate key \"x\"\n"
              "dup.json: duplicate key \"a\"");
  }
}

TEST(JsonFile, SameKeyInSiblingObjectsIsFine) {
  EXPECT_NO_THROW(parse_json_text(R"([{"a": 1}, {"a": 2}, {"b": {"a": 3}}])", "ok.json"));
}

TEST(JsonFile, OrderedVariantsKeepSourceOrder) {
  EXPECT_EQ(parse_ordered_json_text(R"({"z": 1, "a": {"y": 2, "b": 3}})", "o.json").dump(),
            R"({"z":1,"a":{"y":2,"b":3}})");
  EXPECT_EQ(parse_json_text(R"({"z": 1, "a": {"y": 2, "b": 3}})", "o.json").dump(),
            R"({"a":{"b":3,"y":2},"z":1})");
  const TempFile file(R"({"z": 1, "z": 2})");
  EXPECT_EQ(ErrorOf([&] { read_ordered_json_file(file.path()); }), file.path() + ": duplicate key \"z\"");
}

}  // namespace
TEST(JsonFile, AScenarioOfMoreThan16MiBIsRefusedBeforeItIsParsed) {
  const std::string big = "{\"description\": \"" + std::string(std::size_t{16} << 20, 'x') + "\"}";
  const TempFile file(big);
  EXPECT_EQ(ErrorOf([&] { read_ordered_json_file(file.path()); }),
            file.path() + ": the file is " + std::to_string(big.size()) +
                " bytes; a scenario is at most 16777216 bytes (16 MiB)");
  EXPECT_EQ(ErrorOf([&] { parse_ordered_json_text(big, "big.json"); }),
            "big.json: the file is " + std::to_string(big.size()) +
                " bytes; a scenario is at most 16777216 bytes (16 MiB)");
  EXPECT_NO_THROW(read_json_file(file.path()));  // not a scenario (a sweep's description): no limit
}

TEST(JsonFile, AnObjectOfMoreThan256KeysIsRefusedAsItIsRead) {
  std::string text = "{\"a\": [{";
  for (int i = 0; i < 257; ++i) text += "\"k" + std::to_string(i) + "\": 1, ";
  text += "\"z\": 1}]}";
  EXPECT_EQ(ErrorOf([&] { parse_ordered_json_text(text, "keys.json"); }),
            "keys.json: /a/0: more than 256 keys in one object");
  std::string fine = "{";
  for (int i = 0; i < 255; ++i) fine += "\"k" + std::to_string(i) + "\": 1, ";
  EXPECT_EQ(ErrorOf([&] { parse_ordered_json_text(fine + "\"z\": 1}", "fine.json"); }), "");
}

TEST(JsonFile, BytesThatAreNotUtf8AreQuotedAsEscapes) {
  EXPECT_EQ(
      ErrorOf([] { parse_json_text("{\"s\": \"\xff\"}", "bytes.json"); }),
      "bytes.json:1:8: malformed JSON: syntax error while parsing value - invalid string: ill-formed UTF-8 "
      "byte; last read: '\"\\xff'");
}

}  // namespace rsoc::platform
