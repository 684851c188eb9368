#include "harness/batch/batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace h2d {

std::string_view to_string(Member member) {
  switch (member) {
    case Member::image:
      return "image";
    case Member::mask:
      return "mask";
    case Member::ids:
      return "ids";
  }
  return "unknown";
}

std::size_t member_bytes(const SampleShape& shape, Member member) {
  switch (member) {
    case Member::image:
      return shape.values() * sizeof(float);
    case Member::mask:
      return shape.pixels() * sizeof(std::uint8_t);
    case Member::ids:
      return 3 * sizeof(std::int64_t);
  }
  return 0;
}

std::string_view to_string(BatchTask task) {
  return task == BatchTask::train ? "train" : "predict";
}

std::vector<Member> sent_members(BatchTask task) {
  if (task == BatchTask::train) {
    return {Member::image, Member::mask, Member::ids};
  }
  return {Member::image};
}

std::string_view to_string(BatchLayout layout) {
  switch (layout) {
    case BatchLayout::single:
      return "single";
    case BatchLayout::tuple:
      return "tuple";
    case BatchLayout::list:
      return "list";
    case BatchLayout::custom:
      return "custom";
  }
  return "unknown";
}

const std::vector<BatchLayout>& all_batch_layouts() {
  static const std::vector<BatchLayout> layouts{BatchLayout::single, BatchLayout::tuple,
                                                BatchLayout::list, BatchLayout::custom};
  return layouts;
}

std::vector<std::size_t> batch_sizes(Preset preset) {
  switch (preset) {
    case Preset::quick:
      return {1, 16};
    case Preset::standard:
      return {1, 4, 16, 64};
    case Preset::full:
      return {1, 2, 4, 8, 16, 32, 64, 128, 256};
  }
  return {};
}

std::vector<std::size_t> host_batch_sizes(Preset preset) {
  return batch_sizes(preset == Preset::full ? Preset::full : Preset::quick);
}

std::size_t align_up(std::size_t value, std::size_t alignment) {
  if (alignment == 0) {
    throw std::invalid_argument("align_up needs a non-zero alignment");
  }
  return (value + alignment - 1) / alignment * alignment;
}

std::size_t LayoutPlan::slot_of(Member member, std::size_t sample) const {
  const auto found = std::find(members.begin(), members.end(), member);
  if (found == members.end() || sample >= batch) {
    throw std::out_of_range(fmt::format("the batch has no {} for sample {} (batch of {})",
                                        to_string(member), sample, batch));
  }
  return sample * members.size() + static_cast<std::size_t>(found - members.begin());
}

std::vector<Placement> LayoutPlan::placements() const {
  std::vector<Placement> result(batch * members.size());
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    for (const Piece& piece : buffers[b].pieces) {
      const std::size_t stride = member_bytes(shape, piece.member);
      for (std::size_t i = 0; i < piece.samples; ++i) {
        result[slot_of(piece.member, piece.first_sample + i)] = {b, piece.offset + i * stride};
      }
    }
  }
  return result;
}

LayoutPlan plan_layout(BatchLayout layout, const SampleShape& shape,
                       const std::vector<Member>& members, std::size_t batch,
                       std::size_t alignment) {
  if (batch == 0 || members.empty() || shape.values() == 0) {
    throw std::invalid_argument(
        fmt::format("a batch needs samples, members and a non-empty shape (batch {}, shape {})",
                    batch, to_string(shape)));
  }
  LayoutPlan plan;
  plan.layout = layout;
  plan.shape = shape;
  plan.members = members;
  plan.batch = batch;
  for (Member member : members) {
    plan.payload_bytes += batch * member_bytes(shape, member);
  }
  // A buffer holding one piece of `samples` consecutive samples of `member`.
  const auto whole = [&](Member member, std::size_t first, std::size_t samples) {
    const std::size_t bytes = samples * member_bytes(shape, member);
    return BufferPlan{{Piece{member, first, samples, 0, bytes}}, bytes};
  };
  switch (layout) {
    case BatchLayout::single: {
      BufferPlan buffer;
      for (Member member : members) {
        const std::size_t offset = align_up(buffer.bytes, alignment);
        const std::size_t bytes = batch * member_bytes(shape, member);
        buffer.pieces.push_back({member, 0, batch, offset, bytes});
        buffer.bytes = offset + bytes;
      }
      plan.buffers.push_back(std::move(buffer));
      break;
    }
    case BatchLayout::tuple:
    case BatchLayout::custom:  // the same buffers, in a class of the user's own
      for (Member member : members) {
        plan.buffers.push_back(whole(member, 0, batch));
      }
      break;
    case BatchLayout::list:
      for (std::size_t sample = 0; sample < batch; ++sample) {
        for (Member member : members) {
          plan.buffers.push_back(whole(member, sample, 1));
        }
      }
      break;
  }
  return plan;
}

PackPlan plan_packing(const LayoutPlan& layout, std::size_t alignment) {
  PackPlan pack;
  for (const BufferPlan& buffer : layout.buffers) {
    const std::size_t offset = align_up(pack.bytes, alignment);
    pack.offsets.push_back(offset);
    pack.bytes = offset + buffer.bytes;
  }
  return pack;
}

std::size_t packed_offset(const LayoutPlan& layout, const PackPlan& pack, Member member,
                          std::size_t sample) {
  const std::size_t slot = layout.slot_of(member, sample);
  // Found by walking the pieces rather than placements(): callers ask for a few offsets only.
  for (std::size_t b = 0; b < layout.buffers.size(); ++b) {
    for (const Piece& piece : layout.buffers[b].pieces) {
      if (piece.member == member && sample >= piece.first_sample &&
          sample < piece.first_sample + piece.samples) {
        return pack.offsets.at(b) + piece.offset +
               (sample - piece.first_sample) * member_bytes(layout.shape, member);
      }
    }
  }
  throw std::logic_error(fmt::format("layout plan has no piece for slot {}", slot));
}

std::size_t packed_stride(const LayoutPlan& layout, const PackPlan& pack, Member member) {
  if (layout.batch == 1) {
    return member_bytes(layout.shape, member);
  }
  const std::size_t first = packed_offset(layout, pack, member, 0);
  const std::size_t stride = packed_offset(layout, pack, member, 1) - first;
  for (std::size_t sample = 2; sample < layout.batch; ++sample) {
    if (packed_offset(layout, pack, member, sample) != first + sample * stride) {
      throw std::logic_error(fmt::format("the {} layout does not place every {} at one stride",
                                         to_string(layout.layout), to_string(member)));
    }
  }
  return stride;
}

}  // namespace h2d
