#include "harness/core/latch_policy.hpp"

namespace h2d {

LatchDecision decide_latches(bool profile, std::optional<bool> launch_returned_while_spinning) {
  if (launch_returned_while_spinning && !*launch_returned_while_spinning) {
    return {false,
            "a kernel launch waits here until its kernel ends (CUDA_LAUNCH_BLOCKING=1, Nsight "
            "Compute or compute-sanitizer?), so no case is timed behind a latch: async copies are "
            "timed with the enqueue included (latched=0)"};
  }
  if (profile) {
    return {false,
            "profile mode: no case is timed behind a latch, so the timeline shows the copies as "
            "they are issued (latched=0)"};
  }
  return {};
}

bool latch_peer_copies(bool peer_access_everywhere, bool latches_on) {
  return peer_access_everywhere && latches_on;
}

Latching latching_of(const LatchDecision& decision) {
  return decision.enabled ? Latching::on : Latching::off;
}

}  // namespace h2d
