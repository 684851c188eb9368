#pragma once

// The sim's activity log entries written as the toolkit's CUPTI records (cupti_activity.h: the
// newest version of each that CUDA 13 defines), so code that reads real CUPTI buffers reads these.

#include <cupti.h>

#include <cstddef>
#include <cstdint>

#include "sim/runtime/activity_log.hpp"

namespace h2d::sim::cupti {

// The CUPTI activity kind an entry is recorded as (the caller decides whether it is enabled).
CUpti_ActivityKind record_kind(const Activity& activity, bool concurrent_kernels);

// The bytes the record of `kind` takes in a buffer (a multiple of 8: records stay aligned).
std::size_t record_bytes(CUpti_ActivityKind kind);

// Writes the record of `activity` as `kind` at `at`, which has record_bytes(kind) bytes.
void write_record(const Activity& activity, CUpti_ActivityKind kind, std::uint8_t* at);

}  // namespace h2d::sim::cupti
