// The hostile corpus: broken and extreme scenarios, overrides and command lines, each run end to end through
// the rsoc binary as a user would run it, and each with its expected outcome (tests/hostile/cases.json; how
// to read and add a case: tests/hostile/README.md).
//
// Every case is its own test (Corpus/Hostile.Case/<name>), run in a scratch folder with a time limit and a
// memory limit. Whatever it expects, a case fails when rsoc is killed by a signal (a crash), runs out of time
// (a hang), runs out of memory, or — when it ends with an error — leaves an output folder behind.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_paths.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kSource = rsoc_test::kSourceDir;
const std::string kManifest = kSource + "/tests/hostile/cases.json";

// Each run: at most 4 GiB of memory and this many seconds unless the case says. The bound is on address space
// (ulimit -v), except under AddressSanitizer, which reserves terabytes of it for its shadow memory: there it
// is ASan's own limit on resident memory, which ends an offending run with a report (tools/check.sh
// sanitize).
constexpr long kMemoryKiB = 4L * 1024 * 1024;
#if defined(__SANITIZE_ADDRESS__)  // gcc's
#define RSOC_HOSTILE_UNDER_ASAN 1
#elif defined(__has_feature)  // clang's
#if __has_feature(address_sanitizer)
#define RSOC_HOSTILE_UNDER_ASAN 1
#endif
#endif
#if defined(RSOC_HOSTILE_UNDER_ASAN)
const std::string kMemoryLimit = "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=" +
                                 std::to_string(kMemoryKiB / 1024) + "\"";
#else
const std::string kMemoryLimit = "ulimit -v " + std::to_string(kMemoryKiB);
#endif
constexpr int kDefaultSeconds = 60;

struct Case {
  std::string name;
  json spec;
};

