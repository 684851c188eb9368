#pragma once

#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/event.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/stream.hpp"

namespace h2d {

// Both directions at once, nvbandwidth's bidirectional method: `timed` on `stream`, timed by
// events around it, while `opposite` (the other direction, each copy twice the bytes, so it still
// runs when the timed copies end) runs on `other`. The opposite copies wait on an event recorded
// behind the latch's hold of `stream`, so both directions start when the host releases it and the
// span covers the timed copies alone, under load. Page-locked memory only (a latch). Both streams
// are synchronized on return, so the host may read what either copied.
CopyTiming time_duplex(const CopyJob& timed, const CopyJob& opposite, StreamLatch& latch,
                       const Stream& stream, const Stream& other, const Event& gate,
                       const Event& start, const Event& stop);

}  // namespace h2d
