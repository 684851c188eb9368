#include "harness/report/sm_copy_reading.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "harness/core/byte_size.hpp"
#include "harness/core/number_text.hpp"
#include "harness/report/within_noise.hpp"

namespace h2d {
namespace {

constexpr char kSmKey[] = "/engine=sm";

struct Group {
  std::vector<std::pair<std::size_t, std::string>> wins;  // bytes, their name
  std::size_t sizes = 0;
  double best_ratio = 0;
  double blocks = 0;
};

// The metric's ratio of `sm` over `ce`, oriented so above 1 is better.
double gain(const ReportCase& sm, const ReportCase& ce, const PrimaryMetric& metric) {
  const double a = sm.median(metric.name);
  const double b = ce.median(metric.name);
  if (a <= 0 || b <= 0) {
    return 0;
  }
  return metric.better == Better::higher ? a / b : b / a;
}

}  // namespace

std::vector<std::string> sm_copy_readings(const std::vector<const ReportCase*>& cases,
                                          const PrimaryMetric& metric) {
  std::map<std::string, const ReportCase*> by_name;
  for (const ReportCase* c : cases) {
    by_name.emplace(c->name, c);
  }
  std::map<std::string, Group> groups;  // "dir=h2d kind=pinned"
  for (const ReportCase* sm : cases) {
    const auto at = sm->name.find(kSmKey);
    if (at == std::string::npos || !sm->has(metric.name)) {
      continue;
    }
    std::string twin_name = sm->name;
    twin_name.erase(at, sizeof kSmKey - 1);
    const auto twin = by_name.find(twin_name);
    if (twin == by_name.end() || !twin->second->has(metric.name)) {
      continue;
    }
    Group& group =
        groups[fmt::format("dir={} kind={}", sm->parsed.get("dir"), sm->parsed.get("kind"))];
    ++group.sizes;
    const double ratio = gain(*sm, *twin->second, metric);
    if (ratio > 1 && !within_noise(*sm, *twin->second, metric)) {
      const std::string size = sm->parsed.get("bytes");
      std::size_t bytes = 0;
      try {  // a report from elsewhere: a size that does not parse is listed last
        bytes = parse_bytes(size);
      } catch (const std::invalid_argument&) {
        bytes = static_cast<std::size_t>(-1);
      }
      group.wins.emplace_back(bytes, size);
      group.best_ratio = std::max(group.best_ratio, ratio);
      group.blocks = std::max(group.blocks, sm->find_median("sm_copy_blocks").value_or(0));
    }
  }
  std::vector<std::string> lines;
  for (auto& [where, group] : groups) {
    if (group.wins.empty()) {
      lines.push_back(fmt::format(
          "engine=sm {}: the copy engine is as fast or faster at {}", where,
          group.sizes == 1 ? std::string("its size") : fmt::format("all {} sizes", group.sizes)));
      continue;
    }
    std::sort(group.wins.begin(), group.wins.end());
    std::string sizes;
    for (const auto& win : group.wins) {
      sizes += (sizes.empty() ? "" : ", ") + win.second;
    }
    const std::size_t others = group.sizes - group.wins.size();
    lines.push_back(fmt::format(
        "engine=sm {}: faster than the copy engine at {} (up to {}), holding {:.0f} SMs while it "
        "copies{}",
        where, sizes, times_text(group.best_ratio), group.blocks,
        others == 0 ? std::string()
                    : fmt::format("; the copy engine at the other {} size{}", others,
                                  others == 1 ? "" : "s")));
  }
  return lines;
}

}  // namespace h2d
