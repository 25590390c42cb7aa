#include "models/address_map.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace rsoc::models {

std::string hex(std::uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

static std::string describe(const AddressRange& r) {
  return "\"" + r.name + "\" [" + hex(r.base) + ", " + hex(r.end()) + ")";
}

void AddressMap::add(const AddressRange& range) {
  if (range.size == 0) throw ElaborationError(owner_ + ": device " + describe(range) + " has size 0");
  if (range.base + range.size < range.base)
    throw ElaborationError(owner_ + ": device \"" + range.name + "\" wraps around the address space");
  for (const auto& r : ranges_) {
    if (range.base < r.end() && r.base < range.end())
      throw ElaborationError(owner_ + ": device " + describe(range) + " overlaps device " + describe(r));
  }
  auto pos = std::lower_bound(ranges_.begin(), ranges_.end(), range,
                              [](const AddressRange& a, const AddressRange& b) { return a.base < b.base; });
  ranges_.insert(pos, range);
}

const AddressRange* AddressMap::search(std::uint64_t address, std::uint64_t length) const {
  if (previous_ < ranges_.size() && contains(ranges_[previous_], address, length)) {
    std::swap(last_, previous_);
    return &ranges_[last_];
  }
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                             [](std::uint64_t a, const AddressRange& r) { return a < r.base; });
  if (it == ranges_.begin()) return nullptr;
  --it;
  if (!contains(*it, address, length)) return nullptr;
  previous_ = last_;
  last_ = static_cast<std::size_t>(it - ranges_.begin());
  return &*it;
}

}  // namespace rsoc::models
