#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>

namespace h2d::sim {

// What a pointer is, as the driver knows it: every allocation and registration the sim made.
// Anything else is ordinary pageable memory.
enum class MemoryKind {
  device,      // cudaMalloc
  pinned,      // cudaMallocHost / cudaHostAlloc (flags say portable, mapped, write-combined)
  registered,  // cudaHostRegister over memory the program allocated
  managed,     // cudaMallocManaged: host memory here, which kernels and prefetches reach
};

struct Allocation {
  std::uintptr_t base = 0;
  std::size_t bytes = 0;
  MemoryKind kind = MemoryKind::device;
  int device = 0;      // device memory: its device; host memory: current device when made
  unsigned flags = 0;  // cudaHostAlloc* or cudaHostRegister* flags
  bool contains(const void* pointer, std::size_t length) const;
};

class MemoryRegistry {
 public:
  // False when the range overlaps something already known.
  bool add(const Allocation& allocation);
  // Removes the allocation starting exactly at `base` of this kind.
  std::optional<Allocation> remove(const void* base, MemoryKind kind);
  // The allocation `pointer` lies in, when any.
  std::optional<Allocation> find(const void* pointer) const;

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::uintptr_t, Allocation> by_base_;
};

}  // namespace h2d::sim
