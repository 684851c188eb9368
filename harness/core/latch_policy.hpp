#pragma once

#include <optional>
#include <string>

namespace h2d {

// Whether a run times its cases behind stream latches (README, "How cases are measured"), decided
// once at startup. A latch works only when its launch returns while its kernel still spins: under
// CUDA_LAUNCH_BLOCKING=1, Nsight Compute or compute-sanitizer the launch returns when the kernel
// ends, which waits for a release the host never reaches, so every latched case would stall until
// the latch's timeout and fail. --profile runs without latches too: a profiler's timeline should
// show the copies as the program issues them, and any profiler may serialize launches.
struct LatchDecision {
  bool enabled = true;
  std::string reason;  // why they are off (one line, for the terminal and the report); "" if on
};

// What a run's decision means for each latch its cases make (CaseContext::latching): on, a latch
// holds its stream; off, it queues nothing and whatever would have waited runs as it is enqueued.
enum class Latching { on, off };

Latching latching_of(const LatchDecision& decision);

// `profile`: --profile or --trace. `launch_returned_while_spinning`: the startup probe's answer,
// nullopt where nothing was probed (no GPU selected).
LatchDecision decide_latches(bool profile, std::optional<bool> launch_returned_while_spinning);

// multi/scatter via GPU 0: without peer access the driver stages each peer copy through host
// memory and the call holds the host thread, which then never reaches the latch's release. Only
// a route with peer access in every direction it uses may wait behind a latch.
bool latch_peer_copies(bool peer_access_everywhere, bool latches_on);

}  // namespace h2d
