#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/report/report_file.hpp"

namespace h2d {

// One figure a peer tool measured (h2dbench.peers: nvbandwidth, PyTorch), side by side: the same
// peer, test and size on every side that has it, so rigs are compared by the tools users trust
// too, beside h2dbench's own cases.
struct ComparedPeerFigure {
  std::string peer;  // "nvbandwidth"
  std::string test;  // "host_to_device_memcpy_ce"
  std::uint64_t bytes = 0;
  std::string unit;                          // "GB/s"
  std::vector<std::optional<double>> sides;  // per side: the median over its runs, if it has it
};

// The peer figures of every side, matched by peer, test, size and unit, in first-seen order.
std::vector<ComparedPeerFigure> compare_peer_figures(const std::vector<std::vector<Report>>& sides);

}  // namespace h2d
