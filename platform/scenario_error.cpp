#include "platform/scenario_error.h"

#include <cstdio>
#include <utility>

namespace rsoc::platform {

namespace {

std::string JoinIssues(const std::vector<ScenarioIssue>& issues) {
  std::string text;
  for (const ScenarioIssue& issue : issues) {
    if (!text.empty()) text += '\n';
    text += issue.to_string();
  }
  return text;
}

}  // namespace

std::string ScenarioIssue::to_string() const {
  std::string text = file;
  if (line > 0) text += ':' + std::to_string(line) + ':' + std::to_string(column);
  if (!pointer.empty()) text += ": " + pointer;
  return bounded_words(text + ": " + message);
}

bool ScenarioIssue::operator==(const ScenarioIssue& other) const {
  return file == other.file && pointer == other.pointer && message == other.message && line == other.line &&
         column == other.column;
}

void IssueList::add(std::string pointer, std::string message) {
  add(ScenarioIssue{file_, std::move(pointer), std::move(message)});
}

void IssueList::add(ScenarioIssue issue) {
  if (issues_.size() >= kMaxIssues) {
    ++dropped_;
    return;
  }
  if (issue.file.empty()) issue.file = file_;
  issues_.push_back(std::move(issue));
}

void IssueList::append(const IssueList& other) {
  for (const ScenarioIssue& issue : other) add(issue);
  dropped_ += other.dropped_;
}

std::vector<ScenarioIssue> IssueList::reported() const {
  std::vector<ScenarioIssue> out = issues_;
  if (dropped_ > 0)
    out.push_back(ScenarioIssue{file_, "",
                                "and " + std::to_string(dropped_) + " more problem" +
                                    (dropped_ == 1 ? "" : "s") + " (the first " + std::to_string(kMaxIssues) +
                                    " are shown)"});
  return out;
}

std::string IssueList::to_string() const {
  return JoinIssues(reported());
}

void IssueList::throw_if_any() const {
  if (!issues_.empty()) throw ScenarioError(reported());
}

ScenarioError::ScenarioError(std::vector<ScenarioIssue> issues)
    : std::runtime_error(JoinIssues(issues)), issues_(std::move(issues)) {}

ScenarioError::ScenarioError(std::string file, std::string pointer, std::string message)
    : ScenarioError(std::vector<ScenarioIssue>{
          ScenarioIssue{std::move(file), std::move(pointer), std::move(message)}}) {}

std::optional<std::size_t> invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = byte < 0x80           ? 1
                               : (byte >> 5) == 0x6  ? 2
                               : (byte >> 4) == 0xE  ? 3
                               : (byte >> 3) == 0x1E ? 4
                                                     : 0;
    if (length == 0 || i + length > text.size()) return i;
    for (std::size_t k = 1; k < length; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return i;
    i += length;
  }
  return std::nullopt;
}

std::string bounded_words(const std::string& text) {
  constexpr std::size_t kMaxWordChars = 500;
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find_first_of(" \n\t", at);
    if (end == std::string::npos) end = text.size();
    if (end - at <= kMaxWordChars) {
      out.append(text, at, end - at);
    } else {
      const auto boundary = [&](std::size_t i) {  // back to the start of a UTF-8 character
        while (i > at && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) --i;
        return i;
      };
      const std::size_t head = boundary(at + kMaxWordChars / 2), tail = boundary(end - kMaxWordChars / 2);
      out.append(text, at, head - at).append("...").append(text, tail, end - tail);
    }
    if (end < text.size()) out += text[end];
    at = end + 1;
  }
  return out;
}

std::string printable_text(std::string_view text) {
  std::string out;
  while (const auto bad = invalid_utf8(text)) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(text[*bad]));
    out.append(text.substr(0, *bad)).append(hex);
    text.remove_prefix(*bad + 1);
  }
  return out.append(text);
}

std::string pointer_escape(std::string_view token) {
  std::string escaped;
  escaped.reserve(token.size());
  for (char c : token) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

std::string pointer_child(std::string_view parent, std::string_view key) {
  return std::string(parent) + '/' + pointer_escape(key);
}

std::string pointer_child(std::string_view parent, std::size_t index) {
  return std::string(parent) + '/' + std::to_string(index);
}

}  // namespace rsoc::platform
