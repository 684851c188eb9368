#pragma once

#include <cuda_runtime_api.h>

#include <string_view>

namespace h2d::sim {

// Runtime API "Error Handling": every call that fails records its error as the calling thread's
// last error, which cudaGetLastError returns and resets (cudaPeekAtLastError only returns).
// cudaErrorNotReady is "not actually an error" (cudaError docs) and is never recorded.
cudaError_t fail(cudaError_t error);

// The thread's last error, and whether to reset it.
cudaError_t last_error(bool reset);

// cudaGetErrorName/String for every enumerator of the toolkit (error_table.inc).
const char* error_name(cudaError_t error);
const char* error_string(cudaError_t error);
// The enumerator called `name` ("cudaErrorMemoryAllocation"); false when there is none.
bool error_from_name(std::string_view name, cudaError_t& error);

// Errors that corrupt the context on hardware ("sticky": every later call on the device returns
// them until the process ends), per the cudaError docs ("the process must be terminated").
bool is_sticky(cudaError_t error);

}  // namespace h2d::sim
