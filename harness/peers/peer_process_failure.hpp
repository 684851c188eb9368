#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "harness/peers/bounded_process.hpp"

namespace h2d {

// Why a peer's run gave nothing to read ("exited with code 1: <its last line>", "killed after
// 60 s (its time bound)"), or nullopt when it exited 0.
std::optional<std::string> process_failure(const ProcessOutcome& outcome,
                                           std::chrono::milliseconds limit);

}  // namespace h2d
