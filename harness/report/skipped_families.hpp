#pragma once

#include <string>
#include <vector>

namespace h2d {

// A family that did not run at all here, and why (e.g. no GPU).
struct SkippedFamily {
  std::string family;
  std::string reason;
};

// "h2d/batch, h2d/memory (no usable GPU: ...)": one line per distinct reason, sorted by reason,
// so a reason that many families share is said once.
std::vector<std::string> group_skipped_families(const std::vector<SkippedFamily>& skipped);

}  // namespace h2d
