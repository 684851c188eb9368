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
  std::chrono::milliseconds limit{60000};  // one bound for all the peers' calls together
  std::vector<std::uint64_t> sizes;        // copy sizes (nvbandwidth: whole MiB)
  nlohmann::json report;                   // the run's report so far: what figures pair with
  // The GPU the run measured (its first selected one): the peers see only it
  // (CUDA_VISIBLE_DEVICES), so nvbandwidth's sum and PyTorch's cuda:0 are that GPU's figures,
  // the ones its cases pair with. None: every GPU (`h2dbench peers`).
  std::optional<int> device;
};

// The environment the peers run with: CUDA_VISIBLE_DEVICES=<device> where the request names one.
std::vector<std::string> peer_environment(const PeerRequest& request);

// Runs each peer found on this machine, one after another, all within `limit` (a peer still
// running then is killed), after printing what it will run and the bound. A peer that is missing,
// fails, hangs or prints something else costs one printed line and a run marked "failed" or
// "skipped" with its reason; after a stop request (Ctrl-C) the running peer is killed and the
// rest are skipped. Returns h2dbench.peers (peer_figures.hpp).
nlohmann::json run_peers(const PeerRequest& request);

}  // namespace h2d
