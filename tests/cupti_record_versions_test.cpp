#include "harness/trace/cupti_record_versions.hpp"

#include <gtest/gtest.h>

#include <string>

namespace h2d {
namespace {

std::string text(const CuptiRecordVersions& versions) {
  return "Memcpy" + std::to_string(versions.memcpy) + " Memset" + std::to_string(versions.memset) +
         " Kernel" + std::to_string(versions.kernel);
}

// Read off each toolkit's cupti_activity.h: the struct its documentation names for
// CUPTI_ACTIVITY_KIND_MEMCPY, _MEMSET and _CONCURRENT_KERNEL (the newest one it defines).
TEST(CuptiRecordVersions, FollowEachToolkitsHeaders) {
  EXPECT_EQ(text(cupti_record_versions(11080)), "Memcpy5 Memset4 Kernel8");   // 11.8
  EXPECT_EQ(text(cupti_record_versions(12000)), "Memcpy5 Memset4 Kernel9");   // 12.0: Kernel9
  EXPECT_EQ(text(cupti_record_versions(12040)), "Memcpy5 Memset4 Kernel9");   // 12.4
  EXPECT_EQ(text(cupti_record_versions(12060)), "Memcpy5 Memset4 Kernel9");   // 12.6
  EXPECT_EQ(text(cupti_record_versions(12080)), "Memcpy6 Memset4 Kernel9");   // 12.8: Memcpy6
  EXPECT_EQ(text(cupti_record_versions(12090)), "Memcpy6 Memset4 Kernel9");   // 12.9
  EXPECT_EQ(text(cupti_record_versions(13000)), "Memcpy6 Memset4 Kernel10");  // 13.0: Kernel10
}

}  // namespace
}  // namespace h2d
