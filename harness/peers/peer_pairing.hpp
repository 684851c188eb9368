#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace h2d {

// Which h2dbench case a peer's figure stands beside, and what sizes and loader settings a run
// gives its peers to measure. Pure: reads case names, never measures.

// The case a copy of `bytes` in `dir` ("h2d", "d2h" or "both") from memory of `kind` in `mode` by
// `engine` ("ce" or "sm") is: h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB.
std::string memory_case(const std::string& dir, const std::string& kind, const std::string& mode,
                        std::uint64_t bytes, const std::string& engine = "ce");

// The sizes of the report's pinned async h2d/memory cases that nvbandwidth can take (whole MiB,
// at least 1 MiB): distinct, the `most` largest, ascending. nvbandwidth at many sizes costs
// minutes; the large sizes are where its figure is the link's.
std::vector<std::uint64_t> peer_copy_sizes(const nlohmann::json& report, std::size_t most);

// The DataLoader settings a host/pipeline case mirrors: batch size, CPU work per sample and the
// GPU step (as host time) of the report's first train loop, or the family's defaults; and the
// worker counts to measure: 0 (PyTorch's default) and those of the report's train loops, so each
// of them has a DataLoader beside it (at most kMostLoaderWorkerCounts in all).
inline constexpr std::size_t kMostLoaderWorkerCounts = 3;
struct LoaderSettings {
  std::size_t batch = 16;
  long long sample_us = 50;
  long long compute_us = 300;
  std::vector<long long> workers{0, 4};
};
LoaderSettings peer_loader_settings(const nlohmann::json& report);

// The host/pipeline train case that stands beside a DataLoader with `workers` and `pin_memory`
// at `settings` (worker processes preferred: PyTorch's are processes), or empty.
std::string loader_case(const nlohmann::json& report, int workers, bool pin_memory,
                        const LoaderSettings& settings);

}  // namespace h2d
