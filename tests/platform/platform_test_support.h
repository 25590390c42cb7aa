#pragma once
// Helpers shared by the platform tests.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/stats.h"

namespace rsoc::test {

// The value of statistic `name` of `resource` in a run's stats (a test failure when there is none).
inline double stat(const std::vector<analysis::StatGroup>& groups, const std::string& resource,
                   const std::string& name) {
  for (const auto& g : groups)
    if (g.resource == resource)
      for (const auto& s : g.stats)
        if (s.name == name) return s.value;
  ADD_FAILURE() << resource << "." << name << " not found";
  return 0;
}

}  // namespace rsoc::test
