#pragma once

#include <string_view>

namespace h2d {

// Whether a CUDA runtime error code (cudaError_t as an int, so pure code can ask) leaves the
// process's CUDA context unusable: every later call fails with the same error until the process
// ends. The list is the codes whose documentation says "the process must be terminated and
// relaunched" (CUDA Runtime API, enum cudaError, driver_types.h of CUDA 13.0):
// cudaErrorIllegalAddress 700, cudaErrorLaunchTimeout 702, cudaErrorAssert 710,
// cudaErrorHardwareStackError 714, cudaErrorIllegalInstruction 715, cudaErrorMisalignedAddress
// 716, cudaErrorInvalidAddressSpace 717, cudaErrorInvalidPc 718, cudaErrorLaunchFailure 719,
// cudaErrorTensorMemoryLeak 721, cudaErrorMpsClientTerminated 810, cudaErrorExternalDevice 911,
// cudaErrorContained 226. Numbers, not enumerators, because some are newer than CUDA 11.8.
bool is_sticky_cuda_error(int code);

// The line printed once, and the reason given to every GPU case left, after a sticky error.
std::string_view sticky_error_consequence();

}  // namespace h2d
