#pragma once

#include <cstddef>
#include <memory>

namespace h2d {

// Page-aligned pageable memory (rounded up to whole pages), not yet touched; free with std::free.
// Throws std::bad_alloc.
std::byte* allocate_page_aligned(std::size_t bytes);

// Host memory that code without CUDA can hold without knowing how it was made: pageable memory
// of its own, or memory another layer made (page-locked by the CUDA layer, say) and keeps alive
// through `owner`. The pipeline's slots are HostBlocks so the orchestration never calls CUDA.
// Move-only; gives the memory back when destroyed.
class HostBlock {
 public:
  HostBlock() = default;
  HostBlock(std::byte* data, std::size_t bytes, std::shared_ptr<void> owner);
  HostBlock(HostBlock&&) noexcept = default;
  HostBlock& operator=(HostBlock&&) noexcept = default;
  HostBlock(const HostBlock&) = delete;
  HostBlock& operator=(const HostBlock&) = delete;
  ~HostBlock() = default;

  // Page-aligned pageable memory (allocate_page_aligned), not yet touched.
  static HostBlock pageable(std::size_t bytes);

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  std::shared_ptr<void> owner_;
};

}  // namespace h2d
