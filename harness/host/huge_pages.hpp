#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace h2d {

// Where a buffer's huge pages come from: pages the machine reserved for hugetlbfs (MAP_HUGETLB),
// or transparent huge pages the kernel is asked for (madvise MADV_HUGEPAGE) and may or may not
// give.
enum class HugePageSource { hugetlb, transparent };
std::string_view to_string(HugePageSource source);

// A pageable host buffer on huge pages (2 MiB on x86-64), for the driver to look up fewer pages
// when it stages or registers it: hugetlbfs pages where enough are reserved and free, else
// transparent huge pages where the kernel's THP setting is not "never". Every page is touched
// here, so the kernel backs the buffer now. Throws CaseSkipped naming both settings when neither
// is available. Move-only; unmapped on destruction.
class HugePageBuffer {
 public:
  explicit HugePageBuffer(std::size_t bytes);
  HugePageBuffer(HugePageBuffer&& other) noexcept;
  HugePageBuffer& operator=(HugePageBuffer&&) = delete;
  HugePageBuffer(const HugePageBuffer&) = delete;
  HugePageBuffer& operator=(const HugePageBuffer&) = delete;
  ~HugePageBuffer();

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  HugePageSource source() const { return source_; }
  // The share of the buffer huge pages back now, in %: 100 for hugetlbfs; for transparent huge
  // pages what the kernel reports for the mapping (AnonHugePages in /proc/self/smaps), which can
  // be anything down to 0 when memory is fragmented.
  double huge_pct() const;

 private:
  std::byte* mapping_ = nullptr;  // what munmap gets back
  std::size_t mapped_ = 0;
  std::byte* data_ = nullptr;  // huge-page aligned within the mapping
  std::size_t bytes_ = 0;
  HugePageSource source_ = HugePageSource::transparent;
};

// The huge page size the kernel reports (Hugepagesize in /proc/meminfo), 0 when it reports none.
std::size_t huge_page_bytes();

// The bytes of transparent huge pages backing the mapping that holds `address` (its
// AnonHugePages line in /proc/self/smaps), 0 when none do or no mapping holds it.
std::size_t anon_huge_page_bytes(const void* address);

}  // namespace h2d
