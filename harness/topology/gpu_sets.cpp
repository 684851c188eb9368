#include "harness/topology/gpu_sets.hpp"

#include <algorithm>
#include <set>

namespace h2d {
namespace {

void add_set(std::vector<GpuSet>& sets, const std::string& kind, std::vector<int> ordinals) {
  std::sort(ordinals.begin(), ordinals.end());
  ordinals.erase(std::unique(ordinals.begin(), ordinals.end()), ordinals.end());
  if (ordinals.empty()) {
    return;
  }
  for (const GpuSet& existing : sets) {
    if (existing.ordinals == ordinals) {
      return;
    }
  }
  sets.push_back({kind, std::move(ordinals)});
}

}  // namespace

std::vector<GpuSet> concurrent_gpu_sets(const Topology& topology,
                                        const std::vector<int>& selected) {
  std::vector<GpuSet> sets;
  for (std::size_t k = 1; k <= selected.size(); ++k) {
    add_set(sets, "first", std::vector<int>(selected.begin(), selected.begin() + k));
  }
  const std::set<int> chosen(selected.begin(), selected.end());
  for (const UplinkGroup& group : topology.uplink_groups) {
    std::vector<int> members;
    for (int index : group.gpus) {
      const int ordinal = topology.gpus.at(static_cast<std::size_t>(index)).cuda_ordinal;
      if (ordinal >= 0 && chosen.count(ordinal) > 0) {
        members.push_back(ordinal);
      }
    }
    if (members.size() >= 2) {
      add_set(sets, "uplink", members);
    }
  }
  std::vector<int> spread;
  std::set<int> groups_taken;
  for (int ordinal : std::vector<int>(chosen.begin(), chosen.end())) {
    const GpuTopology* gpu = topology.gpu_by_ordinal(ordinal);
    if (gpu == nullptr || gpu->uplink_groups.empty()) {
      spread.push_back(ordinal);
    } else if (groups_taken.insert(gpu->uplink_groups.front()).second) {
      spread.push_back(ordinal);
    }
  }
  if (spread.size() >= 2 && !topology.uplink_groups.empty()) {
    add_set(sets, "spread", spread);
  }
  return sets;
}

std::string ordinal_list(const std::vector<int>& ordinals) {
  std::string list;
  for (int ordinal : ordinals) {
    list += (list.empty() ? "" : ",") + std::to_string(ordinal);
  }
  return list;
}

}  // namespace h2d
