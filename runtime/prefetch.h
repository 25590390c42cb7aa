#pragma once
// Configuration prefetching (scenario section runtime.prefetch): which core the runtime expects each
// application to ask for next, and the prefetcher process that loads it into a slot ahead of the request.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/name_table.h"
#include "models/statistics.h"
#include "runtime/functionality.h"
#include "runtime/request_record.h"
#include "runtime/scheduler.h"
#include "runtime/slot_broker.h"

namespace rsoc::runtime {

// Configuration prefetching (runtime.prefetch): when the port is idle and a slot can take it without evicting
// a core in use, the runtime loads the core it expects an application to ask for next. Predictors: none; hint
// (each application declares its next functionality, as a compiler-inserted hint would: `hints`, by
// application); history (the most frequent successor of the application's last functionality, learned
// online; ties: the first in the catalog order of functionalities).
enum class Predictor { kNone, kHint, kHistory };
inline constexpr models::NameTable<Predictor, 3> kPredictorNames{
    {{{Predictor::kNone, "none"}, {Predictor::kHint, "hint"}, {Predictor::kHistory, "history"}}}};

struct PrefetchParams {
  Predictor predictor = Predictor::kNone;
  int priority = 5;                            // of the prefetcher process
  std::map<std::string, Functionality> hints;  // hint: what each application asks for after a request
  std::map<std::string, Functionality> first;  // hint: what each application asks for first
};

// The prefetcher: predicts each application's next functionality (until its next request) and, in its own
// process (run()), configures the core of a prediction through the slot broker's background configurations:
// in cancellable pieces, never while a request waits for a slot or the port, never over a core in use or one
// another application is predicted to ask for. A request that takes a prefetched core tells it (take()): the
// configuration time it hid counts as useful, a prefetched core evicted or configured over unused as wasted.
// Timing contract: predicting takes no simulated time; a prefetch costs what the configuration does.
class Prefetcher {
 public:
  Prefetcher(const PrefetchParams& params, SlotBroker& slots) : params_(params), slots_(slots) {}

  bool on() const { return params_.predictor != Predictor::kNone; }
  // The body of the prefetcher process: waits for a prediction it can act on, configures its core, and so
  // on; never returns.
  void run(Process& p);
  // `app` asks for something: its prediction is spent.
  void forget(const std::string& app) { predicted_.erase(app); }
  // `app` asked for `f`: learns and predicts its next request.
  void predict(const std::string& app, Functionality f);
  // A request takes slot `s` (`configure`: to configure it): a prefetched core there was useful (its whole
  // configuration hidden, or the part done when the request `overtook` it in progress), or wasted.
  void take(std::size_t s, bool configure, const std::optional<sc_core::sc_time>& overtook, RequestRecord& r);
  // The port may be free: a prediction waiting for it may go.
  void wake() {
    if (on()) wakeup_.notify(sc_core::SC_ZERO_TIME);
  }
  // The idle cores were unloaded: nothing prefetched is left.
  void unload_idle() {
    for (auto& prefetched : prefetched_) prefetched.reset();
  }
  // The statistics of the `manager` group that concern prefetching (only when it is on).
  void statistics(models::StatGroup& g) const;

 private:
  struct Job {
    std::size_t slot = 0;
    int design = -1;
  };
  std::optional<Job> next() const;

  PrefetchParams params_;
  SlotBroker& slots_;
  std::map<std::string, Functionality> predicted_, last_;
  std::map<std::string, std::map<Functionality, std::map<Functionality, std::uint64_t>>> successors_;
  // The unused prefetched cores: the time their configuration took, by slot.
  std::vector<std::optional<sc_core::sc_time>> prefetched_;
  sc_core::sc_event wakeup_;
  std::uint64_t prefetches_ = 0, useful_ = 0, wasted_ = 0, cancelled_ = 0, failed_ = 0;
  sc_core::sc_time hidden_{sc_core::SC_ZERO_TIME};
};

}  // namespace rsoc::runtime
