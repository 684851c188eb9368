#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/cuda/host_memory.hpp"

namespace h2d {

// The data set a loader reads: `count` samples of the given members in pageable memory, each
// member of each sample filled with its own pattern (seed) so that any place it is copied to can
// be verified on its own.
class SampleSet {
 public:
  SampleSet(const SampleShape& shape, std::vector<Member> members, std::size_t count,
            std::uint64_t seed);

  const SampleShape& shape() const { return shape_; }
  const std::vector<Member>& members() const { return members_; }
  std::size_t count() const { return count_; }
  const std::byte* data(Member member, std::size_t sample) const;
  // The checksum (harness/core/checksum.hpp) of that member's bytes.
  std::uint64_t checksum(Member member, std::size_t sample) const;

 private:
  std::size_t index(Member member) const;
  std::uint64_t seed(Member member, std::size_t sample) const;

  SampleShape shape_;
  std::vector<Member> members_;
  std::size_t count_;
  std::uint64_t seed_;
  std::vector<HostBuffer> buffers_;  // one per member, samples back to back
};

}  // namespace h2d
