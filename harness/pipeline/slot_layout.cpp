#include "harness/pipeline/slot_layout.hpp"

#include "harness/core/page_size.hpp"
#include "harness/pipeline/pipeline_config.hpp"

namespace h2d {

SlotLayout::SlotLayout(const PipelineConfig& config)
    : batch_size(config.batch_size), member_alignment(memory_page_size()) {
  std::size_t offset = 0;
  for (const MemberSpec& member : config.members()) {
    members.push_back({offset, member.max_bytes()});
    offset = aligned(offset + member_bytes(members.size() - 1));
  }
}

std::size_t SlotLayout::aligned(std::size_t bytes) const {
  return (bytes + member_alignment - 1) / member_alignment * member_alignment;
}

std::size_t SlotLayout::ids_offset() const {
  if (members.empty()) {
    return 0;
  }
  return aligned(members.back().offset + member_bytes(members.size() - 1));
}

std::uint64_t SlotLayout::first_word(std::size_t member) const {
  std::uint64_t words = 0;
  for (std::size_t m = 0; m < member; ++m) {
    words += (members[m].room + 7) / 8;
  }
  return words;
}

std::size_t SlotLayout::segment_offset(std::size_t segment) const {
  return segment < members.size() ? members[segment].offset : ids_offset();
}

std::size_t SlotLayout::segment_bytes(std::size_t segment) const {
  return segment < members.size() ? member_bytes(segment) : ids_bytes();
}

}  // namespace h2d
