#include "harness/report/ring_reading.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/core/byte_size.hpp"
#include "harness/core/number_text.hpp"

namespace h2d {

RingLimit ring_limit(double fill_pct, double wait_pct) {
  const double handoff_pct = std::max(0.0, 100 - fill_pct - wait_pct);
  if (fill_pct >= wait_pct && fill_pct >= handoff_pct) {
    return RingLimit::host_copy;
  }
  return wait_pct >= handoff_pct ? RingLimit::bus : RingLimit::handoff;
}

std::optional<std::string> ring_reading(const ReportCase& c) {
  const auto fill = c.find_median("fill_pct");
  const auto wait = c.find_median("wait_pct");
  if (!fill || !wait) {
    return std::nullopt;
  }
  std::string text;
  switch (ring_limit(*fill, *wait)) {
    case RingLimit::host_copy:
      text =
          fmt::format("the ring was bound by its host copy (threads filling slots {} of the time)",
                      percent_text(*fill, 0));
      break;
    case RingLimit::bus:
      text = fmt::format("the ring was bound by the bus (the host waited for slots {} of the time)",
                         percent_text(*wait, 0));
      break;
    case RingLimit::handoff:
      text = fmt::format(
          "the ring was bound by hand-off ({} of its time between fills and copies: larger chunks "
          "would help)",
          percent_text(std::max(0.0, 100 - *fill - *wait), 0));
      break;
  }
  const auto calibration = c.find_median("calibration_ms");
  const auto threads = c.find_median("threads");
  const auto chunk = c.find_median("chunk_bytes");
  const auto depth = c.find_median("depth");
  if (calibration && threads && chunk && depth) {
    text += fmt::format(", tuned in {} ms to threads={:.0f} chunk={} depth={:.0f}",
                        short_number(*calibration), *threads,
                        format_bytes(static_cast<std::size_t>(*chunk)), *depth);
  }
  return text;
}

}  // namespace h2d
