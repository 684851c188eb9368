#include "harness/batch/sample_set.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "harness/core/checksum.hpp"
#include "harness/core/pattern.hpp"

namespace h2d {

SampleSet::SampleSet(const BatchContents& contents, std::uint64_t seed)
    : contents_(contents), seed_(seed), sample_offset_(contents.bytes.size()) {
  if (contents_.batch == 0 || contents_.member_count() == 0) {
    throw std::invalid_argument("a sample set needs at least one sample and one member");
  }
  for (Member member = 0; member < contents_.member_count(); ++member) {
    std::size_t total = 0;
    for (std::size_t sample = 0; sample < contents_.batch; ++sample) {
      sample_offset_[contents_.slot(member, sample)] = total;
      total += contents_.bytes_of(member, sample);
    }
    // At least a byte: a varying member may have drawn no elements in every sample.
    buffers_.emplace_back(HostKind::pageable, std::max<std::size_t>(total, 1));
    for (std::size_t sample = 0; sample < contents_.batch; ++sample) {
      fill_pattern(buffers_.back().data() + sample_offset_[contents_.slot(member, sample)],
                   contents_.bytes_of(member, sample), this->seed(member, sample));
    }
  }
}

std::uint64_t SampleSet::seed(Member member, std::size_t sample) const {
  // Distinct, well-mixed seeds per (member, sample): a sample copied to the wrong place fails.
  return pattern_word(seed_, contents_.slot(member, sample));
}

const std::byte* SampleSet::data(Member member, std::size_t sample) const {
  return buffers_.at(member).data() + sample_offset_[contents_.slot(member, sample)];
}

std::uint64_t SampleSet::checksum(Member member, std::size_t sample) const {
  return expected_checksum(contents_.bytes_of(member, sample), seed(member, sample));
}

}  // namespace h2d
