#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace h2d_test {

// Checks an NVTX recording made by tests/nvtx_recorder (loaded into an h2dbench run through
// NVTX_INJECTION64_PATH) against that run's report, as a Nsight Systems user would read it:
//  - the `h2dbench` domain exists and names every category as harness/trace/nvtx.hpp does;
//  - pushes and pops balance on every thread, in every domain;
//  - every case of the report has a range named exactly as its run_name, and every case range is
//    a case of the report; case ranges are outermost on their thread;
//  - every other h2dbench range (a phase) nests inside a case range on its thread, or, on a
//    worker thread, lies within a case range's time;
//  - h2dbench ranges carry their category's colour; copy ranges carry their bytes as payload;
//  - every thread that pushed h2dbench ranges was named (nvtxNameOsThread).
// Returns one line per problem; empty when the timeline is right.
std::vector<std::string> check_nvtx_recording(const nlohmann::json& recording,
                                              const nlohmann::json& report);

}  // namespace h2d_test
