#pragma once

#include <cstdint>

namespace h2d {

// A fault a test makes a loader worker process commit, so the main process's checks of what
// crosses the socket are seen to bite (tests/process_pipeline_test.cpp). It is read from the
// environment variable kLoaderFaultVariable, which nothing but the tests sets; unset, a worker
// commits none.
enum class LoaderFault {
  none,
  slot_out_of_range,   // shm=reused: the reply names a ring slot past the ring's end
  short_segment,       // shm=fresh: the images segment is cut to half its size before it is sent
  shared_memory_full,  // shm=fresh: making the batch's segments finds /dev/shm full
  swapped_segments,    // shm=fresh: the first two segments are sent in each other's place
};

inline constexpr char kLoaderFaultVariable[] = "H2D_TEST_LOADER_FAULT";
// A worker commits its fault from this batch on: earlier batches cross intact, so the fault comes
// mid-run, after every start-up check.
inline constexpr std::uint64_t kLoaderFaultFirstBatch = 3;

// The fault `text` names (null or empty: none); throws std::invalid_argument naming the valid ones.
LoaderFault parse_loader_fault(const char* text);

}  // namespace h2d
