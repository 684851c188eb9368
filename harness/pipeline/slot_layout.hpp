#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace h2d {

struct PipelineConfig;

// One member's place in a batch buffer: batch_size samples of `room` bytes each from `offset`
// (a member that varies is padded to its most bytes, so every batch has the same places).
struct SlotRegion {
  std::size_t offset = 0;
  std::size_t room = 0;  // bytes per sample
};

// Where things are in a batch buffer: each member of the sample (the tile: its image), then the
// sample ids; on the device a last region receives per-sample checksums, so ids and checksums come
// back in one copy. Every region starts on a page boundary (the machine's page size,
// memory_page_size): worker processes hand the regions over as separate shared-memory segments
// (shm=fresh, as PyTorch hands over each tensor), which the main process maps side by side into
// one slot.
struct SlotLayout {
  std::size_t batch_size = 0;
  std::size_t member_alignment = 0;
  std::vector<SlotRegion> members;  // in the sample's order

  explicit SlotLayout(const PipelineConfig& config);

  std::size_t member_bytes(std::size_t member) const { return batch_size * members[member].room; }
  // Where `member` starts in a sample's checksum, in words: its members' rooms one after another,
  // so members in each other's place do not add up to the same sum.
  std::uint64_t first_word(std::size_t member) const;
  std::size_t ids_offset() const;
  std::size_t ids_bytes() const { return batch_size * sizeof(std::uint64_t); }
  // What a host slot holds and the H2D copy moves: the members and the ids.
  std::size_t host_bytes() const { return ids_offset() + ids_bytes(); }
  // The device buffer: members, ids, checksums.
  std::size_t device_bytes() const { return host_bytes() + ids_bytes(); }
  // What the D2H copy brings back: ids and checksums, from ids_offset().
  std::size_t readback_bytes() const { return 2 * ids_bytes(); }

  // The regions a batch crosses in with worker=process shm=fresh, each its own segment: the
  // members, then the ids. Offsets and sizes, in that order.
  std::size_t segments() const { return members.size() + 1; }
  std::size_t segment_offset(std::size_t segment) const;
  std::size_t segment_bytes(std::size_t segment) const;

 private:
  std::size_t aligned(std::size_t bytes) const;
};

}  // namespace h2d
