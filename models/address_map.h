#pragma once
// AddressMap: the decoder of a bus (plain C++). Ranges never overlap; a lookup returns the one range that
// holds the whole access, or nothing.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rsoc::models {

class ElaborationError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct AddressRange {
  std::string name;
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  unsigned port = 0;                                 // index of the bus initiator port bound to the device
  std::uint64_t end() const { return base + size; }  // one past the last byte
};

class AddressMap {
 public:
  explicit AddressMap(std::string owner) : owner_(std::move(owner)) {}
  // Adds a range; throws ElaborationError naming both devices when it overlaps one already mapped.
  void add(const AddressRange& range);
  // The range that contains [address, address + length), if any.
  const AddressRange* find(std::uint64_t address, std::uint64_t length) const;
  const std::vector<AddressRange>& ranges() const { return ranges_; }

 private:
  std::string owner_;
  std::vector<AddressRange> ranges_;  // sorted by base
};

std::string hex(std::uint64_t value);

}  // namespace rsoc::models
