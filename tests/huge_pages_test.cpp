// Huge pages for host buffers (h2d/memory pages=huge): what a buffer gets and how much of it huge
// pages back, read from the kernel's own accounting.

#include "harness/host/huge_pages.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "harness/core/case_skipped.hpp"

namespace h2d {
namespace {

std::string thp_setting() {
  std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(file, line);
  return line;
}

TEST(HugePages, AMappingWithoutThemHasNoneAndAnUnmappedAddressNone) {
  const std::size_t bytes = std::size_t{64} << 10;
  void* small = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(small, MAP_FAILED);
  std::memset(small, 1, bytes);
  EXPECT_EQ(anon_huge_page_bytes(small), 0u) << "64 KiB cannot hold a huge page";
  munmap(small, bytes);
  EXPECT_EQ(anon_huge_page_bytes(nullptr), 0u);
}

// Where the kernel offers transparent huge pages (madvise or always), a buffer gets them, starts on
// a huge-page boundary, holds what is written, and says how much of it they back; where it offers
// neither kind, the buffer is a skip that names both settings.
TEST(HugePages, ABufferIsOnHugePagesOrASkipNamingWhy) {
  const std::size_t bytes = std::size_t{8} << 20;
  try {
    HugePageBuffer buffer(bytes);
    ASSERT_GT(huge_page_bytes(), 0u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.data()) % huge_page_bytes(), 0u);
    std::memset(buffer.data(), 0x5a, bytes);
    EXPECT_EQ(buffer.data()[bytes - 1], std::byte{0x5a});
    EXPECT_GE(buffer.huge_pct(), 0);
    EXPECT_LE(buffer.huge_pct(), 100);
    if (buffer.source() == HugePageSource::transparent) {
      EXPECT_EQ(buffer.huge_pct(), 100.0 *
                                       static_cast<double>(anon_huge_page_bytes(buffer.data())) /
                                       static_cast<double>(bytes));
    }
    HugePageBuffer moved(std::move(buffer));
    EXPECT_EQ(moved.size(), bytes);
  } catch (const CaseSkipped& skipped) {
    EXPECT_NE(thp_setting().find("[never]"), std::string::npos)
        << "skipped with transparent huge pages on: " << skipped.what();
    EXPECT_NE(std::string(skipped.what()).find("HugePages_Free"), std::string::npos);
  }
}

}  // namespace
}  // namespace h2d
