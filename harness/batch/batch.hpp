#pragma once

// ML-shaped batches and how their bytes are laid out in host memory and on the device. Pure
// planning, no CUDA: which buffers a collate fills, where every sample's members sit in them, and
// where they land when the buffers are packed into one aligned block.

#include <cstddef>
#include <string_view>
#include <vector>

#include "harness/core/preset.hpp"
#include "harness/core/sample_spec.hpp"

namespace h2d {

// Which member of a batch: its position among the members the batch sends (BatchContents).
using Member = std::size_t;

// Train sends every member of the sample to the device; predict sends the first (the model's
// input: the tile's image) and keeps the rest on the host (the tile's ids name the output tiles).
// Indices into the spec's members.
enum class BatchTask { train, predict };
std::string_view to_string(BatchTask task);
std::vector<std::size_t> sent_members(const SampleSpec& spec, BatchTask task);

// How members whose size varies from sample to sample (a dimension A..B) are collated:
//   pad:  each padded with zeros to the batch's longest, one tensor for the batch (what a padding
//         collate such as pad_sequence gives);
//   list: one tensor per sample, as they are (what detection loaders hand over for targets).
// Members that do not vary are one tensor for the batch either way.
enum class Collate { pad, list };
std::string_view to_string(Collate collate);

// What one batch holds: each sent member of each sample, its bytes as drawn (the sample's data)
// and the room it takes once collated (the same, or the batch's longest under collate=pad).
// Indexed sample-major: slot(member, sample) = sample * members.size() + member.
struct BatchContents {
  std::vector<MemberSpec> members;  // the sent members, in the order the spec gives them
  std::size_t batch = 0;
  Collate collate = Collate::pad;
  std::vector<std::size_t> bytes;
  std::vector<std::size_t> room;

  std::size_t member_count() const { return members.size(); }
  // Throws std::out_of_range naming the member and sample.
  std::size_t slot(Member member, std::size_t sample) const;
  std::size_t bytes_of(Member member, std::size_t sample) const {
    return bytes[slot(member, sample)];
  }
  std::size_t room_of(Member member, std::size_t sample) const {
    return room[slot(member, sample)];
  }
  // Whether each sample's `member` is its own piece (a varying member under collate=list).
  bool split(Member member) const;
  // The members' bytes as drawn, without padding of any kind.
  std::size_t payload_bytes() const;
};

// Samples 0..batch-1 of `spec`, drawn with `seed` (draw_shape), of the `sent` members. Throws
// std::invalid_argument for an empty batch or no members.
BatchContents batch_contents(const SampleSpec& spec, const std::vector<std::size_t>& sent,
                             std::size_t batch, Collate collate, std::uint64_t seed);

// How the collate function hands the batch over:
//   single: one contiguous tensor holding every member (what a data set returning one tensor
//           gives after the default collate);
//   tuple:  one buffer per member (images, masks, ids), separately allocated (a varying member
//           under collate=list: one per sample, the tuple holding a list of them);
//   list:   one buffer per member per sample, as a custom collate returning the samples as they
//           are gives;
//   custom: the tuple's buffers held by a custom batch class without a pin_memory() method (the
//           user story's batch type): what DataLoader(pin_memory=True) returns unpinned.
enum class BatchLayout { single, tuple, list, custom };
std::string_view to_string(BatchLayout layout);
const std::vector<BatchLayout>& all_batch_layouts();

// Batch sizes to sweep: quick 1 and 16; default 1, 4, 16, 64; full powers of two up to 256.
std::vector<std::size_t> batch_sizes(Preset preset);
// The host families' batch sizes (host/collate, host/normalize): their host work grows with a
// batch's bytes, in cache or not, so default takes quick's two, one sample and a training batch of
// 16 (54 MB: past a last-level cache); full sweeps as batch_sizes does.
std::vector<std::size_t> host_batch_sizes(Preset preset);

// Device allocations are 256-byte aligned; keeping every packed member on that boundary lets the
// device-side views be used as tensors directly.
inline constexpr std::size_t kBatchAlignment = 256;

// `value` rounded up to a multiple of `alignment` (> 0); throws std::invalid_argument for 0.
std::size_t align_up(std::size_t value, std::size_t alignment);

// Consecutive samples [first_sample, first_sample + samples) of one member, at `offset` in a
// buffer, each taking the member's room (the same for each: a split member's pieces hold one).
struct Piece {
  Member member = 0;
  std::size_t first_sample = 0;
  std::size_t samples = 0;
  std::size_t offset = 0;
  std::size_t bytes = 0;
};

// One host buffer the collate writes: its pieces in order, and its size.
struct BufferPlan {
  std::vector<Piece> pieces;
  std::size_t bytes = 0;
};

// Where a (member, sample) sits: buffer index and offset inside that buffer.
struct Placement {
  std::size_t buffer = 0;
  std::size_t offset = 0;
};

struct LayoutPlan {
  BatchLayout layout = BatchLayout::single;
  BatchContents contents;
  std::vector<BufferPlan> buffers;
  // The members' bytes as drawn, no alignment or collate padding: contents.payload_bytes(), kept
  // because the collate's trace range reads it every batch.
  std::size_t payload_bytes = 0;

  std::size_t batch() const { return contents.batch; }
  std::size_t member_count() const { return contents.member_count(); }
  // Index into placements(): sample-major, members in the contents' order.
  std::size_t slot_of(Member member, std::size_t sample) const;
  // Every (member, sample), indexed by slot_of; computed once so a collate loop stays O(1).
  std::vector<Placement> placements() const;
};

// In the single layout each piece starts on an `alignment` boundary (each sample's piece of a
// split member too). A buffer may be empty (a varying member that drew no elements).
LayoutPlan plan_layout(BatchLayout layout, const BatchContents& contents,
                       std::size_t alignment = kBatchAlignment);

// The layout's buffers placed one after another in one block, each on an `alignment` boundary:
// the packed pinned block and the device allocation share these offsets.
struct PackPlan {
  std::vector<std::size_t> offsets;  // one per layout buffer
  std::size_t bytes = 0;             // the block's size
};
PackPlan plan_packing(const LayoutPlan& layout, std::size_t alignment = kBatchAlignment);

// Offset of (member, sample) inside the packed block (and so on the device).
std::size_t packed_offset(const LayoutPlan& layout, const PackPlan& pack, Member member,
                          std::size_t sample);

// The distance between consecutive samples of `member` in the packed block. Throws
// std::logic_error if the distance is not the same for every pair (a strided device view would
// then be wrong); a batch of one has the member's own room as stride.
std::size_t packed_stride(const LayoutPlan& layout, const PackPlan& pack, Member member);

}  // namespace h2d
