#pragma once

#include <cstddef>

namespace h2d {

// Anonymous memory straight from mmap: every page is new and faults on first touch, as in a data
// loader that collates each batch into freshly allocated memory. Move-only RAII.
class FreshPages {
 public:
  explicit FreshPages(std::size_t bytes);
  FreshPages(FreshPages&& other) noexcept;
  FreshPages& operator=(FreshPages&& other) noexcept;
  FreshPages(const FreshPages&) = delete;
  FreshPages& operator=(const FreshPages&) = delete;
  ~FreshPages();

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  void release() noexcept;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Minor page faults this process has taken so far (getrusage).
long minor_page_faults();

}  // namespace h2d
