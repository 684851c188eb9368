#pragma once

// ML-shaped batches and how their bytes are laid out in host memory and on the device. Pure
// planning, no CUDA: which buffers a collate fills, where every sample's members sit in them, and
// where they land when the buffers are packed into one aligned block.

#include <cstddef>
#include <string_view>
#include <vector>

#include "harness/core/preset.hpp"
#include "harness/core/sample_shape.hpp"

namespace h2d {

// What one sample carries: the image (float32 C×H×W), its mask (uint8 H×W, train only) and the
// tile's z, x, y ids (3 × int64).
enum class Member { image, mask, ids };
std::string_view to_string(Member member);
std::size_t member_bytes(const SampleShape& shape, Member member);

// Train sends image, mask and ids to the device; predict sends images only (the ids stay on the
// host to name the output tiles).
enum class BatchTask { train, predict };
std::string_view to_string(BatchTask task);
std::vector<Member> sent_members(BatchTask task);

// How the collate function hands the batch over:
//   single: one contiguous tensor holding every member (what a data set returning one tensor
//           gives after the default collate);
//   tuple:  one buffer per member (images, masks, ids), separately allocated;
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
// buffer.
struct Piece {
  Member member = Member::image;
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
  SampleShape shape;
  std::vector<Member> members;
  std::size_t batch = 0;
  std::vector<BufferPlan> buffers;
  std::size_t payload_bytes = 0;  // the members' bytes, without alignment padding

  // Index into placements(): sample-major, members in `members` order.
  std::size_t slot_of(Member member, std::size_t sample) const;
  // Every (member, sample), indexed by slot_of; computed once so a collate loop stays O(1).
  std::vector<Placement> placements() const;
};

// Throws std::invalid_argument for an empty batch or member list, or a zero-sized shape. In the
// single layout each member starts on an `alignment` boundary.
LayoutPlan plan_layout(BatchLayout layout, const SampleShape& shape,
                       const std::vector<Member>& members, std::size_t batch,
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
// then be wrong); a batch of one has the member's own size as stride.
std::size_t packed_stride(const LayoutPlan& layout, const PackPlan& pack, Member member);

}  // namespace h2d
