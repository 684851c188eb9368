#pragma once

// One way to launch a kernel, whichever compiler builds kernels/:
//   H2D_LAUNCH(kernel, grid, block, shared_bytes, stream)(args...);
// Under nvcc it is exactly kernel<<<grid, block, shared_bytes, stream>>>(args...). In the sim
// backend g++ compiles kernels/ as C++ with the sim's device language (sim/device/), and the
// same line queues the grid on the simulated stream. Launchers report launch_status() as before.
#if defined(__CUDACC__)
#define H2D_LAUNCH(kernel, grid, block, shared_bytes, stream) \
  kernel<<<grid, block, shared_bytes, stream>>>
#elif defined(H2D_SIM_DEVICE_LANGUAGE)
#define H2D_LAUNCH(kernel, grid, block, shared_bytes, stream) \
  ::h2d::sim::launch_grid(kernel, #kernel, grid, block, shared_bytes, stream)
#else
#error "kernels/ compile with nvcc, or in the sim backend with sim/device/device_language.hpp"
#endif
