#pragma once

#include <functional>

#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/event.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/stream.hpp"

namespace h2d {

// Times the work `enqueue` puts on `stream` (several different copies, a kernel, copies back)
// with events recorded before and after it, then synchronizes the stream, so the host may read
// anything the work wrote once this returns. `enqueue` may record further events of its own to
// split the span.
//
// With a latch the stream is blocked while `enqueue` runs, so the events time the GPU work alone
// and not the enqueueing; pass one only when every copy is from page-locked memory and the copies
// are few (see latchable() in harness/host/host_copy.hpp). Without one the span also holds whatever
// the host did between the calls, e.g. staging pageable copies, which is part of their cost.
// seconds: the span between the events; host_block_seconds: the time `enqueue` held the caller.
CopyTiming time_stream_work(const std::function<void()>& enqueue, StreamLatch* latch,
                            const Stream& stream, const Event& start, const Event& stop);

}  // namespace h2d
