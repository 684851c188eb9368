#include "harness/report/machine_info.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace h2d {
namespace {

const std::string kUnknown = "-";
constexpr std::size_t kMaxGpuKinds = 8;

std::string text_of(const nlohmann::json& value) {
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_number_integer()) {
    return std::to_string(value.get<long long>());
  }
  if (value.is_number()) {
    return fmt::format("{:g}", value.get<double>());
  }
  if (value.is_boolean()) {
    return value.get<bool>() ? "yes" : "no";
  }
  return {};
}

// The text at object[key], or empty.
std::string field(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) {
    return {};
  }
  return text_of(object[key]);
}

std::string first_field(const nlohmann::json& object, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    std::string value = field(object, key);
    if (!value.empty()) {
      return value;
    }
  }
  return {};
}

std::string or_unknown(std::string text) {
  return text.empty() ? kUnknown : text;
}

const nlohmann::json& child(const nlohmann::json& object, const char* key) {
  static const nlohmann::json empty = nlohmann::json::object();
  if (object.is_object() && object.contains(key)) {
    return object[key];
  }
  return empty;
}

std::string describe_gpus(const nlohmann::json& context) {
  const nlohmann::json& gpus = child(context, "gpus");
  if (!gpus.is_array() || gpus.empty()) {
    const std::string reason = field(child(context, "cuda"), "unavailable_reason");
    // The first clause of the driver's reason is enough for a header cell.
    const std::string brief = reason.substr(0, std::min(reason.find(" ("), reason.find(';')));
    return brief.empty() ? std::string("none") : "none (" + brief.substr(0, 48) + ")";
  }
  // Identical GPUs collapse to "Nx name", in first-seen order; a header cell names a few kinds.
  std::vector<std::pair<std::string, int>> counts;
  std::unordered_map<std::string, std::size_t> index;
  for (const auto& gpu : gpus) {
    std::string name = or_unknown(field(gpu, "name"));
    const std::string cc = field(gpu, "compute_capability");
    if (!cc.empty()) {
      name += " (cc " + cc + ")";
    }
    const auto [at, inserted] = index.emplace(name, counts.size());
    if (inserted) {
      counts.emplace_back(name, 1);
    } else {
      ++counts[at->second].second;
    }
  }
  std::string text;
  for (std::size_t i = 0; i < counts.size() && i < kMaxGpuKinds; ++i) {
    const auto& [name, count] = counts[i];
    text += (text.empty() ? "" : ", ") + (count > 1 ? fmt::format("{}x {}", count, name) : name);
  }
  if (counts.size() > kMaxGpuKinds) {
    text += fmt::format(" and {} more kinds", counts.size() - kMaxGpuKinds);
  }
  return text;
}

std::string describe_links(const nlohmann::json& context) {
  // The topology object (when the run wrote one) wins; per-GPU link fields are the fallback.
  std::vector<std::string> links;
  for (const nlohmann::json* list :
       {&child(child(context, "topology"), "gpus"), &child(context, "gpus")}) {
    if (!list->is_array()) {
      continue;
    }
    for (const auto& gpu : *list) {
      const std::string link = describe_link(gpu);
      if (!link.empty()) {
        links.push_back(link);
      }
    }
    if (!links.empty()) {
      break;
    }
  }
  std::string text;
  std::string previous;
  for (const std::string& link : links) {
    if (link != previous) {
      text += (text.empty() ? "" : ", ") + link;
      previous = link;
    }
  }
  return text;
}

// A plain Google Benchmark report knows its host name and CPU count, nothing of GPUs or links.
MachineInfo plain_google_benchmark_machine(const nlohmann::json& report) {
  const std::string unknown = "unknown";
  const nlohmann::json& context = child(report, "context");
  MachineInfo info;
  info.hostname = field(context, "host_name").empty() ? unknown : field(context, "host_name");
  info.gpus = "unknown (not an h2dbench report)";
  info.link = info.driver = info.runtime = info.numa = info.memory = unknown;
  const std::string cpus = field(context, "num_cpus");
  info.cpu = cpus.empty() ? unknown : cpus + " CPUs";
  info.run = unknown;
  info.build = unknown;
  info.started = field(context, "date").empty() ? unknown : field(context, "date");
  return info;
}

}  // namespace

std::string describe_link(const nlohmann::json& gpu) {
  const nlohmann::json& link = child(gpu, "link");
  const nlohmann::json& pcie = child(gpu, "pcie");
  for (const nlohmann::json* object :
       {&child(link, "current"), &link, &child(pcie, "current"), &pcie, &gpu}) {
    const std::string generation =
        first_field(*object, {"generation", "gen", "current_generation", "current_gen",
                              "link_generation", "link_gen", "pcie_generation", "pcie_gen",
                              "current_link_gen", "current_link_generation"});
    const std::string width = first_field(
        *object, {"width", "current_width", "link_width", "pcie_width", "current_link_width"});
    if (!generation.empty() || !width.empty()) {
      std::string text = "PCIe";
      if (!generation.empty()) {
        text += " gen" + generation;
      }
      if (!width.empty()) {
        text += " x" + width;
      }
      return text;
    }
  }
  return {};
}

MachineInfo describe_machine(const nlohmann::json& report) {
  if (!report.contains("h2dbench")) {
    return plain_google_benchmark_machine(report);
  }
  const nlohmann::json& context = child(report, "h2dbench");
  const nlohmann::json& host = child(context, "host");
  const nlohmann::json& cuda = child(context, "cuda");
  const nlohmann::json& run = child(context, "run");
  MachineInfo info;
  const std::string hostname = field(host, "hostname");
  info.hostname =
      or_unknown(hostname.empty() ? field(child(report, "context"), "host_name") : hostname);
  info.gpus = describe_gpus(context);
  info.link = or_unknown(describe_links(context));
  info.driver = or_unknown(field(cuda, "driver_version"));
  info.runtime = or_unknown(field(cuda, "runtime_version"));
  const std::string cpu = field(host, "cpu_model");
  const std::string cores = field(host, "cores");
  info.cpu = or_unknown(cpu.empty() ? cpu : cores.empty() ? cpu : cpu + ", " + cores + " cores");
  info.numa = or_unknown(field(host, "numa_nodes"));
  if (host.contains("memory_bytes") && host["memory_bytes"].is_number() &&
      host["memory_bytes"].get<double>() > 0) {
    info.memory = fmt::format("{:.1f} GiB", host["memory_bytes"].get<double>() / (1u << 30));
  } else {
    info.memory = kUnknown;
  }
  info.run = or_unknown(field(run, "preset"));
  const std::string version = field(context, "version");
  const std::string sha = field(context, "git_sha");
  info.build = or_unknown(version.empty() ? sha : sha.empty() ? version : version + " " + sha);
  info.started = or_unknown(field(run, "started_utc"));
  return info;
}

}  // namespace h2d
