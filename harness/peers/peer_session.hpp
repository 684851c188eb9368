#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace h2d {

// What `run --peers` and `h2dbench peers` ask of the peer tools.
struct PeerRequest {
  std::optional<std::string> nvbandwidth;  // --nvbandwidth PATH; else found on PATH
  std::chrono::milliseconds limit{60000};  // each peer's bound, all its calls together
  std::vector<std::uint64_t> sizes;        // copy sizes (nvbandwidth: whole MiB)
  nlohmann::json report;                   // the run's report so far: what figures pair with
};

// Runs each peer found on this machine, one after another, each within `limit` (then killed),
// after printing what it will run and the bound. A peer that is missing, fails, hangs or prints
// something else costs one printed line and a run marked "failed"/"skipped" with its reason.
// Returns h2dbench.peers (peer_figure.hpp).
nlohmann::json run_peers(const PeerRequest& request);

}  // namespace h2d
