#pragma once
// NameTable: the one list of the names of an enum's values, as scenarios spell them. The schema takes its
// allowed values from it (names()), the resolver turns a name into the value (find()), and results print the
// value by it (name()): a value added to the enum and its table is known everywhere at once, and a name the
// table does not hold can never become some other value by default.

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rsoc::models {

template <class Enum, std::size_t N>
class NameTable {
 public:
  struct Entry {
    Enum value;
    const char* name;
  };
  constexpr explicit NameTable(const std::array<Entry, N>& entries) : entries_(entries) {}

  // The name of `value`; throws std::logic_error for a value the table lacks (a table left incomplete).
  const char* name(Enum value) const {
    for (const Entry& e : entries_)
      if (e.value == value) return e.name;
    throw std::logic_error("a value without a name in its NameTable");
  }
  std::optional<Enum> find(std::string_view name) const {
    for (const Entry& e : entries_)
      if (name == e.name) return e.value;
    return std::nullopt;
  }
  // The value named `name`, which the schema has already checked; throws std::logic_error otherwise.
  Enum at(std::string_view name) const {
    if (const auto value = find(name)) return *value;
    throw std::logic_error("\"" + std::string(name) + "\" is not in its NameTable");
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& e : entries_) out.emplace_back(e.name);
    return out;
  }
  const std::array<Entry, N>& entries() const { return entries_; }

 private:
  std::array<Entry, N> entries_;
};

}  // namespace rsoc::models
