#pragma once
// The schema of a scenario file: every key, its type, unit, default, range and meaning. scenarios/README.md's
// key reference is generated from it (`rsoc schema --markdown`), and a test keeps the two equal.

#include "platform/schema.h"

namespace rsoc::platform {

const Schema& scenario_schema();

}  // namespace rsoc::platform
