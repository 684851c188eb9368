#pragma once

namespace h2d {

// How much of the serial time (the phases measured one after another) running them concurrently
// saved, in percent of the serial time: 0 means no overlap, 50 means two equal phases fully hidden
// behind each other. Negative when the concurrent run was slower than the phases in series (it is
// reported, not clamped). Throws std::invalid_argument unless both times are positive. Pure.
double overlap_pct(double serial_seconds, double overlapped_seconds);

}  // namespace h2d
