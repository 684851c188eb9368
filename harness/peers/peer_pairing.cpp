#include "harness/peers/peer_pairing.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/report/report_cases.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

std::optional<long long> number_param(const ParsedCaseName& name, const std::string& key) {
  const std::string text = name.get(key);
  try {
    std::size_t used = 0;
    const long long value = std::stoll(text, &used);
    return used == text.size() ? std::optional<long long>(value) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool is_plain_train_loop(const ParsedCaseName& name) {
  return name.family == "host/pipeline" && name.get("loop") == "train" &&
         name.get("decode").empty();
}

}  // namespace

std::string memory_case(const std::string& dir, const std::string& kind, const std::string& mode,
                        std::uint64_t bytes, const std::string& engine) {
  CaseName name("h2d/memory");
  name.add("dir", dir).add("kind", kind).add("mode", mode);
  if (engine != "ce") {  // absent for the copy engine, as the family names it
    name.add("engine", engine);
  }
  return name.add_bytes("bytes", static_cast<std::size_t>(bytes)).str();
}

std::vector<std::uint64_t> peer_copy_sizes(const nlohmann::json& report, std::size_t most) {
  std::set<std::uint64_t> sizes;
  for (const ReportCase& c : collect_cases(report)) {
    const ParsedCaseName& name = c.parsed;
    if (name.family != "h2d/memory" || name.get("kind") != "pinned" ||
        name.get("mode") != "async" || c.error) {
      continue;
    }
    try {
      const std::uint64_t bytes = parse_bytes(name.get("bytes"));
      if (bytes >= kMiB && bytes % kMiB == 0) {
        sizes.insert(bytes);
      }
    } catch (const std::exception&) {
      // a name without a size h2dbench wrote: not one to hand a peer
    }
  }
  std::vector<std::uint64_t> largest(sizes.begin(), sizes.end());
  if (largest.size() > most) {
    largest.erase(largest.begin(), largest.end() - static_cast<std::ptrdiff_t>(most));
  }
  return largest;
}

LoaderSettings peer_loader_settings(const nlohmann::json& report) {
  LoaderSettings settings;
  bool found = false;
  std::set<long long> workers{0};
  for (const ReportCase& c : collect_cases(report)) {
    if (!is_plain_train_loop(c.parsed)) {
      continue;
    }
    const auto batch = number_param(c.parsed, "batch");
    const auto sample_us = number_param(c.parsed, "sample_us");
    const auto compute_us = number_param(c.parsed, "compute_us");
    if (!found && batch && *batch > 0 && sample_us && *sample_us >= 0 && compute_us &&
        *compute_us >= 0) {
      settings.batch = static_cast<std::size_t>(*batch);
      settings.sample_us = *sample_us;
      settings.compute_us = *compute_us;
      found = true;
    }
    if (const auto count = number_param(c.parsed, "workers");
        count && *count > 0 && workers.size() < kMostLoaderWorkerCounts) {
      workers.insert(*count);
    }
  }
  if (workers.size() > 1) {
    settings.workers.assign(workers.begin(), workers.end());
  }
  return settings;
}

std::string loader_case(const nlohmann::json& report, int workers, bool pin_memory,
                        const LoaderSettings& settings) {
  std::string thread_match;
  for (const ReportCase& c : collect_cases(report)) {
    const ParsedCaseName& name = c.parsed;
    if (!is_plain_train_loop(name) || c.error ||
        name.get("pin") != (pin_memory ? "pin_thread" : "none") ||
        number_param(name, "workers") != workers ||
        number_param(name, "batch") != static_cast<long long>(settings.batch) ||
        number_param(name, "sample_us") != settings.sample_us || !name.get("pin_threads").empty()) {
      continue;
    }
    if (name.get("worker") == "process" && name.get("shm") != "reused") {
      return c.name;
    }
    if (name.get("worker").empty() || name.get("worker") == "thread") {
      thread_match = thread_match.empty() ? c.name : thread_match;
    }
  }
  return thread_match;
}

}  // namespace h2d
