#include "platform/json_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <utility>
#include <vector>

namespace rsoc::platform {

namespace {

// The text after "parse error at line L, column C: " in a nlohmann parse_error message.
std::string ParseErrorReason(const std::string& what) {
  const std::size_t error = what.find("parse error");
  if (error != std::string::npos) {
    const std::size_t colon = what.find(": ", error);
    if (colon != std::string::npos) return printable_text(what.substr(colon + 2));
  }
  const std::size_t bracket = what.find("] ");
  return printable_text(bracket == std::string::npos ? what : what.substr(bracket + 2));
}

// 1-based line and column of the character nlohmann's parser stopped at (`byte` characters read).
std::pair<int, int> Position(std::string_view text, std::size_t byte) {
  const std::size_t offset = std::min(byte > 0 ? byte - 1 : 0, text.size());
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, static_cast<int>(offset - line_start) + 1};
}

constexpr std::size_t kMaxDepth = kMaxJsonDepth;
// An object may have this many keys: a scenario's largest has a dozen. Far more are refused as they are read
// (keys are kept in source order, found by a linear search: millions would take hours).
constexpr std::size_t kMaxKeys = 256;

}  // namespace

std::optional<std::size_t> json_too_deep(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

namespace {

// Refuses text nested deeper than kMaxDepth, at the bracket that goes too deep.
void CheckDepth(std::string_view text, const std::string& name) {
  if (const auto at = json_too_deep(text)) {
    const auto [line, column] = Position(text, *at + 1);
    throw ScenarioError({ScenarioIssue{
        name, "", "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels", line, column}});
  }
}

// Where `token` (a number nlohmann could not hold) first stands in `text`, as a 1-based line and column.
std::pair<int, int> TokenPosition(std::string_view text, const std::string& token) {
  const std::size_t at = token.empty() ? std::string_view::npos : text.find(token);
  return at == std::string_view::npos ? std::pair<int, int>{0, 0} : Position(text, at + 1);
}

// A scenario is a description of hardware and a workload: a few kilobytes. Far larger text is refused before
// it is parsed (parsing it would only exhaust memory).
constexpr std::size_t kMaxScenarioBytes = std::size_t{16} << 20;

std::string TooLarge(const std::string& size) {
  return "the file is " + size + " bytes; a scenario is at most " + std::to_string(kMaxScenarioBytes) +
         " bytes (16 MiB)";
}

template <typename J>
J Parse(std::string_view text, const std::string& name) {
  CheckDepth(text, name);
  struct Frame {
    bool object = false;
    std::set<std::string> keys;  // keys seen so far (objects)
    std::string key;             // current key (objects)
    std::size_t index = 0;       // current item (arrays)
  };
  std::vector<Frame> stack;
  IssueList issues(name);
  // Pointer of the innermost open container: the current child token of every enclosing container.
  auto container_pointer = [&stack]() {
    std::string pointer;
    for (std::size_t i = 0; i + 1 < stack.size(); ++i) {
      pointer =
          stack[i].object ? pointer_child(pointer, stack[i].key) : pointer_child(pointer, stack[i].index);
    }
    return pointer;
  };
  auto value_done = [&stack]() {
    if (!stack.empty() && !stack.back().object) ++stack.back().index;
  };
  using Event = typename J::parse_event_t;
  typename J::parser_callback_t callback = [&](int /*depth*/, Event event, J& parsed) {
    switch (event) {
      case Event::object_start:
        stack.push_back(Frame{true, {}, {}, 0});
        break;
      case Event::array_start:
        stack.push_back(Frame{false, {}, {}, 0});
        break;
      case Event::key: {
        const auto& key = parsed.template get_ref<const std::string&>();
        if (stack.back().keys.size() >= kMaxKeys)
          throw ScenarioError(name, container_pointer(),
                              "more than " + std::to_string(kMaxKeys) + " keys in one object");
        if (!stack.back().keys.insert(key).second) {
          issues.add(container_pointer(),
                     "duplicate key " +
                         nlohmann::json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        }
        stack.back().key = key;
        break;
      }
      case Event::object_end:
      case Event::array_end:
        stack.pop_back();
        value_done();
        break;
      case Event::value:
        value_done();
        break;
    }
    return true;
  };
  J doc;
  try {
    doc = J::parse(text.begin(), text.end(), callback);
  } catch (const typename J::parse_error& error) {
    const auto [line, column] = Position(text, error.byte);
    throw ScenarioError(
        {ScenarioIssue{name, "", "malformed JSON: " + ParseErrorReason(error.what()), line, column}});
  } catch (const typename J::out_of_range& error) {  // a number no double holds (1e400)
    const std::string what = error.what();
    const std::size_t open = what.find('\''), close = what.rfind('\'');
    const std::string token =
        open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
    const auto [line, column] = TokenPosition(text, token);
    throw ScenarioError({ScenarioIssue{name, "",
                                       "number " + token +
                                           " is out of range (beyond what a double holds: about "
                                           "1.8e308)",
                                       line, column}});
  }
  issues.throw_if_any();
  return doc;
}

// The text of the file at `path`; a file of more than `max_bytes` is refused (without reading past them).
std::string ReadFile(const std::string& path, std::size_t max_bytes = std::string::npos) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw ScenarioError(path, "", std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  char buffer[65536];
  std::size_t count = 0;
  errno = 0;
  while (text.size() <= max_bytes && (count = std::fread(buffer, 1, sizeof buffer, file)) > 0)
    text.append(buffer, count);
  const bool failed = std::ferror(file) != 0;
  const int error = errno;
  std::fclose(file);
  if (failed)
    throw ScenarioError(path, "", std::string("cannot read: ") + std::strerror(error != 0 ? error : EIO));
  if (text.size() > max_bytes) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    throw ScenarioError(path, "",
                        TooLarge(ec ? "more than " + std::to_string(max_bytes) : std::to_string(size)));
  }
  return text;
}

}  // namespace

nlohmann::json read_json_file(const std::string& path) {
  return Parse<nlohmann::json>(ReadFile(path), path);
}

nlohmann::json parse_json_text(std::string_view text, std::string_view name) {
  return Parse<nlohmann::json>(text, std::string(name));
}

nlohmann::ordered_json read_ordered_json_file(const std::string& path) {
  return Parse<nlohmann::ordered_json>(ReadFile(path, kMaxScenarioBytes), path);
}

nlohmann::ordered_json parse_ordered_json_text(std::string_view text, std::string_view name) {
  if (text.size() > kMaxScenarioBytes)
    throw ScenarioError(std::string(name), "", TooLarge(std::to_string(text.size())));
  return Parse<nlohmann::ordered_json>(text, std::string(name));
}

}  // namespace rsoc::platform
