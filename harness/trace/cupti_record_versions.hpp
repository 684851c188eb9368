#pragma once

namespace h2d {

// Which version of each CUPTI activity record struct a toolkit delivers (its header's
// "corresponding activity record structure" for the kind): CUPTI appends fields in new versions
// (CUpti_ActivityMemcpy5 -> 6, CUpti_ActivityKernel8 -> 9 -> 10) and keeps the leading ones in
// place. harness/cuda/cupti_records.hpp names the structs; this is the table it follows, keyed by
// CUDA_VERSION (CUPTI_API_VERSION cannot tell 11.8 from 12.0 and 12.1: all three are 18).
struct CuptiRecordVersions {
  int memcpy = 0;  // CUPTI_ACTIVITY_KIND_MEMCPY: CUpti_ActivityMemcpyN
  int memset = 0;  // CUPTI_ACTIVITY_KIND_MEMSET: CUpti_ActivityMemsetN
  int kernel = 0;  // CUPTI_ACTIVITY_KIND_(CONCURRENT_)KERNEL: CUpti_ActivityKernelN
};

// `cuda_version` as cuda.h's CUDA_VERSION: 11080 for 11.8, 12040 for 12.4, 13000 for 13.0.
constexpr CuptiRecordVersions cupti_record_versions(int cuda_version) {
  if (cuda_version >= 13000) {
    return {6, 4, 10};
  }
  if (cuda_version >= 12080) {
    return {6, 4, 9};
  }
  if (cuda_version >= 12000) {
    return {5, 4, 9};
  }
  return {5, 4, 8};  // 11.8, the oldest toolkit h2dbench builds with
}

}  // namespace h2d
