#include "harness/core/byte_size.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace h2d {
namespace {
constexpr std::array<std::pair<const char*, std::size_t>, 4> kUnits{{
    {"TiB", std::size_t{1} << 40},
    {"GiB", std::size_t{1} << 30},
    {"MiB", std::size_t{1} << 20},
    {"KiB", std::size_t{1} << 10},
}};
}  // namespace

std::string format_bytes(std::size_t bytes) {
  for (const auto& [name, scale] : kUnits) {
    if (bytes >= scale && bytes % scale == 0) {
      return fmt::format("{}{}", bytes / scale, name);
    }
  }
  for (const auto& [name, scale] : kUnits) {
    if (bytes >= scale) {
      return fmt::format("{:.1f}{}", static_cast<double>(bytes) / static_cast<double>(scale), name);
    }
  }
  return fmt::format("{}B", bytes);
}

std::size_t parse_bytes(std::string_view text) {
  const auto invalid = [&] {
    return std::invalid_argument(fmt::format(
        "'{}' is not a size; use bytes or a binary unit, e.g. 4096, 256KiB, 64MiB, 1GiB", text));
  };
  std::size_t digits_end = 0;
  while (digits_end < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits_end])) != 0 ||
          text[digits_end] == '.')) {
    ++digits_end;
  }
  if (digits_end == 0) {
    throw invalid();
  }
  double number = 0;
  try {
    std::size_t used = 0;
    number = std::stod(std::string(text.substr(0, digits_end)), &used);
    if (used != digits_end) {
      throw invalid();
    }
  } catch (const std::logic_error&) {
    throw invalid();
  }
  std::string unit;
  for (char c : text.substr(digits_end)) {
    unit += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  double scale = 1;
  if (unit.empty() || unit == "B") {
    scale = 1;
  } else {
    bool matched = false;
    for (const auto& [name, unit_scale] : kUnits) {
      std::string upper_name;
      for (const char* p = name; *p != '\0'; ++p) {
        upper_name += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
      }
      if (unit == upper_name || unit == upper_name.substr(0, 1) ||
          unit == upper_name.substr(0, 1) + "B") {
        scale = static_cast<double>(unit_scale);
        matched = true;
      }
    }
    if (!matched) {
      throw invalid();
    }
  }
  const double bytes = number * scale;
  if (!std::isfinite(bytes) || bytes < 1 || bytes > 1e18 || std::floor(bytes) != bytes) {
    throw invalid();
  }
  return static_cast<std::size_t>(bytes);
}

double gb_per_s(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0;
}

}  // namespace h2d
