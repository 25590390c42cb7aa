#include "platform/scenario_error.h"

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
  return text + ": " + message;
}

bool ScenarioIssue::operator==(const ScenarioIssue& other) const {
  return file == other.file && pointer == other.pointer && message == other.message && line == other.line &&
         column == other.column;
}

void IssueList::add(std::string pointer, std::string message) {
  issues_.push_back(ScenarioIssue{file_, std::move(pointer), std::move(message)});
}

void IssueList::add(ScenarioIssue issue) {
  if (issue.file.empty()) issue.file = file_;
  issues_.push_back(std::move(issue));
}

void IssueList::append(const IssueList& other) {
  for (const ScenarioIssue& issue : other) add(issue);
}

std::string IssueList::to_string() const {
  return JoinIssues(issues_);
}

void IssueList::throw_if_any() const {
  if (!issues_.empty()) throw ScenarioError(issues_);
}

ScenarioError::ScenarioError(std::vector<ScenarioIssue> issues)
    : std::runtime_error(JoinIssues(issues)), issues_(std::move(issues)) {}

ScenarioError::ScenarioError(std::string file, std::string pointer, std::string message)
    : ScenarioError(std::vector<ScenarioIssue>{
          ScenarioIssue{std::move(file), std::move(pointer), std::move(message)}}) {}

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
