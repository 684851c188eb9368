#include "harness/core/overlap.hpp"

#include <stdexcept>

namespace h2d {

double overlap_pct(double serial_seconds, double overlapped_seconds) {
  if (!(serial_seconds > 0) || !(overlapped_seconds > 0)) {
    throw std::invalid_argument("overlap_pct needs positive serial and overlapped times");
  }
  return (serial_seconds - overlapped_seconds) / serial_seconds * 100.0;
}

}  // namespace h2d
