#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace h2d {

// A cudaMallocManaged buffer (cudaMemAttachGlobal): one address for the host and every device,
// its pages migrating to whichever touches or is prefetched them. Move-only; freed on destruction.
class ManagedBuffer {
 public:
  explicit ManagedBuffer(std::size_t bytes);
  ManagedBuffer(ManagedBuffer&& other) noexcept;
  ManagedBuffer& operator=(ManagedBuffer&&) = delete;
  ManagedBuffer(const ManagedBuffer&) = delete;
  ManagedBuffer& operator=(const ManagedBuffer&) = delete;
  ~ManagedBuffer();

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }

  // Queues the migration of the whole buffer to `device`, or to the host, on `stream`, in the
  // form the toolkit has (13.0's cudaMemLocation, the device ordinal before).
  void prefetch_to_device(int device, cudaStream_t stream) const;
  void prefetch_to_host(cudaStream_t stream) const;

 private:
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Whether `device` can take prefetches and work on managed memory while the host runs
// (cudaDevAttrConcurrentManagedAccess: 0 on Windows and on pre-Pascal GPUs).
bool concurrent_managed_access(int device);

}  // namespace h2d
