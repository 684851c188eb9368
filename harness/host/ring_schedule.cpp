#include "harness/host/ring_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "harness/core/stopwatch.hpp"
#include "harness/host/team_memcpy.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

RingSchedule::RingSchedule(std::size_t total_bytes, std::size_t chunk_bytes, std::size_t depth)
    : total_bytes_(total_bytes), chunk_bytes_(chunk_bytes), depth_(depth), chunk_count_(0) {
  if (total_bytes == 0 || chunk_bytes == 0 || depth == 0) {
    throw std::invalid_argument(
        "a ring schedule needs non-zero total bytes, chunk bytes and depth");
  }
  chunk_count_ = (total_bytes + chunk_bytes - 1) / chunk_bytes;
}

RingChunk RingSchedule::chunk(std::size_t index) const {
  if (index >= chunk_count_) {
    throw std::out_of_range(
        fmt::format("ring chunk {} does not exist (the transfer has {})", index, chunk_count_));
  }
  RingChunk chunk;
  chunk.index = index;
  chunk.offset = index * chunk_bytes_;
  chunk.bytes = std::min(chunk_bytes_, total_bytes_ - chunk.offset);
  chunk.slot = index % depth_;
  return chunk;
}

std::optional<std::size_t> RingSchedule::must_complete_before(std::size_t index) const {
  if (index < depth_) {
    return std::nullopt;
  }
  return index - depth_;
}

SlotTracker::SlotTracker(std::size_t depth) : states_(depth, State::free) {
  if (depth == 0) {
    throw std::invalid_argument("a slot tracker needs at least one slot");
  }
}

SlotTracker::State& SlotTracker::at(std::size_t slot) {
  if (slot >= states_.size()) {
    throw std::out_of_range(fmt::format("slot {} does not exist (depth {})", slot, states_.size()));
  }
  return states_[slot];
}

void SlotTracker::begin_fill(std::size_t slot) {
  State& state = at(slot);
  if (state == State::in_flight) {
    throw std::logic_error(fmt::format(
        "bounce ring: slot {} refilled while a copy from it may still be running", slot));
  }
  if (state == State::filling) {
    throw std::logic_error(fmt::format("bounce ring: slot {} is already being filled", slot));
  }
  state = State::filling;
}

void SlotTracker::submit(std::size_t slot) {
  State& state = at(slot);
  if (state != State::filling) {
    throw std::logic_error(
        fmt::format("bounce ring: slot {} submitted without being filled", slot));
  }
  state = State::in_flight;
}

void SlotTracker::retire(std::size_t slot) {
  State& state = at(slot);
  if (state != State::in_flight) {
    throw std::logic_error(fmt::format("bounce ring: slot {} retired but not in flight", slot));
  }
  state = State::free;
}

bool SlotTracker::in_flight(std::size_t slot) const {
  return slot < states_.size() && states_[slot] == State::in_flight;
}

std::size_t SlotTracker::in_flight_count() const {
  return static_cast<std::size_t>(std::count(states_.begin(), states_.end(), State::in_flight));
}

RingRunStats run_ring(const RingSchedule& schedule, const std::vector<std::byte*>& slots,
                      const std::byte* source, ThreadTeam& team, const RingHooks& hooks) {
  if (slots.size() != schedule.depth()) {
    throw std::invalid_argument(fmt::format("run_ring got {} slots for a ring of depth {}",
                                            slots.size(), schedule.depth()));
  }
  SlotTracker tracker(schedule.depth());
  RingRunStats stats;
  const auto wait_for = [&](std::size_t slot) {
    Stopwatch waited;
    if (hooks.wait_slot(slot)) {
      ++stats.waits;
    }
    stats.wait_seconds += waited.seconds();
    tracker.retire(slot);
  };
  for (std::size_t i = 0; i < schedule.chunk_count(); ++i) {
    const RingChunk chunk = schedule.chunk(i);
    if (tracker.in_flight(chunk.slot)) {
      wait_for(chunk.slot);
    }
    tracker.begin_fill(chunk.slot);
    {
      NvtxRange fill(NvtxCategory::stage, "fill slot", chunk.bytes);
      Stopwatch filling;
      team_memcpy(team, slots[chunk.slot], source + chunk.offset, chunk.bytes);
      stats.fill_seconds += filling.seconds();
    }
    tracker.submit(chunk.slot);
    hooks.submit(chunk, slots[chunk.slot]);
    ++stats.chunks;
  }
  // Drain oldest first: the last `depth` chunks are the ones that can still be in flight.
  const std::size_t count = schedule.chunk_count();
  for (std::size_t i = count - std::min(count, schedule.depth()); i < count; ++i) {
    const std::size_t slot = schedule.chunk(i).slot;
    if (tracker.in_flight(slot)) {
      wait_for(slot);
    }
  }
  return stats;
}

}  // namespace h2d
