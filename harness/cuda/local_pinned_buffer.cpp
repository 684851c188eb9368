#include "harness/cuda/local_pinned_buffer.hpp"

#include "harness/core/case_skipped.hpp"

namespace h2d {

LocalPinnedBuffer::LocalPinnedBuffer(std::size_t bytes, int numa_node) : bytes_(bytes) {
  why_not_ = numa_node < 0 ? std::string("the GPU's NUMA node is not known here")
                           : numa_placement_unavailable(numa_node);
  if (why_not_.empty()) {
    try {
      placed_ = NumaHostBuffer(bytes, numa_node);
      return;
    } catch (const CaseSkipped& placement) {
      why_not_ = placement.what();
    }
  }
  fallback_ = HostBuffer(HostKind::portable, bytes);
}

}  // namespace h2d
