#pragma once

#include <string>

#include "harness/report/comparison.hpp"

namespace h2d {

// The comparison as a Markdown document (for pull requests and wikis): machines, one table per
// family, the incomplete cases and the footnote.
std::string format_markdown(const Comparison& c);

}  // namespace h2d
