#include "harness/core/preset.hpp"

#include <fmt/format.h>

#include "harness/core/usage_error.hpp"

namespace h2d {

std::string_view to_string(Preset preset) {
  switch (preset) {
    case Preset::quick:
      return "quick";
    case Preset::standard:
      return "default";
    case Preset::full:
      return "full";
  }
  return "unknown";
}

Preset parse_preset(std::string_view name) {
  for (Preset preset : {Preset::quick, Preset::standard, Preset::full}) {
    if (to_string(preset) == name) {
      return preset;
    }
  }
  throw UsageError(
      fmt::format("--preset '{}' is not a preset (valid: quick, default, full)", name));
}

}  // namespace h2d
