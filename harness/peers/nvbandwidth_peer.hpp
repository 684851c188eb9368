#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/peers/bounded_process.hpp"
#include "harness/report/peer_figures.hpp"

namespace h2d {

// nvbandwidth (NVIDIA's copy-bandwidth tool) as a peer: its copy-engine tests, the ones that
// measure what h2dbench's pinned async h2d/memory cases do.
const std::vector<std::string>& nvbandwidth_tests();

// `PROGRAM -b MiB -t TEST...` for one size (nvbandwidth takes its buffer size in MiB).
std::vector<std::string> nvbandwidth_command(const std::string& program, std::uint64_t bytes);

// The figures of one finished nvbandwidth call at `bytes`, each paired with the pinned async
// h2d/memory case of its direction and size; a call that failed, was killed at `limit` or printed
// something else is a failed run with its reason.
PeerRun read_nvbandwidth_run(const std::vector<std::string>& argv, std::uint64_t bytes,
                             const ProcessOutcome& outcome, std::chrono::milliseconds limit);

}  // namespace h2d
