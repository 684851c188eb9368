#pragma once

#include <optional>
#include <string>

#include "harness/report/report_cases.hpp"

namespace h2d {

// What both directions at once (h2d/memory dir=both) came to: "H2D 49.3 + D2H 51.1 GB/s at once,
// 91% of the two alone (55.1 + 57.0)"; with one copy engine (copy_engines 1) it adds that the
// directions take turns on it. nullopt for a case without duplex_pct.
std::optional<std::string> duplex_reading(const ReportCase& c);

}  // namespace h2d
