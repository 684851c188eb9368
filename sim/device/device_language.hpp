#pragma once

// The device language for g++: force-included (-include) when the sim backend compiles
// kernels/*.cu as C++, so the kernels build from the same source as under nvcc. One concept per
// header below. __CUDA_ARCH__ stays undefined (this is host code), and volatile loads of mapped
// host memory are ordinary volatile loads.

#define H2D_SIM_DEVICE_LANGUAGE 1

#include "sim/device/qualifiers.hpp"  // first: before any toolkit header

#include "sim/device/atomics.hpp"
#include "sim/device/builtin_variables.hpp"
#include "sim/device/device_clock.hpp"
#include "sim/device/grid_launch.hpp"
#include "sim/device/warp_intrinsics.hpp"
