#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/cuda/host_memory.hpp"

namespace h2d {

// The data set a loader reads: the samples of a batch's contents in pageable memory, each member
// of each sample at its drawn size and filled with its own pattern (seed) so that any place it is
// copied to can be verified on its own.
class SampleSet {
 public:
  SampleSet(const BatchContents& contents, std::uint64_t seed);

  const BatchContents& contents() const { return contents_; }
  std::size_t count() const { return contents_.batch; }
  const std::byte* data(Member member, std::size_t sample) const;
  std::size_t bytes(Member member, std::size_t sample) const {
    return contents_.bytes_of(member, sample);
  }
  // The checksum (harness/core/checksum.hpp) of that member's bytes.
  std::uint64_t checksum(Member member, std::size_t sample) const;

 private:
  std::uint64_t seed(Member member, std::size_t sample) const;

  BatchContents contents_;
  std::uint64_t seed_;
  std::vector<HostBuffer> buffers_;         // one per member, samples back to back
  std::vector<std::size_t> sample_offset_;  // by contents slot: where it starts in its buffer
};

}  // namespace h2d
