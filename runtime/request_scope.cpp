#include "runtime/request_scope.h"

#include <stdexcept>

namespace rsoc::runtime {

RequestScope::RequestScope(Process& p, RequestRecord& record)
    : p_(p),
      record_(record),
      entry_ps_(p.cpu().now().value()),
      at_entry_(p.spent()),
      held_at_entry_(p.held_ps()) {
  if (p.scheduler().measures_energy()) energy_at_entry_ = p.energy();
}

void RequestScope::start() {
  record_.start_ps = p_.cpu().now().value();
}

void RequestScope::verify(bool matched, const std::string& mismatch) {
  record_.verified = matched;
  if (!record_.verified) fail(mismatch);
}

void RequestScope::fail(const std::string& error) {
  if (!record_.ok) return;  // the first problem is the one reported
  record_.ok = false;
  record_.error = error;
}

RequestRecord& RequestScope::close() {
  return close(p_.cpu().now().value(), TimeUse::kCpuWait);
}

RequestRecord& RequestScope::close(std::uint64_t end_ps, TimeUse after) {
  const Process::Ledger now = p_.spent();
  constexpr auto kAsleep = static_cast<std::size_t>(TimeUse::kAsleep);
  if (now[kAsleep] != at_entry_[kAsleep])
    throw std::logic_error("request " + std::to_string(record_.id) + " waited without naming what for");
  const std::uint64_t process_ps = p_.cpu().now().value();
  if (end_ps < process_ps || entry_ps_ < record_.issue_ps)
    throw std::logic_error("request " + std::to_string(record_.id) +
                           " ends before its process or starts "
                           "before its issue");
  LatencyBreakdown& b = record_.breakdown;
  b = LatencyBreakdown{};
  for (std::size_t i = 0; i < kRequestTimeUses; ++i) b.ps[i] = now[i] - at_entry_[i];
  b[TimeUse::kCpuWait] += entry_ps_ - record_.issue_ps;
  b[after] += end_ps - process_ps;
  record_.end_ps = end_ps;
  record_.held_ps = p_.held_ps();
  for (std::size_t t = 0; t < held_at_entry_.size(); ++t) record_.held_ps[t] -= held_at_entry_[t];
  if (energy_at_entry_) {
    record_.energy = p_.energy();
    *record_.energy -= *energy_at_entry_;
  }
  return record_;
}

}  // namespace rsoc::runtime
