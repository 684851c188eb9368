#pragma once

#include <cstdint>

#include "sim/runtime/activity_log.hpp"  // clock_ns

namespace h2d::sim {

// Sleeps until the sim clock reads `deadline_ns`: pacing sleeps rather than spins, so a modelled
// copy costs no CPU and two cores carry many streams.
void sleep_until_ns(std::uint64_t deadline_ns);

}  // namespace h2d::sim
