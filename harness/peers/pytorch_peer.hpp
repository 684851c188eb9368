#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/peers/bounded_process.hpp"
#include "harness/peers/peer_pairing.hpp"
#include "harness/peers/peer_session.hpp"
#include "harness/report/peer_figures.hpp"

namespace h2d {

// PyTorch as a peer: scripts/peers/pytorch_peer.py measures tensor.to('cuda') from pageable and
// pinned memory at the run's sizes and the DataLoader loop the host/pipeline cases mirror, and
// prints its figures as one JSON line.

// The script: $H2D_PYTORCH_PEER, else scripts/peers/pytorch_peer.py beside h2dbench (a bundle),
// else in the source tree h2dbench was built from.
std::string pytorch_peer_script();

// How many batches each DataLoader setting runs: enough for a steady rate, few enough for the
// bound.
constexpr int kPeerLoaderBatches = 60;

std::vector<std::string> pytorch_command(const std::string& python, const std::string& script,
                                         const std::vector<std::uint64_t>& sizes,
                                         const LoaderSettings& settings);

// The figures of one finished script run, each paired with its h2dbench case: pinned
// `.to('cuda', non_blocking=True)` with pinned async h2d/memory, pageable `.to('cuda')` with
// pageable sync h2d/memory, the DataLoader with its host/pipeline case in `report`.
PeerRun read_pytorch_run(const std::vector<std::string>& argv, const ProcessOutcome& outcome,
                         std::chrono::milliseconds limit, const nlohmann::json& report,
                         const LoaderSettings& settings);

// Runs the script when `python3 -c "import torch"` works, within request.limit (the import
// check included); else one "skipped" run with the reason.
void run_pytorch_peer(const PeerRequest& request, std::vector<PeerRun>& runs);

}  // namespace h2d
