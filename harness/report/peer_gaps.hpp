#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace h2d {

// For each peer figure (h2dbench.peers) whose case the report measured, one line setting ours
// beside theirs: "pinned H2D 64 MiB: 55.12 GB/s, nvbandwidth 55.42 (-0.5%)", the gap being ours
// relative to the peer's.
std::vector<std::string> peer_gap_lines(const nlohmann::json& report);

}  // namespace h2d
