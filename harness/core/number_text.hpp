#pragma once

#include <string>

namespace h2d {

// A measurement as people read it: three significant digits without exponent for everyday
// magnitudes (0.0123, 1.23, 12.3, 123, 12345), an exponent only beyond 1e9 or below 1e-4.
std::string short_number(double value);

// A speed-up as "1.23x" (with an exponent beyond 1e4 or below 1e-3, as "6.8e+06x").
std::string times_text(double ratio);

}  // namespace h2d
