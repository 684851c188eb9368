#include "harness/report/duplex_reading.hpp"

#include <fmt/format.h>

#include "harness/core/number_text.hpp"

namespace h2d {

std::optional<std::string> duplex_reading(const ReportCase& c) {
  const auto duplex = c.find_median("duplex_pct");
  const auto h2d = c.find_median("h2d_both_GB_per_s");
  const auto d2h = c.find_median("d2h_both_GB_per_s");
  const auto h2d_alone = c.find_median("h2d_alone_GB_per_s");
  const auto d2h_alone = c.find_median("d2h_alone_GB_per_s");
  if (!duplex || !h2d || !d2h || !h2d_alone || !d2h_alone) {
    return std::nullopt;
  }
  std::string text = fmt::format("H2D {} + D2H {} GB/s at once, {} of the two alone ({} + {})",
                                 short_number(*h2d), short_number(*d2h), percent_text(*duplex, 0),
                                 short_number(*h2d_alone), short_number(*d2h_alone));
  if (const auto engines = c.find_median("copy_engines"); engines && *engines == 1) {
    text += ": this GPU has one copy engine, so the two directions take turns on it";
  }
  return text;
}

}  // namespace h2d
