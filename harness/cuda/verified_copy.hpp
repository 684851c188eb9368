#pragma once

#include <cstddef>
#include <cstdint>

#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/stream.hpp"

namespace h2d {

// One host buffer and one device buffer of the same size, prepared for copies in one direction
// and checked afterwards: the source holds the pattern, the destination zeros, one warm-up copy
// ran and was wiped again, so a copy that never happened (or moved zeros) fails verify(). The
// buffers stay owned by the caller (any HostKind, NUMA-placed memory, ...). Pageable pages are
// touched here, outside timing.
class VerifiedCopy {
 public:
  VerifiedCopy(std::byte* host, std::byte* device, std::size_t bytes, Direction direction,
               int copies, std::uint64_t seed, const Stream& stream);

  const CopyJob& job() const { return job_; }

  // Throws VerificationError unless the destination holds the source's pattern.
  void verify() const;

 private:
  void clear_destination() const;

  std::byte* host_;
  std::byte* device_;
  std::uint64_t seed_;
  const Stream& stream_;
  CopyJob job_;
};

}  // namespace h2d
