#include "sim/runtime/copy_route.hpp"

namespace h2d::sim {

cudaError_t copy_end(const MemoryRegistry& memory, const void* pointer, std::size_t bytes,
                     CopyEnd& end) {
  if (pointer == nullptr) {
    return cudaErrorInvalidValue;
  }
  end = CopyEnd{};
  const auto allocation = memory.find(pointer);
  if (!allocation) {
    return cudaSuccess;
  }
  if (allocation->kind == MemoryKind::device) {
    if (!allocation->contains(pointer, bytes)) {
      return cudaErrorInvalidValue;
    }
    end.memory = HostMemory::device;
    end.device = allocation->device;
  } else if (allocation->contains(pointer, bytes)) {
    end.memory = HostMemory::pinned;
  }
  return cudaSuccess;
}

cudaError_t route_copy(const MemoryRegistry& memory, const void* destination, const void* source,
                       std::size_t destination_bytes, std::size_t source_bytes, cudaMemcpyKind kind,
                       CopyRoute& route) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
    return cudaErrorInvalidMemcpyDirection;
  }
  if (const cudaError_t error = copy_end(memory, source, source_bytes, route.source);
      error != cudaSuccess) {
    return error;
  }
  if (const cudaError_t error = copy_end(memory, destination, destination_bytes, route.destination);
      error != cudaSuccess) {
    return error;
  }
  const int actual = (route.source.on_device() ? 2 : 0) + (route.destination.on_device() ? 1 : 0);
  // actual: 0 h2h, 1 h2d, 2 d2h, 3 d2d, as cudaMemcpyKind numbers them.
  if (kind != cudaMemcpyDefault && static_cast<int>(kind) != actual) {
    return cudaErrorInvalidValue;
  }
  route.kind = actual;
  return cudaSuccess;
}

}  // namespace h2d::sim
