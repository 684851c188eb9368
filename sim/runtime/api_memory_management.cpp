// Runtime API, "Memory Management" (allocation, page-locking, mapping) and "Unified Addressing"
// (cudaPointerGetAttributes).
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>

#include "sim/runtime/api_support.hpp"

using namespace h2d::sim;

namespace {

// Device memory is host memory (kernels run on the CPU), aligned as cudaMalloc guarantees
// ("suitably aligned for any kind of variable": 256 bytes in practice).
constexpr std::size_t kDeviceAlignment = 256;
constexpr std::size_t kHostAlignment = 4096;  // page-locked memory comes in whole pages

void* aligned_bytes(std::size_t alignment, std::size_t bytes) {
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded);
}

cudaError_t allocate_pinned(void** pointer, std::size_t bytes, unsigned flags) {
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  // Programming Guide "Implicit Synchronization": a page-locked host memory allocation
  // serializes against all other work.
  wait_all_devices_idle();
  void* memory = aligned_bytes(kHostAlignment, bytes == 0 ? 1 : bytes);
  if (memory == nullptr) {
    return fail(cudaErrorMemoryAllocation);
  }
  runtime().memory.add(Allocation{reinterpret_cast<std::uintptr_t>(memory), bytes,
                                  MemoryKind::pinned, device->ordinal(), flags});
  *pointer = memory;
  return cudaSuccess;
}

}  // namespace

cudaError_t cudaMalloc(void** devPtr, size_t size) {
  if (devPtr == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  if (const FaultEffect fault = injected("cudaMalloc", device); fault.error != cudaSuccess) {
    return fault.error;
  }
  if (size == 0) {
    *devPtr = nullptr;
    return cudaSuccess;
  }
  if (!device->reserve(size)) {
    return fail(cudaErrorMemoryAllocation);
  }
  void* memory = aligned_bytes(kDeviceAlignment, size);
  if (memory == nullptr) {
    device->unreserve(size);
    return fail(cudaErrorMemoryAllocation);
  }
  runtime().memory.add(Allocation{reinterpret_cast<std::uintptr_t>(memory), size,
                                  MemoryKind::device, device->ordinal(), 0});
  *devPtr = memory;
  return cudaSuccess;
}

// "cudaFree synchronizes the device" (Programming Guide, "Implicit Synchronization"; Runtime
// API cudaFree: "performs an implicit cudaDeviceSynchronize").
cudaError_t cudaFree(void* devPtr) {
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  if (const FaultEffect fault = injected("cudaFree", device); fault.error != cudaSuccess) {
    return fault.error;
  }
  if (devPtr == nullptr) {
    return cudaSuccess;
  }
  const auto allocation = runtime().memory.find(devPtr);
  if (allocation && allocation->kind == MemoryKind::managed &&
      allocation->base == reinterpret_cast<std::uintptr_t>(devPtr)) {
    wait_all_devices_idle();  // managed memory any device may be using
    runtime().memory.remove(devPtr, MemoryKind::managed);
    std::free(devPtr);
    return sticky(*device);
  }
  if (!allocation || allocation->kind != MemoryKind::device ||
      allocation->base != reinterpret_cast<std::uintptr_t>(devPtr)) {
    return fail(cudaErrorInvalidValue);
  }
  Device* owner = runtime().device(allocation->device);
  owner->wait_idle();
  runtime().memory.remove(devPtr, MemoryKind::device);
  owner->unreserve(allocation->bytes);
  std::free(devPtr);
  return sticky(*device);
}

// Runtime API cudaMallocManaged: memory the host and every device reach at one address. Here it
// is host memory (so is device memory), which kernels read and write in place; cudaMemPrefetchAsync
// models the migration's time.
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  if (devPtr == nullptr || size == 0 ||
      (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)) {
    return fail(cudaErrorInvalidValue);
  }
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  void* memory = aligned_bytes(kDeviceAlignment, size);
  if (memory == nullptr) {
    return fail(cudaErrorMemoryAllocation);
  }
  runtime().memory.add(Allocation{reinterpret_cast<std::uintptr_t>(memory), size,
                                  MemoryKind::managed, device->ordinal(), flags});
  *devPtr = memory;
  return cudaSuccess;
}

cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  constexpr unsigned kKnown =
      cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  if (pHost == nullptr || (flags & ~kKnown) != 0) {
    return fail(cudaErrorInvalidValue);
  }
  if (const FaultEffect fault = injected("cudaHostAlloc", nullptr); fault.error != cudaSuccess) {
    return fault.error;
  }
  return allocate_pinned(pHost, size, flags);
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  if (ptr == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  if (const FaultEffect fault = injected("cudaMallocHost", nullptr); fault.error != cudaSuccess) {
    return fault.error;
  }
  return allocate_pinned(ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void* ptr) {
  if (ptr == nullptr) {
    return cudaSuccess;
  }
  wait_all_devices_idle();  // releasing page-locked memory serializes like allocating it
  if (!runtime().memory.remove(ptr, MemoryKind::pinned)) {
    return fail(cudaErrorInvalidValue);
  }
  std::free(ptr);
  return cudaSuccess;
}

// Page-locks existing memory. A range overlapping one already registered (or pinned) is
// cudaErrorHostMemoryAlreadyRegistered.
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  constexpr unsigned kKnown = cudaHostRegisterPortable | cudaHostRegisterMapped |
                              cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;
  if (ptr == nullptr || size == 0 || (flags & ~kKnown) != 0) {
    return fail(cudaErrorInvalidValue);
  }
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  if (const FaultEffect fault = injected("cudaHostRegister", device); fault.error != cudaSuccess) {
    return fault.error;
  }
  wait_all_devices_idle();
  if (!runtime().memory.add(Allocation{reinterpret_cast<std::uintptr_t>(ptr), size,
                                       MemoryKind::registered, device->ordinal(), flags})) {
    return fail(cudaErrorHostMemoryAlreadyRegistered);
  }
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
  if (ptr == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  wait_all_devices_idle();
  if (!runtime().memory.remove(ptr, MemoryKind::registered)) {
    return fail(cudaErrorHostMemoryNotRegistered);
  }
  return cudaSuccess;
}

// With unified addressing a mapped host allocation has the same address on the device.
cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  if (pDevice == nullptr || pHost == nullptr || flags != 0) {
    return fail(cudaErrorInvalidValue);
  }
  const auto allocation = runtime().memory.find(pHost);
  if (!allocation || allocation->kind == MemoryKind::device) {
    return fail(cudaErrorInvalidValue);
  }
  *pDevice = pHost;
  return cudaSuccess;
}

// Runtime API cudaPointerGetAttributes (CUDA 11+): host memory the driver does not know is
// cudaMemoryTypeUnregistered with device -2 and null pointers, and the call succeeds. A pointer
// inside an allocation describes that allocation (device/host pointers at the same offset).
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (attributes == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  std::memset(attributes, 0, sizeof *attributes);
  const auto allocation = runtime().memory.find(ptr);
  void* const address = const_cast<void*>(ptr);
  if (!allocation) {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    return cudaSuccess;
  }
  attributes->device = allocation->device;
  if (allocation->kind == MemoryKind::device) {
    attributes->type = cudaMemoryTypeDevice;
    attributes->devicePointer = address;
  } else if (allocation->kind == MemoryKind::managed) {
    attributes->type = cudaMemoryTypeManaged;
    attributes->hostPointer = address;
    attributes->devicePointer = address;
  } else {
    attributes->type = cudaMemoryTypeHost;
    attributes->hostPointer = address;
    attributes->devicePointer = address;  // unified addressing: mapped at the same address
  }
  return cudaSuccess;
}
