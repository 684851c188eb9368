#include "harness/core/host_block.hpp"

#include <cstdlib>
#include <new>
#include <utility>

namespace h2d {
namespace {

constexpr std::size_t kPageSize = 4096;

}  // namespace

std::byte* allocate_page_aligned(std::size_t bytes) {
  const std::size_t rounded = (bytes + kPageSize - 1) / kPageSize * kPageSize;
  void* pointer = std::aligned_alloc(kPageSize, rounded > 0 ? rounded : kPageSize);
  if (pointer == nullptr) {
    throw std::bad_alloc();
  }
  return static_cast<std::byte*>(pointer);
}

HostBlock::HostBlock(std::byte* data, std::size_t bytes, std::shared_ptr<void> owner)
    : data_(data), bytes_(bytes), owner_(std::move(owner)) {}

HostBlock HostBlock::pageable(std::size_t bytes) {
  std::byte* data = allocate_page_aligned(bytes);
  return HostBlock(data, bytes,
                   std::shared_ptr<void>(data, [](void* pointer) { std::free(pointer); }));
}

}  // namespace h2d
