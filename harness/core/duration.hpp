#pragma once

#include <string_view>

namespace h2d {

// The longest duration any option takes: a soak of "1e20s" is a typo, not a plan.
constexpr double kMaxDurationS = 30 * 24 * 3600.0;
// The shortest stall timeout: a batch of a real pipeline can take hundreds of milliseconds on a
// loaded (or sanitized) host, and a watchdog of 1 ms reports stalls that are not there.
constexpr double kMinWatchdogS = 1.0;

// Parses a positive duration of at most kMaxDurationS: "60", "60s", "1.5m", "2h", "500ms" (a
// bare number is seconds). Returns seconds. Throws std::invalid_argument saying what is valid.
double parse_duration_s(std::string_view text);

// A --watchdog value: a duration of at least kMinWatchdogS.
double parse_watchdog_s(std::string_view text);

}  // namespace h2d
