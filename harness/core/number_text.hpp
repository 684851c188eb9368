#pragma once

#include <string>

namespace h2d {

// A measurement as people read it: three significant digits without exponent for everyday
// magnitudes (0.0123, 1.23, 12.3, 123, 12345), an exponent only beyond 1e9 or below 1e-4.
std::string short_number(double value);

// A speed-up as "1.23x" (with an exponent beyond 1e4 or below 1e-3, as "6.8e+06x"). The ratio of
// extreme but finite values overflows to infinity: that is the bound ">1.8e+308x", not "infx";
// a ratio that is not a number is "n/a".
std::string times_text(double ratio);

// A percentage with `decimals` decimals, as "12.3%"; with an exponent from 1e4 ("1.5e+05%"),
// ">1.8e+308%" when it overflowed (a cv of extreme values), "n/a" when it is not a number.
std::string percent_text(double pct, int decimals);

}  // namespace h2d
