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
  const AddressRange* find(std::uint64_t address, std::uint64_t length) const {
    if (last_ < ranges_.size() && contains(ranges_[last_], address, length)) return &ranges_[last_];
    return search(address, length);
  }
  const std::vector<AddressRange>& ranges() const { return ranges_; }

 private:
  static bool contains(const AddressRange& r, std::uint64_t address, std::uint64_t length) {
    return address >= r.base && address < r.end() && length <= r.end() - address;
  }
  const AddressRange* search(std::uint64_t address, std::uint64_t length) const;

  std::string owner_;
  std::vector<AddressRange> ranges_;  // sorted by base
  // Indices of the two ranges found last, tried first: accesses come in runs to one device, or alternate
  // between two (a copy loop).
  mutable std::size_t last_ = 0, previous_ = 0;
};

std::string hex(std::uint64_t value);

}  // namespace rsoc::models
