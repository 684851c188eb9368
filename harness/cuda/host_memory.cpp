#include "harness/cuda/host_memory.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <utility>

#include "harness/core/byte_size.hpp"
#include "harness/core/host_block.hpp"
#include "harness/cuda/cuda_error.hpp"

namespace h2d {
namespace {

unsigned host_alloc_flags(HostKind kind) {
  switch (kind) {
    case HostKind::write_combined:
      return cudaHostAllocWriteCombined;
    case HostKind::portable:
      return cudaHostAllocPortable;
    case HostKind::mapped:
      return cudaHostAllocMapped;
    default:
      return cudaHostAllocDefault;
  }
}

}  // namespace

std::string_view to_string(HostKind kind) {
  switch (kind) {
    case HostKind::pageable:
      return "pageable";
    case HostKind::pinned:
      return "pinned";
    case HostKind::write_combined:
      return "write_combined";
    case HostKind::portable:
      return "portable";
    case HostKind::mapped:
      return "mapped";
    case HostKind::registered:
      return "registered";
  }
  return "unknown";
}

const std::vector<HostKind>& all_host_kinds() {
  static const std::vector<HostKind> kinds{HostKind::pageable,       HostKind::pinned,
                                           HostKind::write_combined, HostKind::portable,
                                           HostKind::mapped,         HostKind::registered};
  return kinds;
}

bool receives_device_copies(HostKind kind) {
  return kind != HostKind::write_combined;
}

bool is_page_locked(HostKind kind) {
  return kind != HostKind::pageable;
}

std::string_view to_string(ActualKind kind) {
  switch (kind) {
    case ActualKind::pageable:
      return "pageable";
    case ActualKind::pinned:
      return "pinned";
    case ActualKind::device:
      return "device";
    case ActualKind::managed:
      return "managed";
  }
  return "unknown";
}

ActualKind actual_kind(const void* pointer) {
  cudaPointerAttributes attributes{};
  H2D_CUDA_CHECK(cudaPointerGetAttributes(&attributes, pointer));
  switch (attributes.type) {
    case cudaMemoryTypeHost:
      return ActualKind::pinned;
    case cudaMemoryTypeDevice:
      return ActualKind::device;
    case cudaMemoryTypeManaged:
      return ActualKind::managed;
    default:
      return ActualKind::pageable;
  }
}

HostBuffer::HostBuffer(HostKind kind, std::size_t bytes) : kind_(kind), bytes_(bytes) {
  if (bytes == 0) {
    throw std::invalid_argument("a host buffer needs at least one byte");
  }
  if (is_page_locked(kind)) {
    reservation_ = pinned_budget().reserve(bytes, fmt::format("a {} host buffer", to_string(kind)));
  }
  switch (kind) {
    case HostKind::pageable:
      data_ = allocate_page_aligned(bytes);
      break;
    case HostKind::registered: {
      data_ = allocate_page_aligned(bytes);
      const cudaError_t status = cudaHostRegister(data_, bytes, cudaHostRegisterDefault);
      if (status != cudaSuccess) {
        std::free(data_);
        data_ = nullptr;
        detail::throw_cuda_error(status, "cudaHostRegister(data_, bytes, cudaHostRegisterDefault)",
                                 __FILE__, __LINE__);
      }
      break;
    }
    case HostKind::pinned: {
      void* pointer = nullptr;
      H2D_CUDA_CHECK(cudaMallocHost(&pointer, bytes));
      data_ = static_cast<std::byte*>(pointer);
      break;
    }
    default: {
      void* pointer = nullptr;
      H2D_CUDA_CHECK(cudaHostAlloc(&pointer, bytes, host_alloc_flags(kind)));
      data_ = static_cast<std::byte*>(pointer);
      break;
    }
  }
}

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : kind_(other.kind_),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      reservation_(std::move(other.reservation_)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  if (this != &other) {
    release();
    kind_ = other.kind_;
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    reservation_ = std::move(other.reservation_);
  }
  return *this;
}

HostBuffer::~HostBuffer() {
  release();
}

void* HostBuffer::device_pointer() const {
  // With unified addressing (every 64-bit platform CUDA supports) every cudaMallocHost and
  // cudaHostAlloc allocation is mapped; registered memory only when registered mapped.
  if (!is_page_locked(kind_) || kind_ == HostKind::registered) {
    throw std::logic_error(fmt::format(
        "a {} buffer has no device pointer; allocate it pinned or mapped", to_string(kind_)));
  }
  void* device = nullptr;
  H2D_CUDA_CHECK(cudaHostGetDevicePointer(&device, data_, 0));
  return device;
}

void HostBuffer::release() noexcept {
  if (data_ == nullptr) {
    return;
  }
  // Errors on release cannot be thrown from a destructor; the memory is gone either way.
  switch (kind_) {
    case HostKind::pageable:
      std::free(data_);
      break;
    case HostKind::registered:
      cudaHostUnregister(data_);
      std::free(data_);
      break;
    default:
      cudaFreeHost(data_);
      break;
  }
  data_ = nullptr;
  bytes_ = 0;
  reservation_ = PinnedReservation();
}

}  // namespace h2d
