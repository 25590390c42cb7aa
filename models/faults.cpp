#include "models/faults.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "models/splitmix.h"

namespace rsoc::models {

namespace {
constexpr std::uint64_t kNever = ~std::uint64_t{0};
}  // namespace

std::uint64_t fault_seed(std::uint64_t seed, const std::string& fault_class, const std::string& target) {
  std::uint64_t h = splitmix64(seed);
  for (const std::string* s : {&fault_class, &target}) {
    for (unsigned char c : *s) h = splitmix64(h ^ c);
    h = splitmix64(h ^ 0xFF);  // "ab"+"c" and "a"+"bc" differ
  }
  return h;
}

FaultStream::FaultStream(double probability, std::uint64_t seed) : probability_(probability), rng_(seed) {
  if (!(probability >= 0 && probability <= 1))
    throw std::invalid_argument("a fault probability must lie in [0, 1]");
  if (probability > 0 && probability < 1) log_miss_ = std::log1p(-probability);
  draw();
}

void FaultStream::draw() {
  if (probability_ <= 0) {
    left_ = kNever;
  } else if (probability_ >= 1) {
    left_ = 0;
  } else {
    // Chances before the next fault: geometric, floor(log(U) / log(1 - p)) for U uniform in (0, 1].
    const double u = 1.0 - std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
    const double k = std::floor(std::log(u) / log_miss_);
    left_ = k >= 1.8e19 ? kNever - 1 : static_cast<std::uint64_t>(k);
  }
}

void FaultStream::arm(const sc_core::sc_time& at) {
  windows_.insert(std::upper_bound(windows_.begin(), windows_.end(), at), at);
}

bool FaultStream::window_open(const sc_core::sc_time& now) {
  if (windows_.empty() || windows_.front() > now) return false;
  windows_.pop_front();
  return true;
}

bool FaultStream::chance(const sc_core::sc_time& now) {
  return first_fault(1, now) == 0;
}

std::uint64_t FaultStream::first_fault(std::uint64_t n, const sc_core::sc_time& now) {
  if (n == 0) return 0;
  if (window_open(now)) {
    ++faults_;
    return 0;
  }
  if (left_ == kNever) return n;
  if (left_ >= n) {
    left_ -= n;
    return n;
  }
  const std::uint64_t at = left_;
  ++faults_;
  draw();
  // The chances after it in this batch pass unseen (faults among them too): the stream goes on after them.
  std::uint64_t spent = n - at - 1;
  while (left_ != kNever && left_ < spent) {
    spent -= left_ + 1;
    draw();
  }
  if (left_ != kNever) left_ -= spent;
  return at;
}

}  // namespace rsoc::models
