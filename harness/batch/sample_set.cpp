#include "harness/batch/sample_set.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "harness/core/checksum.hpp"
#include "harness/core/pattern.hpp"

namespace h2d {

SampleSet::SampleSet(const SampleShape& shape, std::vector<Member> members, std::size_t count,
                     std::uint64_t seed)
    : shape_(shape), members_(std::move(members)), count_(count), seed_(seed) {
  if (count == 0 || members_.empty()) {
    throw std::invalid_argument("a sample set needs at least one sample and one member");
  }
  for (Member member : members_) {
    const std::size_t bytes = member_bytes(shape_, member);
    buffers_.emplace_back(HostKind::pageable, count * bytes);
    for (std::size_t sample = 0; sample < count; ++sample) {
      fill_pattern(buffers_.back().data() + sample * bytes, bytes, this->seed(member, sample));
    }
  }
}

std::size_t SampleSet::index(Member member) const {
  const auto found = std::find(members_.begin(), members_.end(), member);
  if (found == members_.end()) {
    throw std::out_of_range(fmt::format("the sample set has no {} member", to_string(member)));
  }
  return static_cast<std::size_t>(found - members_.begin());
}

std::uint64_t SampleSet::seed(Member member, std::size_t sample) const {
  // Distinct, well-mixed seeds per (member, sample): a sample copied to the wrong place fails.
  return pattern_word(seed_, sample * 8 + static_cast<std::size_t>(member));
}

const std::byte* SampleSet::data(Member member, std::size_t sample) const {
  if (sample >= count_) {
    throw std::out_of_range(fmt::format("sample {} of a set of {}", sample, count_));
  }
  return buffers_[index(member)].data() + sample * member_bytes(shape_, member);
}

std::uint64_t SampleSet::checksum(Member member, std::size_t sample) const {
  return expected_checksum(member_bytes(shape_, member), seed(member, sample));
}

}  // namespace h2d
