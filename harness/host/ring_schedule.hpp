#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "harness/host/thread_team.hpp"

namespace h2d {

// One chunk of a transfer staged through a ring of bounce buffers ("slots").
struct RingChunk {
  std::size_t index = 0;
  std::size_t offset = 0;  // bytes from the start of the source
  std::size_t bytes = 0;
  std::size_t slot = 0;  // index % depth
};

// How a transfer of `total_bytes` goes through `depth` slots of `chunk_bytes`: chunk i is
// [i * chunk_bytes, ...) and uses slot i % depth, so chunk i may only be written into its slot once
// the copy of chunk i - depth has completed. Pure. Throws std::invalid_argument for zero arguments.
class RingSchedule {
 public:
  RingSchedule(std::size_t total_bytes, std::size_t chunk_bytes, std::size_t depth);

  std::size_t total_bytes() const { return total_bytes_; }
  std::size_t chunk_bytes() const { return chunk_bytes_; }
  std::size_t depth() const { return depth_; }
  std::size_t chunk_count() const { return chunk_count_; }
  // Throws std::out_of_range for index >= chunk_count().
  RingChunk chunk(std::size_t index) const;
  // The earlier chunk whose copy last read this chunk's slot, which must have completed before the
  // slot is refilled; nullopt for the first `depth` chunks.
  std::optional<std::size_t> must_complete_before(std::size_t index) const;

 private:
  std::size_t total_bytes_;
  std::size_t chunk_bytes_;
  std::size_t depth_;
  std::size_t chunk_count_;
};

// The state of every slot: free, being filled by the host, or in flight (a copy from it was
// submitted and has not been seen to complete). Any step out of order throws std::logic_error, so a
// scheduling bug that would let the host overwrite data the DMA engine is still reading stops the
// run instead of corrupting it. Pure.
class SlotTracker {
 public:
  explicit SlotTracker(std::size_t depth);

  void begin_fill(std::size_t slot);  // free -> filling
  void submit(std::size_t slot);      // filling -> in flight
  void retire(std::size_t slot);      // in flight -> free, once its copy has completed
  bool in_flight(std::size_t slot) const;
  std::size_t in_flight_count() const;

 private:
  enum class State { free, filling, in_flight };
  State& at(std::size_t slot);
  std::vector<State> states_;
};

// What a ring does with a slot besides filling it; the CUDA engine
// (harness/strategy/bounce_ring.hpp) uses events and async copies, host/staging does nothing, tests
// simulate a slow device.
struct RingHooks {
  // Blocks until the copy last submitted from `slot` has completed; returns whether it had not yet
  // completed when asked (the host had to wait for the device).
  std::function<bool(std::size_t slot)> wait_slot;
  // Starts moving a filled slot to its destination; may return before the move is done.
  std::function<void(const RingChunk& chunk, const std::byte* slot_data)> submit;
};

// What one pass through the ring cost the host.
struct RingRunStats {
  std::size_t chunks = 0;
  std::size_t waits = 0;    // fills that found their slot still in flight
  double fill_seconds = 0;  // host time spent copying into slots
  double wait_seconds = 0;  // host time spent waiting for slots (and for the last copies)
};

// The host side of a bounce ring: for each chunk of `schedule`, wait until its slot is free, copy
// the chunk from `source` into the slot with all threads of `team`, submit it; finally wait for
// every slot still in flight. With depth >= 2 the fill of chunk i+1 overlaps the copy of chunk i.
// `slots` holds depth() buffers of at least chunk_bytes() each.
RingRunStats run_ring(const RingSchedule& schedule, const std::vector<std::byte*>& slots,
                      const std::byte* source, ThreadTeam& team, const RingHooks& hooks);

}  // namespace h2d
