#pragma once
// Tidy CSV: a header with units in column names, one row per record, RFC 4180 quoting, fixed float formatting
// (so output is byte-identical across runs).

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace rsoc::analysis {

class CsvWriter {
 public:
  CsvWriter(std::ostream& out, std::vector<std::string> columns);
  CsvWriter& cell(const std::string& text);
  CsvWriter& cell(const char* text) { return cell(std::string(text)); }
  CsvWriter& cell(std::uint64_t value);
  CsvWriter& cell(bool value) { return cell(value ? "true" : "false"); }
  CsvWriter& cell(double value, int decimals);
  // Ends the row; throws std::logic_error when the row has the wrong number of cells.
  void end_row();
  std::size_t columns() const { return columns_; }

 private:
  void separator();
  std::ostream& out_;
  std::size_t columns_;
  std::size_t filled_ = 0;
};

std::string csv_escape(const std::string& text);
std::string fixed(double value, int decimals);
// A metric's value: whole numbers (counts, block thresholds) without decimals, anything else to 6 decimals.
// Tables give each column (or each row of one metric) one format: whole numbers only where every value is one.
std::string metric_text(double value);
bool is_whole(double value);  // finite, without a fractional part, below 10^15
// Picoseconds as milliseconds with 9 decimals, exactly (integer arithmetic: no rounding at any magnitude).
std::string exact_ms(std::uint64_t ps);

}  // namespace rsoc::analysis
