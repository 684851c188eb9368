#include "harness/report/skipped_families.hpp"

#include <fmt/format.h>

#include <map>

namespace h2d {

std::vector<std::string> group_skipped_families(const std::vector<SkippedFamily>& skipped) {
  std::map<std::string, std::string> by_reason;
  for (const SkippedFamily& family : skipped) {
    std::string& names = by_reason[family.reason];
    names += (names.empty() ? "" : ", ") + family.family;
  }
  std::vector<std::string> lines;
  for (const auto& [reason, names] : by_reason) {
    lines.push_back(fmt::format("{} ({})", names, reason));
  }
  return lines;
}

}  // namespace h2d
