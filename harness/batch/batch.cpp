#include "harness/batch/batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace h2d {

std::string_view to_string(BatchTask task) {
  return task == BatchTask::train ? "train" : "predict";
}

std::vector<std::size_t> sent_members(const SampleSpec& spec, BatchTask task) {
  std::vector<std::size_t> sent;
  for (std::size_t i = 0; i < (task == BatchTask::train ? spec.members.size() : 1); ++i) {
    sent.push_back(i);
  }
  return sent;
}

std::string_view to_string(Collate collate) {
  return collate == Collate::pad ? "pad" : "list";
}

std::size_t BatchContents::slot(Member member, std::size_t sample) const {
  if (member >= members.size() || sample >= batch) {
    throw std::out_of_range(
        fmt::format("the batch has no member {} for sample {} ({} members, "
                    "batch of {})",
                    member, sample, members.size(), batch));
  }
  return sample * members.size() + member;
}

bool BatchContents::split(Member member) const {
  return collate == Collate::list && members.at(member).varies();
}

std::size_t BatchContents::payload_bytes() const {
  std::size_t total = 0;
  for (const std::size_t b : bytes) {
    total += b;
  }
  return total;
}

BatchContents batch_contents(const SampleSpec& spec, const std::vector<std::size_t>& sent,
                             std::size_t batch, Collate collate, std::uint64_t seed) {
  if (batch == 0 || sent.empty()) {
    throw std::invalid_argument(fmt::format(
        "a batch needs samples and members (batch {}, {} members)", batch, sent.size()));
  }
  BatchContents contents;
  contents.batch = batch;
  contents.collate = collate;
  for (const std::size_t index : sent) {
    contents.members.push_back(spec.members.at(index));
  }
  const std::size_t count = contents.members.size();
  contents.bytes.resize(batch * count);
  for (std::size_t sample = 0; sample < batch; ++sample) {
    for (Member m = 0; m < count; ++m) {
      contents.bytes[sample * count + m] = drawn_bytes(contents.members[m], sent[m], seed, sample);
    }
  }
  contents.room = contents.bytes;
  for (Member m = 0; m < count; ++m) {
    if (contents.split(m) || !contents.members[m].varies()) {
      continue;
    }
    std::size_t longest = 0;  // collate=pad: every sample takes the batch's longest
    for (std::size_t sample = 0; sample < batch; ++sample) {
      longest = std::max(longest, contents.bytes[sample * count + m]);
    }
    for (std::size_t sample = 0; sample < batch; ++sample) {
      contents.room[sample * count + m] = longest;
    }
  }
  return contents;
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
  return contents.slot(member, sample);
}

std::vector<Placement> LayoutPlan::placements() const {
  std::vector<Placement> result(batch() * member_count());
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    for (const Piece& piece : buffers[b].pieces) {
      const std::size_t stride = contents.room_of(piece.member, piece.first_sample);
      for (std::size_t i = 0; i < piece.samples; ++i) {
        result[slot_of(piece.member, piece.first_sample + i)] = {b, piece.offset + i * stride};
      }
    }
  }
  return result;
}

LayoutPlan plan_layout(BatchLayout layout, const BatchContents& contents, std::size_t alignment) {
  LayoutPlan plan;
  plan.layout = layout;
  plan.contents = contents;
  plan.payload_bytes = contents.payload_bytes();
  const std::size_t batch = contents.batch;
  // The pieces of one member: the whole batch at one stride, or (split) one a sample.
  const auto pieces_of = [&](Member member) {
    std::vector<Piece> pieces;
    if (contents.split(member)) {
      for (std::size_t sample = 0; sample < batch; ++sample) {
        pieces.push_back({member, sample, 1, 0, contents.room_of(member, sample)});
      }
    } else {
      pieces.push_back({member, 0, batch, 0, batch * contents.room_of(member, 0)});
    }
    return pieces;
  };
  switch (layout) {
    case BatchLayout::single: {
      BufferPlan buffer;
      for (Member member = 0; member < contents.member_count(); ++member) {
        for (Piece piece : pieces_of(member)) {
          piece.offset = align_up(buffer.bytes, alignment);
          buffer.bytes = piece.offset + piece.bytes;
          buffer.pieces.push_back(piece);
        }
      }
      plan.buffers.push_back(std::move(buffer));
      break;
    }
    case BatchLayout::tuple:
    case BatchLayout::custom:  // the same buffers, in a class of the user's own
      for (Member member = 0; member < contents.member_count(); ++member) {
        for (const Piece& piece : pieces_of(member)) {
          plan.buffers.push_back(BufferPlan{{piece}, piece.bytes});
        }
      }
      break;
    case BatchLayout::list:
      for (std::size_t sample = 0; sample < batch; ++sample) {
        for (Member member = 0; member < contents.member_count(); ++member) {
          const std::size_t bytes = contents.room_of(member, sample);
          plan.buffers.push_back(BufferPlan{{Piece{member, sample, 1, 0, bytes}}, bytes});
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
               (sample - piece.first_sample) * layout.contents.room_of(member, sample);
      }
    }
  }
  throw std::logic_error(fmt::format("layout plan has no piece for slot {}", slot));
}

std::size_t packed_stride(const LayoutPlan& layout, const PackPlan& pack, Member member) {
  if (layout.batch() == 1) {
    return layout.contents.room_of(member, 0);
  }
  const std::size_t first = packed_offset(layout, pack, member, 0);
  const std::size_t stride = packed_offset(layout, pack, member, 1) - first;
  for (std::size_t sample = 2; sample < layout.batch(); ++sample) {
    if (packed_offset(layout, pack, member, sample) != first + sample * stride) {
      throw std::logic_error(fmt::format("the {} layout does not place every {} at one stride",
                                         to_string(layout.layout),
                                         layout.contents.members.at(member).name));
    }
  }
  return stride;
}

}  // namespace h2d
