#pragma once

#include <cstddef>
#include <vector>

#include "harness/core/preset.hpp"
#include "harness/strategy/bounce_ring.hpp"

namespace h2d {

// The sweeps of the transfer-strategy families (h2d/streams, h2d/staging, h2d/pin_cost,
// h2d/zero_copy, host/staging), by preset. Pure, so what each preset runs is tested anywhere.

// h2d/streams: a transfer split into kStreamChunks chunks dealt over K streams.
inline constexpr std::size_t kStreamChunks = 16;
std::vector<std::size_t> stream_counts(Preset preset);  // quick 1, 4; else 1, 2, 4, 8, 16
std::vector<std::size_t> streams_sizes(Preset preset);

// h2d/staging: transfer sizes and bounce-ring shapes (chunk C, depth D, host threads T).
std::vector<std::size_t> staging_sizes(Preset preset);
std::vector<BounceRingConfig> ring_configs(Preset preset, std::size_t cores);
// A ring shape is worth running for a size when the transfer makes at least two chunks (one chunk
// cannot overlap a fill with a copy).
bool ring_fits(const BounceRingConfig& config, std::size_t bytes);

// h2d/pin_cost: sizes pinned outright, and the requests served by a power-of-two caching allocator
// (1.5x a power of two, the shape that shows the rounding: a third more pinned than asked).
std::vector<std::size_t> pin_cost_sizes(Preset preset);
std::vector<std::size_t> cached_request_sizes(Preset preset);

// h2d/zero_copy: small transfers (ids, small tuple members) up to where explicit copies win.
std::vector<std::size_t> zero_copy_sizes(Preset preset);

// host/staging: the host half of a bounce ring, without a GPU.
struct HostStagingPoint {
  std::size_t bytes = 0;
  std::size_t chunk_bytes = 0;
  std::size_t depth = 2;
  std::size_t threads = 1;
};
std::vector<HostStagingPoint> host_staging_grid(Preset preset, std::size_t cores);

}  // namespace h2d
