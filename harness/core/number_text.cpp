#include "harness/core/number_text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace h2d {

std::string short_number(double value) {
  const double magnitude = std::abs(value);
  if (!std::isfinite(value)) {
    return fmt::format("{}", value);
  }
  if (magnitude == 0) {
    return "0";
  }
  if (magnitude >= 1e9 || magnitude < 1e-4) {
    return fmt::format("{:.3g}", value);
  }
  if (magnitude >= 100) {
    return fmt::format("{:.0f}", value);
  }
  if (magnitude >= 10) {
    return fmt::format("{:.1f}", value);
  }
  if (magnitude >= 1) {
    return fmt::format("{:.2f}", value);
  }
  return fmt::format("{:.3g}", value);
}

namespace {

// A ratio or percentage of extreme but finite values overflows to infinity: say the bound.
const std::string kBeyondDouble = fmt::format("{:.2g}", std::numeric_limits<double>::max());

}  // namespace

std::string times_text(double ratio) {
  if (std::isnan(ratio)) {
    return "n/a";
  }
  if (std::isinf(ratio)) {
    return (ratio > 0 ? ">" : "<-") + kBeyondDouble + "x";
  }
  if (ratio >= 1e4 || (ratio > 0 && ratio < 1e-3)) {
    return fmt::format("{:.3g}x", ratio);  // a table column, not 300 digits
  }
  return fmt::format(ratio >= 10 ? "{:.1f}x" : "{:.2f}x", ratio);
}

std::string percent_text(double pct, int decimals) {
  if (std::isnan(pct)) {
    return "n/a";
  }
  if (std::isinf(pct)) {
    return (pct > 0 ? ">" : "<-") + kBeyondDouble + "%";
  }
  if (std::abs(pct) >= 1e4) {
    return fmt::format("{:.3g}%", pct);
  }
  return fmt::format("{:.{}f}%", pct, decimals);
}

}  // namespace h2d
