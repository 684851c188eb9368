#include "harness/host/fresh_pages.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

#include <new>
#include <utility>

namespace h2d {

FreshPages::FreshPages(std::size_t bytes) : bytes_(bytes) {
  void* pointer = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pointer == MAP_FAILED) {
    throw std::bad_alloc();
  }
  data_ = static_cast<std::byte*>(pointer);
}

FreshPages::FreshPages(FreshPages&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

FreshPages& FreshPages::operator=(FreshPages&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

FreshPages::~FreshPages() {
  release();
}

void FreshPages::release() noexcept {
  if (data_ != nullptr) {
    munmap(data_, bytes_);
    data_ = nullptr;
  }
}

long minor_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

}  // namespace h2d
