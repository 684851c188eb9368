#include "harness/topology/link_annotation.hpp"

#include <fmt/format.h>

#include <regex>
#include <stdexcept>

#include "harness/core/case_name.hpp"
#include "harness/core/family_axes.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/topology/topology_report.hpp"

namespace h2d {
namespace {

std::vector<int> parse_ordinals(const std::string& key, const std::string& value) {
  std::vector<int> ordinals;
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = value.find(',', start);
    const std::string item =
        value.substr(start, comma == std::string::npos ? comma : comma - start);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos) {
      throw std::invalid_argument(
          fmt::format("case parameter {}='{}' is not a list of GPU ordinals", key, value));
    }
    ordinals.push_back(std::stoi(item));
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return ordinals;
}

}  // namespace

std::vector<int> case_gpus(const std::string& run_name, const std::vector<int>& selected_devices) {
  const ParsedCaseName parsed = parse_case_name(run_name);
  for (const char* key : {"gpus", "gpu"}) {
    const std::string value = parsed.get(key);
    if (!value.empty()) {
      return parse_ordinals(key, value);
    }
  }
  if (selected_devices.empty()) {
    return {};
  }
  return {selected_devices.front()};
}

double ceiling_for_gpus(const Topology& topology, const std::vector<int>& ordinals) {
  if (ordinals.empty()) {
    return 0;
  }
  std::vector<int> indices;
  for (int ordinal : ordinals) {
    const GpuTopology* gpu = topology.gpu_by_ordinal(ordinal);
    if (gpu == nullptr) {
      return 0;
    }
    indices.push_back(gpu->index);
  }
  return concurrent_ceiling(topology, indices).value_or(0.0);
}

std::size_t annotate_link_pct(nlohmann::json& report, const Topology& topology,
                              const std::vector<int>& selected_devices) {
  // <prefix>GB_per_s -> <prefix>link_pct; a gpu<N>_ (or gpu<N>_d2h_) prefix is GPU N's own figure.
  static const std::regex bandwidth(R"((.*_)?GB_per_s)");
  static const std::regex per_gpu(R"(gpu(\d+)_(d2h_)?)");
  std::size_t added = 0;
  if (!report.contains("benchmarks") || !report["benchmarks"].is_array()) {
    return added;
  }
  for (auto& entry : report["benchmarks"]) {
    if (!entry.is_object() || entry.value("error_occurred", false) ||
        entry.value("aggregate_name", std::string()) == "cv") {
      continue;
    }
    const std::string name = entry.value("run_name", entry.value("name", std::string()));
    const FamilyAxes* declared = find_declared_family(parse_case_name(name).family);
    if (declared == nullptr || !declared->link_bound) {
      continue;
    }
    std::vector<int> gpus;
    try {
      gpus = case_gpus(name, selected_devices);
    } catch (const std::invalid_argument&) {
      continue;  // a family that names GPUs its own way: no figure is better than a wrong one
    }
    std::vector<std::pair<std::string, double>> additions;
    for (const auto& [key, value] : entry.items()) {
      if (!value.is_number()) {
        continue;
      }
      std::smatch match;
      if (!std::regex_match(key, match, bandwidth)) {
        continue;
      }
      const std::string prefix = match[1].str();
      const std::string pct_key = prefix + "link_pct";
      std::smatch gpu;
      double ceiling = std::regex_match(prefix, gpu, per_gpu)
                           ? ceiling_for_gpus(topology, {std::stoi(gpu[1].str())})
                           : ceiling_for_gpus(topology, gpus);
      // Both directions at once (dir=both): PCIe carries each direction on its own lanes, so the
      // sum of the two has twice one direction's ceiling; each direction's own figure has one.
      if ((prefix.empty() || prefix == "sum_gpu_") && parse_case_name(name).get("dir") == "both") {
        ceiling *= 2;
      }
      if (ceiling > 0 && !entry.contains(pct_key)) {
        additions.emplace_back(pct_key, link_pct(value.get<double>(), ceiling));
      }
    }
    for (const auto& [key, pct] : additions) {
      entry[key] = pct;
      ++added;
    }
  }
  return added;
}

}  // namespace h2d
