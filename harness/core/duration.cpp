#include "harness/core/duration.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace h2d {

double parse_duration_s(std::string_view text) {
  const auto invalid = [&] {
    return std::invalid_argument(fmt::format(
        "'{}' is not a duration (use a positive number with an optional unit: 500ms, 60s, 5m, 2h)",
        text));
  };
  const std::string word(text);
  if (word.empty() ||
      !(std::isdigit(static_cast<unsigned char>(word.front())) || word.front() == '.')) {
    throw invalid();
  }
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  const std::string unit(end);
  double scale = 0;
  if (unit.empty() || unit == "s") {
    scale = 1;
  } else if (unit == "ms") {
    scale = 1e-3;
  } else if (unit == "m" || unit == "min") {
    scale = 60;
  } else if (unit == "h") {
    scale = 3600;
  } else {
    throw invalid();
  }
  const double seconds = value * scale;
  if (!std::isfinite(seconds) || !(seconds > 0)) {
    throw invalid();
  }
  if (seconds > kMaxDurationS) {
    throw std::invalid_argument(
        fmt::format("'{}' is longer than {:g} days, the longest duration h2dbench takes", text,
                    kMaxDurationS / 86400));
  }
  return seconds;
}

double parse_watchdog_s(std::string_view text) {
  const double seconds = parse_duration_s(text);
  if (seconds < kMinWatchdogS) {
    throw std::invalid_argument(fmt::format(
        "'{}' is shorter than {:g} s, the shortest stall timeout that does not report healthy "
        "batches as stalls",
        text, kMinWatchdogS));
  }
  return seconds;
}

}  // namespace h2d
