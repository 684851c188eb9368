#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace h2d {

// One figure a peer tool measured, with what it takes to reproduce it and the h2dbench case it
// stands beside (empty when no case measures the same thing).
struct PeerFigure {
  std::string peer;         // "nvbandwidth", "pytorch"
  std::string version;      // the peer's own ("v0.8", "2.11.0+cu130")
  std::string command;      // the command line that measured it
  std::string test;         // the peer's name for it ("host_to_device_memcpy_ce")
  std::uint64_t bytes = 0;  // bytes a copy moved; 0 when the figure is not of one size
  double value = 0;
  std::string unit;        // "GB/s", "samples/s"
  std::string pairs_with;  // an h2dbench case name
  // The counter of that case holding the same figure; empty: the unit's rate (GB_per_s,
  // samples_per_s). nvbandwidth's bidirectional tests pair with one direction of dir=both.
  std::string pairs_counter;
};

// One run of a peer program: what it was, how it ended, and the figures it gave.
struct PeerRun {
  std::string peer;
  std::string command;
  std::string status;  // "measured", "failed", "skipped"
  std::string reason;  // why it failed or was skipped
  double elapsed_s = 0;
  std::vector<PeerFigure> figures;
};

// h2dbench.peers: {"time_limit_s", "runs": [...without figures], "figures": [...]}.
nlohmann::json peers_to_json(const std::vector<PeerRun>& runs, double time_limit_s);

// The figures of a report's h2dbench.peers (those lacking a value or a unit are left out:
// reports are untrusted input).
std::vector<PeerFigure> peer_figures_from_report(const nlohmann::json& report);

}  // namespace h2d
