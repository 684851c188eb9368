#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/pinned_budget.hpp"

namespace h2d {

// How a host buffer was obtained.
enum class HostKind {
  pageable,        // plain aligned allocation: the driver must stage it through its own buffer
  pinned,          // cudaMallocHost
  write_combined,  // cudaHostAlloc(WriteCombined): fast for the GPU to read, slow for the CPU
  portable,        // cudaHostAlloc(Portable): pinned for every CUDA context
  mapped,          // cudaHostAlloc(Mapped): pinned and addressable from kernels (zero-copy)
  registered,      // pageable memory locked in place with cudaHostRegister
};

std::string_view to_string(HostKind kind);
const std::vector<HostKind>& all_host_kinds();
// Whether the kind is page-locked, i.e. the DMA engine can read it directly.
bool is_page_locked(HostKind kind);

// Whether device-to-host copies into this kind are worth measuring. Not into write-combined
// memory: it is host-write-only by design (uncached for CPU reads, so verifying a D2H copy would
// read it at a fraction of memory speed, seconds per GiB, every call); a real loader never copies
// results back into it.
bool receives_device_copies(HostKind kind);

// What CUDA says a pointer really is, whatever the code that allocated it believed.
enum class ActualKind { pageable, pinned, device, managed };
std::string_view to_string(ActualKind kind);
// Asks cudaPointerGetAttributes. Needs a usable CUDA runtime.
ActualKind actual_kind(const void* pointer);

// RAII host buffer of any HostKind. Page-locked kinds are charged to pinned_budget() first, so a
// request the machine cannot spare fails with a clear message rather than starving the system.
// Pageable buffers are page-aligned and not yet touched: fill them before timing.
class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(HostKind kind, std::size_t bytes);
  HostBuffer(HostBuffer&& other) noexcept;
  HostBuffer& operator=(HostBuffer&& other) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer();

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  HostKind kind() const { return kind_; }
  // The device-side address of a buffer from cudaMallocHost or cudaHostAlloc (zero-copy, SM
  // copies: with unified addressing they are all mapped); throws for pageable and registered.
  void* device_pointer() const;

 private:
  void release() noexcept;

  HostKind kind_ = HostKind::pageable;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  PinnedReservation reservation_;
};

}  // namespace h2d
