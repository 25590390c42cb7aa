#include "runtime/prefetch.h"

#include <algorithm>

#include "models/kernel_time.h"

namespace rsoc::runtime {

using sc_core::sc_time;

std::optional<Prefetcher::Job> Prefetcher::next() const {
  // Requests come first: none while one waits for a slot or the port.
  if (!slots_.background_allowed()) return std::nullopt;
  for (const auto& [app, f] : predicted_) {
    const CoreDesign* d = slots_.design_for(f);
    if (!d || slots_.table().resident(slots_.index_of(*d))) continue;
    const auto choice = slots_.table().choose(slots_.index_of(*d), d->bitstream_bytes, true);
    if (!choice || !choice->configure) continue;
    // Never over a core another application is predicted to ask for.
    bool needed = false;
    for (const auto& other : predicted_)
      if (const CoreDesign* o = slots_.design_for(other.second); o && slots_.index_of(*o) == choice->evicted)
        needed = true;
    if (!needed) return Job{choice->slot, slots_.index_of(*d)};
  }
  return std::nullopt;
}

void Prefetcher::predict(const std::string& app, Functionality f) {
  const auto last = last_.find(app);
  if (last != last_.end()) ++successors_[app][last->second][f];
  last_.insert_or_assign(app, f);
  if (params_.predictor == Predictor::kHint) {
    const auto hint = params_.hints.find(app);
    if (hint != params_.hints.end()) predicted_.insert_or_assign(app, hint->second);
  } else if (params_.predictor == Predictor::kHistory) {
    const auto& next = successors_[app][f];
    std::optional<Functionality> best;
    std::uint64_t most = 0;
    for (const auto& [g, n] : next)
      if (n > most) {  // ties: the first in functionality order
        best = g;
        most = n;
      }
    if (best) predicted_.insert_or_assign(app, *best);
  }
  wake();
}

void Prefetcher::take(std::size_t s, bool configure, const std::optional<sc_time>& overtook,
                      RequestRecord& r) {
  if (s >= prefetched_.size() || !prefetched_[s]) return;
  if (configure) {
    ++wasted_;  // evicted (or configured over) unused
  } else {
    ++useful_;
    const sc_time hidden = overtook ? std::min(*overtook, *prefetched_[s]) : *prefetched_[s];
    r.reconfig_hidden_ps = hidden.value();
    hidden_ += hidden;
  }
  prefetched_[s].reset();
}

void Prefetcher::run(Process& p) {
  prefetched_.resize(slots_.slots().size());
  // Hints are declared before an application runs: its first request is predicted from the start.
  if (params_.predictor == Predictor::kHint)
    for (const auto& [app, f] : params_.first) predicted_.insert_or_assign(app, f);
  for (bool first = true;; first = false) {
    if (!first || predicted_.empty()) p.wait_for(wakeup_);
    while (const auto job = next()) {
      if (prefetched_[job->slot]) ++wasted_;  // an unused prefetched core configured over
      prefetched_[job->slot].reset();
      ++prefetches_;
      std::string error;
      if (!slots_.configure_in_background(p, job->slot, job->design, prefetched_[job->slot], error))
        ++(error == "cancelled" ? cancelled_ : failed_);
    }
  }
}

void Prefetcher::statistics(models::StatGroup& g) const {
  if (!on()) return;
  g.add("prefetches", static_cast<double>(prefetches_), "count",
        "configurations the prefetcher started (runtime.prefetch)")
      .add("prefetches_useful", static_cast<double>(useful_), "count",
           "prefetched cores a request used before anything else")
      .add("prefetches_wasted", static_cast<double>(wasted_), "count",
           "prefetched cores evicted or configured over unused")
      .add("prefetches_cancelled", static_cast<double>(cancelled_), "count",
           "prefetches aborted because a request needed the port")
      .add("prefetches_failed", static_cast<double>(failed_), "count", "prefetches the port reported failed")
      .add("reconfiguration_hidden_ms", models::to_ms(hidden_), "ms",
           "configuration time prefetches hid from the requests that used their cores");
}

}  // namespace rsoc::runtime
