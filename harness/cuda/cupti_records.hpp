#pragma once

// The CUPTI activity record structs this toolkit delivers, named once for CUDA 11.8, 12.x and
// 13.x: the table is harness/trace/cupti_record_versions.hpp; here each struct is declared only
// for the toolkits whose cupti_activity.h defines it, so a table entry that names a struct the
// toolkit lacks fails to compile (scripts/ci/old-toolkits.sh builds with 11.8 and 12.4).

#include <cuda.h>
#include <cupti.h>

#include "harness/trace/cupti_record_versions.hpp"

namespace h2d::cupti_records {

inline constexpr CuptiRecordVersions kDelivered = cupti_record_versions(CUDA_VERSION);

template <int N>
struct Memcpy;  // ::type is CUpti_ActivityMemcpyN
template <>
struct Memcpy<5> {
  using type = CUpti_ActivityMemcpy5;
};
#if CUDA_VERSION >= 12080
template <>
struct Memcpy<6> {
  using type = CUpti_ActivityMemcpy6;
};
#endif

template <int N>
struct Memset;
template <>
struct Memset<4> {
  using type = CUpti_ActivityMemset4;
};

template <int N>
struct Kernel;
template <>
struct Kernel<8> {
  using type = CUpti_ActivityKernel8;
};
#if CUDA_VERSION >= 12000
template <>
struct Kernel<9> {
  using type = CUpti_ActivityKernel9;
};
#endif
#if CUDA_VERSION >= 13000
template <>
struct Kernel<10> {
  using type = CUpti_ActivityKernel10;
};
#endif

// What a buffer holds for each kind read here.
using DeliveredMemcpy = Memcpy<kDelivered.memcpy>::type;
using DeliveredMemset = Memset<kDelivered.memset>::type;
using DeliveredKernel = Kernel<kDelivered.kernel>::type;

}  // namespace h2d::cupti_records
