#pragma once
// Scenario problems: one ScenarioIssue per problem (file, JSON pointer, message), collected in an IssueList
// so that every problem of a scenario is reported together, and thrown as one ScenarioError.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rsoc::platform {

struct ScenarioIssue {
  std::string file;     // scenario file name, or the command-line flag the issue comes from
  std::string pointer;  // RFC 6901 JSON pointer of the offending value; "" is the document root
  std::string message;  // what was expected
  int line = 0;         // 1-based source position, only for malformed JSON (0 when unknown)
  int column = 0;

  // "FILE: POINTER: MESSAGE", "FILE: MESSAGE" when the pointer is empty, "FILE:LINE:COLUMN: MESSAGE" when the
  // position is known.
  std::string to_string() const;
  bool operator==(const ScenarioIssue& other) const;
  bool operator!=(const ScenarioIssue& other) const { return !(*this == other); }
};

// An ordered collection of issues; issues added without a file name get the list's file name. It keeps the
// first kMaxIssues and counts the others: a file with millions of problems is reported in a few lines ("FILE:
// and 2000000 more problems (the first 100 are shown)"), in bounded memory.
class IssueList {
 public:
  IssueList() = default;
  explicit IssueList(std::string file) : file_(std::move(file)) {}

  void add(std::string pointer, std::string message);
  void add(ScenarioIssue issue);
  void append(const IssueList& other);

  static constexpr std::size_t kMaxIssues = 100;

  bool empty() const { return issues_.empty(); }
  std::size_t size() const { return issues_.size(); }
  const ScenarioIssue& operator[](std::size_t i) const { return issues_[i]; }
  std::vector<ScenarioIssue>::const_iterator begin() const { return issues_.begin(); }
  std::vector<ScenarioIssue>::const_iterator end() const { return issues_.end(); }
  const std::vector<ScenarioIssue>& items() const { return issues_; }
  // Calls update(issue) on every issue kept, which may change it.
  template <class Update>
  void update(Update update) {
    for (ScenarioIssue& issue : issues_) update(issue);
  }
  const std::string& file() const { return file_; }

  // Every issue formatted by ScenarioIssue::to_string, one per line, no trailing newline (with the count of
  // the issues not kept, if any).
  std::string to_string() const;
  // Throws a ScenarioError carrying every issue kept (and one that counts the others) when there is at least
  // one.
  void throw_if_any() const;

 private:
  std::vector<ScenarioIssue> reported() const;

  std::string file_;
  std::vector<ScenarioIssue> issues_;
  std::size_t dropped_ = 0;  // issues past kMaxIssues
};

class ScenarioError : public std::runtime_error {
 public:
  explicit ScenarioError(std::vector<ScenarioIssue> issues);
  ScenarioError(std::string file, std::string pointer, std::string message);
  const std::vector<ScenarioIssue>& issues() const { return issues_; }

 private:
  std::vector<ScenarioIssue> issues_;
};

// `text` with every word (a run without blanks) longer than 500 characters cut to 500 with "..." in its middle:
// a message quoting what the user gave (a path, an override, a name), however long, stays readable. Every
// message rsoc prints goes through it.
std::string bounded_words(const std::string& text);
// `text` with each byte that is not part of a well-formed UTF-8 sequence written as \xHH: a file name, a
// flag or what the JSON parser read, quoted in a message or written into a JSON result, stays valid text.
std::string printable_text(std::string_view text);
// The offset of the first byte of `text` that is not part of a well-formed UTF-8 sequence, if any.
std::optional<std::size_t> invalid_utf8(std::string_view text);

// JSON pointer helpers (RFC 6901): the pointer of a child of `parent`, escaping '~' and '/' in keys.
std::string pointer_child(std::string_view parent, std::string_view key);
std::string pointer_child(std::string_view parent, std::size_t index);
std::string pointer_escape(std::string_view token);

}  // namespace rsoc::platform