std::vector<Case> load_cases() {
  std::ifstream in(kManifest);
  std::vector<Case> out;
  if (!in) return out;
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.contains("cases")) return out;
  for (const auto& c : doc["cases"]) out.push_back({c.value("name", std::string("unnamed")), c});
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// "\xHH" sequences as the bytes they stand for (invalid UTF-8 cannot be written in the manifest otherwise).
std::string bytes_of(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x') {
      out += static_cast<char>(std::stoi(text.substr(i + 2, 2), nullptr, 16));
      i += 3;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The text of a generated file: its parts in order, a string as it is (\xHH: a byte), {"repeat": TEXT,
// "count": N} as N copies of TEXT, {"file": PATH} as the file (PATH from the source tree) with, when given,
// each "replace": [[FROM, TO], ...] made once, then only the text "before" or "after" the first MARK.
std::string generated(const json& parts) {
  std::string out;
  for (const auto& part : parts) {
    if (part.is_string()) {
      out += bytes_of(part.get<std::string>());
    } else if (part.contains("repeat")) {
      const std::string unit = part["repeat"].get<std::string>();
      const std::size_t count = part["count"].get<std::size_t>();
      out.reserve(out.size() + unit.size() * count);
      for (std::size_t i = 0; i < count; ++i) out += unit;
    } else {
      std::string text = slurp(kSource + "/" + part["file"].get<std::string>());
      for (const auto& pair : part.value("replace", json::array())) {
        const auto at = text.find(pair[0].get<std::string>());
        EXPECT_NE(at, std::string::npos) << pair[0] << " not in " << part["file"];
        if (at != std::string::npos)
          text.replace(at, pair[0].get<std::string>().size(), pair[1].get<std::string>());
      }
      if (part.contains("before")) text = text.substr(0, text.find(part["before"].get<std::string>()));
      if (part.contains("after")) {
        const std::string mark = part["after"].get<std::string>();
        text = text.substr(std::min(text.size(), text.find(mark) + mark.size()));
      }
      out += text;
    }
  }
  return out;
}

fs::path scratch_for(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("rsoc_hostile_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// What ended the command, in words.
std::string ending(int code) {
  if (code == 124) return "it ran out of time (a hang)";
  if (code > 128) return "it was killed by signal " + std::to_string(code - 128);
  return "exit " + std::to_string(code);
}

// Runs `rsoc ARGS` (ARGS as a shell would split them, {smoke}, {scenarios} and {src} standing for the source
// tree's) in `dir` with the limits, its output in dir/stdout.txt and dir/stderr.txt; returns its exit code
// (128 + N when killed by signal N, 124 when it ran out of time).
int run(std::string args, const fs::path& dir, int seconds) {
  replace_all(args, "{smoke}", "'" + kSource + "/scenarios/smoke_aes.json'");
  replace_all(args, "{scenarios}", "'" + kSource + "/scenarios'");
  replace_all(args, "{src}", "'" + kSource + "'");
  const std::string command = "cd '" + dir.string() + "' && " + kMemoryLimit + " && exec timeout -k 5 " +
                              std::to_string(seconds) + " '" + rsoc_test::kRsocBinary + "' " + args +
                              " >stdout.txt 2>stderr.txt";
  const int status = std::system(command.c_str());  // /bin/sh -c COMMAND
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A case is shown by its name (not its bytes) in test names and messages.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

class Hostile : public ::testing::TestWithParam<Case> {};

TEST_P(Hostile, Case) {
  const json& c = GetParam().spec;
  const fs::path dir = scratch_for(GetParam().name);
  SCOPED_TRACE(c.value("what", std::string()));
  // The files the case needs, in its scratch folder.
  if (c.contains("write"))
    for (const auto& [name, content] : c["write"].items()) {
      fs::create_directories((dir / name).parent_path());
      std::ofstream(dir / name, std::ios::binary)
          << (content.is_string() ? content.get<std::string>() : content.dump(2));
    }
  if (c.contains("generate"))
    for (const auto& [name, parts] : c["generate"].items()) {
      fs::create_directories((dir / bytes_of(name)).parent_path());
      std::ofstream(dir / bytes_of(name), std::ios::binary) << generated(parts);
    }
  if (c.contains("folders"))
    for (const auto& name : c["folders"]) fs::create_directories(dir / name.get<std::string>());

  // Commands that prepare what the case needs (a sweep folder), each expected to succeed.
  if (c.contains("before"))
    for (const auto& args : c["before"]) {
      const int code = run(args.get<std::string>(), dir, c.value("timeout_s", kDefaultSeconds));
      ASSERT_EQ(code, 0) << "before: " << args << ": " << ending(code) << "\n" << slurp(dir / "stderr.txt");
    }
  const int code = run(c.at("args").get<std::string>(), dir, c.value("timeout_s", kDefaultSeconds));
  std::string out = slurp(dir / "stdout.txt"), err = slurp(dir / "stderr.txt");
  // Messages name the source tree as {src} and the scratch folder as {dir}.
  replace_all(err, kSource, "{src}");
  replace_all(err, dir.string(), "{dir}");
  replace_all(out, dir.string(), "{dir}");

  EXPECT_EQ(err.find("bad_alloc"), std::string::npos) << "it ran out of memory";
  const int expected = c.at("exit").get<int>();
  ASSERT_EQ(code, expected) << ending(code) << "\nstderr:\n" << err.substr(0, 4000);
  if (c.contains("stderr")) {
    EXPECT_EQ(err, c["stderr"].get<std::string>());
  }
  for (const auto& s : c.value("stderr_has", json::array())) {
    EXPECT_NE(err.find(s.get<std::string>()), std::string::npos) << s << "\nstderr:\n" << err.substr(0, 4000);
  }
  for (const auto& s : c.value("stdout_has", json::array())) {
    EXPECT_NE(out.find(s.get<std::string>()), std::string::npos) << s << "\nstdout:\n" << out.substr(0, 4000);
  }
  // An error leaves nothing behind: no output folder, no temporary one.
  const bool error = c.value("error", expected == 2);
  if (error) {
    EXPECT_FALSE(fs::exists(dir / "out")) << "an error left its output folder behind";
    for (const auto& e : fs::directory_iterator(dir))
      EXPECT_EQ(e.path().filename().string().find(".out."), std::string::npos) << e.path() << " left behind";
  }
  // A bounded run has complete results.
  for (const auto& f : c.value("files", json::array())) {
    EXPECT_TRUE(fs::exists(dir / f.get<std::string>())) << f << " missing";
  }
  for (const auto& f : c.value("no_files", json::array())) {
    EXPECT_FALSE(fs::exists(dir / f.get<std::string>())) << f << " exists";
  }
  const json file_has = c.value("file_has", json::object());
  for (const auto& [f, texts] : file_has.items()) {
    const std::string text = slurp(dir / f);
    for (const auto& t : texts)
      EXPECT_NE(text.find(t.get<std::string>()), std::string::npos) << f << ": " << t;
  }
  if (!HasFailure()) fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Corpus, Hostile, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           return param_info.param.name;
                         });

// The manifest itself: readable, at least 60 cases, each named once (a name gtest accepts), saying what it
// checks and how it must end.
TEST(HostileManifest, EveryCaseIsNamedOnceAndSaysWhatItChecksAndHowItEnds) {
  std::ifstream in(kManifest);
  ASSERT_TRUE(in) << kManifest;
  const json doc = json::parse(in, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << kManifest << " is not JSON";
  std::set<std::string> names;
  const std::set<std::string> keys = {
      "name", "what",  "before", "write",      "generate",   "folders", "args",     "timeout_s",
      "exit", "error", "stderr", "stderr_has", "stdout_has", "files",   "no_files", "file_has"};
  for (const auto& c : doc.at("cases")) {
    const std::string name = c.value("name", std::string());
    EXPECT_FALSE(name.empty());
    EXPECT_EQ(name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"),
              std::string::npos)
        << name;
    EXPECT_TRUE(names.insert(name).second) << name << " is named twice";
    EXPECT_TRUE(c.contains("what") && c.contains("args") && c.contains("exit")) << name;
    const int exit = c.value("exit", -1);
    EXPECT_TRUE(exit == 0 || exit == 1 || exit == 2) << name;
    // An error is checked by its message; a run by its results.
    if (exit == 2 || c.value("error", false))
      EXPECT_TRUE(c.contains("stderr") || c.contains("stderr_has")) << name << ": an error needs its message";
    else
      EXPECT_TRUE(c.contains("files") || c.contains("stdout_has"))
          << name << ": a run needs the files it must write (or, for a check, what it prints)";
    for (const auto& [key, value] : c.items())
      EXPECT_TRUE(keys.count(key)) << name << ": unknown key " << key;
  }
  EXPECT_GE(names.size(), 60u);
}

}  // namespace
