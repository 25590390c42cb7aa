#pragma once
// Runs the points of a prepared sweep on this machine: each point is `rsoc point DIR INDEX` in its own
// process (SystemC cannot be elaborated twice in one process), at most `jobs` at a time, its output in
// DIR/logs/. Progress goes to stderr: a bar redrawn in place on a terminal, plain lines otherwise.

#include <cstddef>
#include <filesystem>

#include "platform/sweep.h"

namespace rsoc::tools {

struct SweepRun {
  std::size_t run = 0, skipped = 0, failed = 0;
};

// Runs every point of [first, last) not yet finished (all of them unless the sweep was resumed; `last` beyond
// the sweep: to its end). Throws platform::SweepError when a point process cannot record its outcome (the
// others are stopped then), platform::Interrupted when rsoc or a point is interrupted, std::runtime_error
// when a point process cannot be started.
SweepRun run_points(const platform::SweepSpec& spec, const std::filesystem::path& dir, unsigned jobs,
                    std::size_t first = 0, std::size_t last = static_cast<std::size_t>(-1));

}  // namespace rsoc::tools
