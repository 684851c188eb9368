#pragma once

#include <cstddef>
#include <vector>

namespace h2d {

// One epoch's measured window: how many samples it delivered and in how long.
struct EpochSpan {
  std::size_t samples = 0;
  double window_s = 0;
};

// The loop's samples/s as the median of its epochs' rates: the figure whose interval the case
// reports (the stopping rule's interval is of the median epoch), so a slow epoch moves it no more
// than it moves the median. Total samples over total time, a mean, would sit 9% below the median
// rate when one epoch in ten takes twice as long, while its interval said ±0.3%. 0 without epochs.
double median_epoch_rate(const std::vector<EpochSpan>& epochs);

}  // namespace h2d
