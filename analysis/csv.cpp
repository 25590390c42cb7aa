#include "analysis/csv.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace rsoc::analysis {

std::string csv_escape(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  std::string s = buf;
  if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos) s = s[0] == '-' ? s.substr(1) : s;
  return s;
}

bool is_whole(double value) {
  return std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15;
}

std::string metric_text(double value) {
  return fixed(value, is_whole(value) ? 0 : 6);
}

std::string exact_ms(std::uint64_t ps) {
  constexpr std::uint64_t kPsPerMs = 1000000000;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%llu.%09llu", static_cast<unsigned long long>(ps / kPsPerMs),
                static_cast<unsigned long long>(ps % kPsPerMs));
  return buf;
}

CsvWriter::CsvWriter(std::ostream& out, std::vector<std::string> columns)
    : out_(out), columns_(columns.size()) {
  for (const auto& c : columns) cell(c);
  end_row();
}

void CsvWriter::separator() {
  if (filled_ > 0) out_ << ',';
  ++filled_;
}

CsvWriter& CsvWriter::cell(const std::string& text) {
  separator();
  out_ << csv_escape(text);
  return *this;
}

CsvWriter& CsvWriter::cell(std::uint64_t value) {
  separator();
  out_ << value;
  return *this;
}

CsvWriter& CsvWriter::cell(double value, int decimals) {
  separator();
  out_ << fixed(value, decimals);
  return *this;
}

void CsvWriter::end_row() {
  if (filled_ != columns_)
    throw std::logic_error("CSV row has " + std::to_string(filled_) + " cells, expected " +
                           std::to_string(columns_));
  out_ << '\n';
  filled_ = 0;
}

}  // namespace rsoc::analysis
