#pragma once
// Configuration prefetching (scenario section runtime.prefetch; the mechanism is the manager's,
// runtime/manager.h): which core the runtime expects each application to ask for next.

#include <map>
#include <string>

#include "models/name_table.h"
#include "runtime/functionality.h"

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

}  // namespace rsoc::runtime
