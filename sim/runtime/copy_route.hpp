#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "sim/runtime/activity_log.hpp"
#include "sim/runtime/memory_registry.hpp"

namespace h2d::sim {

// One end of a copy, as the driver sees the memory (cudaPointerGetAttributes' view).
struct CopyEnd {
  HostMemory memory = HostMemory::pageable;  // pageable, pinned (incl. registered) or device
  int device = -1;                           // device memory: its device
  bool pageable() const { return memory == HostMemory::pageable; }
  bool on_device() const { return memory == HostMemory::device; }
};

// What a copy is: its direction resolved from the pointers (cudaMemcpyDefault needs UVA, which
// every 64-bit CUDA device has), and both ends.
struct CopyRoute {
  int kind = 0;  // Activity::copy_kind: 0 h2h, 1 h2d, 2 d2h, 3 d2d
  CopyEnd source, destination;
};

// The end that `bytes` at `pointer` lie in. A range that starts inside device memory but runs
// past its end is an error (cudaErrorInvalidValue), like a range only partly pinned is pageable.
cudaError_t copy_end(const MemoryRegistry& memory, const void* pointer, std::size_t bytes,
                     CopyEnd& end);

// Checks `kind` against what the pointers are (Runtime API cudaMemcpy: a direction that does not
// match the pointers is an error here, undefined behaviour on hardware).
cudaError_t route_copy(const MemoryRegistry& memory, const void* destination, const void* source,
                       std::size_t destination_bytes, std::size_t source_bytes, cudaMemcpyKind kind,
                       CopyRoute& route);

}  // namespace h2d::sim
