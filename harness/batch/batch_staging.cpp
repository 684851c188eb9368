#include "harness/batch/batch_staging.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

HostBuffer touched(HostKind kind, std::size_t bytes) {
  HostBuffer buffer(kind, bytes);
  std::memset(buffer.data(), 0, bytes);  // first touch outside timing
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
        copies.push_back({sources[b].data(), pack.offsets[b], sources[b].size()});
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
  if (slot >= slots() || samples.count() < layout_.batch) {
    throw std::out_of_range(fmt::format("slot {} of {} with {} samples for a batch of {}", slot,
                                        slots(), samples.count(), layout_.batch));
  }
  {
    NvtxRange range(NvtxCategory::collate, "collate", layout_.payload_bytes);
    const std::vector<std::byte*> targets = collate_targets(slot);
    for (std::size_t sample = 0; sample < layout_.batch; ++sample) {
      for (Member member : layout_.members) {
        const Placement& place = placements_[layout_.slot_of(member, sample)];
        std::memcpy(targets[place.buffer] + place.offset, samples.data(member, sample),
                    member_bytes(layout_.shape, member));
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
      std::memcpy(target, collated_[b].data(), collated_[b].size());
    }
  }
}

const std::byte* BatchStaging::staged(Member member, std::size_t sample, std::size_t slot) const {
  const std::size_t offset = packed_offset(layout_, transfer_.pack, member, sample);
  for (const HostCopy& copy : copies(slot)) {
    if (offset >= copy.device_offset && offset < copy.device_offset + copy.bytes) {
      return copy.source + (offset - copy.device_offset);
    }
  }
  throw std::logic_error(
      fmt::format("no copy delivers the {} of sample {}", to_string(member), sample));
}

}  // namespace h2d
