#pragma once

// CUDA's function execution space specifiers (Programming Guide, "Function Execution Space
// Specifiers") for g++ compiling kernels/ as C++: every function is plain host code. Defined before
// any toolkit header, because crt/host_defines.h then keeps these instead of defining its
// __attribute__((host)) forms, which g++ would warn about in our (non-system) sources.
#if defined(__HOST_DEFINES_H__)
#error "include sim/device/device_language.hpp before any CUDA header"
#endif

#define __host__
#define __device__
#define __global__
// The definition crt/host_defines.h gives for g++ as well.
#define __forceinline__ __inline__ __attribute__((always_inline))
