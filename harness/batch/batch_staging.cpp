#include "harness/batch/batch_staging.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

// At least a byte: a buffer of a varying member may hold nothing in this batch.
HostBuffer touched(HostKind kind, std::size_t bytes) {
  HostBuffer buffer(kind, std::max<std::size_t>(bytes, 1));
  std::memset(buffer.data(), 0, buffer.size());  // first touch outside timing
  return buffer;
}

}  // namespace

BatchStaging::BatchStaging(LayoutPlan layout, TransferPlan transfer, HostKind locked_kind)
    : layout_(std::move(layout)),
      transfer_(std::move(transfer)),
      placements_(layout_.placements()) {
  const PackPlan& pack = transfer_.pack;
  if (transfer_.staging != Staging::slots) {
    for (const BufferPlan& buffer : layout_.buffers) {
      collated_.push_back(touched(HostKind::pageable, buffer.bytes));
    }
  }
  switch (transfer_.staging) {
    case Staging::layout_buffers:
    case Staging::pinned_copies: {
      if (transfer_.staging == Staging::pinned_copies) {
        for (const BufferPlan& buffer : layout_.buffers) {
          locked_.push_back(touched(locked_kind, buffer.bytes));
        }
      }
      const std::vector<HostBuffer>& sources =
          transfer_.staging == Staging::pinned_copies ? locked_ : collated_;
      std::vector<HostCopy> copies;
      for (std::size_t b = 0; b < sources.size(); ++b) {
        if (layout_.buffers[b].bytes > 0) {  // an empty tensor is not copied
          copies.push_back({sources[b].data(), pack.offsets[b], layout_.buffers[b].bytes});
        }
      }
      copies_.push_back(std::move(copies));
      break;
    }
    case Staging::packed_block:
    case Staging::slots:
      for (std::size_t slot = 0; slot < transfer_.slots; ++slot) {
        locked_.push_back(touched(locked_kind, pack.bytes));
        copies_.push_back({{locked_.back().data(), 0, pack.bytes}});
      }
      break;
  }
}

std::vector<std::byte*> BatchStaging::collate_targets(std::size_t slot) const {
  std::vector<std::byte*> targets;
  if (transfer_.staging == Staging::slots) {
    for (std::size_t offset : transfer_.pack.offsets) {
      targets.push_back(locked_.at(slot).data() + offset);
    }
  } else {
    for (const HostBuffer& buffer : collated_) {
      targets.push_back(buffer.data());
    }
  }
  return targets;
}

void BatchStaging::prepare(const SampleSet& samples, std::size_t slot) {
  if (slot >= slots() || samples.count() < layout_.batch()) {
    throw std::out_of_range(fmt::format("slot {} of {} with {} samples for a batch of {}", slot,
                                        slots(), samples.count(), layout_.batch()));
  }
  {
    NvtxRange range(NvtxCategory::collate, "collate", layout_.payload_bytes);
    const std::vector<std::byte*> targets = collate_targets(slot);
    const BatchContents& contents = layout_.contents;
    for (std::size_t sample = 0; sample < layout_.batch(); ++sample) {
      for (Member member = 0; member < layout_.member_count(); ++member) {
        const Placement& place = placements_[layout_.slot_of(member, sample)];
        std::byte* target = targets[place.buffer] + place.offset;
        const std::size_t bytes = contents.bytes_of(member, sample);
        std::memcpy(target, samples.data(member, sample), bytes);
        // collate=pad: zeros up to the batch's longest, as a padding collate writes them
        std::memset(target + bytes, 0, contents.room_of(member, sample) - bytes);
      }
    }
  }
  if (transfer_.staging == Staging::pinned_copies || transfer_.staging == Staging::packed_block) {
    NvtxRange range(NvtxCategory::pin,
                    transfer_.staging == Staging::packed_block ? "pack" : "pin copy",
                    transfer_.host_copy_bytes);
    for (std::size_t b = 0; b < collated_.size(); ++b) {
      std::byte* target = transfer_.staging == Staging::packed_block
                              ? locked_[0].data() + transfer_.pack.offsets[b]
                              : locked_[b].data();
      std::memcpy(target, collated_[b].data(), layout_.buffers[b].bytes);
    }
  }
}

const std::byte* BatchStaging::staged(Member member, std::size_t sample, std::size_t slot) const {
  if (layout_.contents.bytes_of(member, sample) == 0) {
    return nullptr;  // nothing to deliver
  }
  const std::size_t offset = packed_offset(layout_, transfer_.pack, member, sample);
  for (const HostCopy& copy : copies(slot)) {
    if (offset >= copy.device_offset && offset < copy.device_offset + copy.bytes) {
      return copy.source + (offset - copy.device_offset);
    }
  }
  throw std::logic_error(fmt::format("no copy delivers the {} of sample {}",
                                     layout_.contents.members.at(member).name, sample));
}

}  // namespace h2d
