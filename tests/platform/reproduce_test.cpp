// What `rsoc reproduce` prints after its table (platform/reproduce.h).
#include "platform/reproduce.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

// What `rsoc reproduce` ends with: the kinds in all, then per system the calibrated worst error and every
// predicted figure with a published value, worst first.
TEST(ReproduceSummary, SaysPerSystemHowFarToTrustIt) {
  using rsoc::platform::ReproducedFigure;
  const std::vector<ReproducedFigure> figures{
      {"soc", "crossover.aes128", "calibrated", 40.0, 40.0},
      {"soc", "throughput.aes128", "calibrated", 436.0, 434.77},
      {"soc", "software.aes128", "predicted", std::nullopt, 309.9},
      {"hsm", "sign_per_s.clients=2", "predicted", 8.0, 7.66},
      {"hsm", "sign_per_s.clients=1", "calibrated", 5.7, 5.68},
      {"hsm", "sign_per_s.clients=8", "predicted", 10.0, 9.0},
      {"hsm", "arm_ms", "derived", std::nullopt, 62.9},
  };
  EXPECT_EQ(rsoc::platform::reproduce_summary(figures),
            "7 figures: 3 calibrated, 3 predicted, 1 derived in all\n"
            "soc: 3 figures: 2 calibrated, 1 predicted, 0 derived\n"
            "  calibrated: worst error -0.28 % (throughput.aes128): the fit\n"
            "  predicted with a published value: 0\n"
            "hsm: 4 figures: 1 calibrated, 2 predicted, 1 derived\n"
            "  calibrated: worst error -0.35 % (sign_per_s.clients=1): the fit\n"
            "  predicted with a published value: 2, worst first:\n"
            "    sign_per_s.clients=8: 10 published, 9.000 simulated, -10.00 %\n"
            "    sign_per_s.clients=2: 8 published, 7.660 simulated, -4.25 %\n");
}
