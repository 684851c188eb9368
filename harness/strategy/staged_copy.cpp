#include "harness/strategy/staged_copy.hpp"

#include <cuda_runtime_api.h>

#include <cstring>
#include <stdexcept>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/host_registration.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

void copy_and_wait(void* device_destination, const void* page_locked_source, std::size_t bytes,
                   const Stream& stream) {
  NvtxRange range(NvtxCategory::copy, "async copy", bytes);
  H2D_CUDA_CHECK(cudaMemcpyAsync(device_destination, page_locked_source, bytes,
                                 cudaMemcpyHostToDevice, stream.get()));
  stream.synchronize();
}

void pin_then_copy(void* device_destination, const void* source, std::size_t bytes,
                   const HostBuffer& staging, const Stream& stream) {
  if (!is_page_locked(staging.kind()) || staging.size() < bytes) {
    throw std::invalid_argument(
        "pin_then_copy needs a page-locked staging buffer of the copy's size");
  }
  {
    NvtxRange pin(NvtxCategory::pin, "copy into pinned", bytes);
    std::memcpy(staging.data(), source, bytes);
  }
  copy_and_wait(device_destination, staging.data(), bytes, stream);
}

void register_and_copy(void* device_destination, void* source, std::size_t bytes,
                       const Stream& stream) {
  HostRegistration registration;
  {
    NvtxRange pin(NvtxCategory::pin, "cudaHostRegister", bytes);
    registration = HostRegistration(source, bytes);
  }
  copy_and_wait(device_destination, source, bytes, stream);
  NvtxRange unpin(NvtxCategory::pin, "cudaHostUnregister", bytes);
  registration.reset();
}

}  // namespace h2d
