#pragma once

// What H2D_LAUNCH (kernels/launch.cuh) becomes in the sim backend: the kernel's arguments are
// converted to its parameter types and copied at the launch, as CUDA does ("Execution
// Configuration"), and the grid is queued on the stream; the stream's worker runs it later.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sim/device/grid_runner.hpp"
#include "sim/runtime/kernel_queue.hpp"

namespace h2d::sim {

template <typename... Params>
class GridLaunch {
 public:
  using Kernel = void (*)(Params...);

  GridLaunch(Kernel kernel, const char* name, dim3 grid, dim3 block, cudaStream_t stream)
      : kernel_(kernel), name_(name), grid_(grid), block_(block), stream_(stream) {}

  template <typename... Args>
  void operator()(Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params), "a kernel launch passes every argument");
    std::tuple<std::decay_t<Params>...> values(std::forward<Args>(args)...);
    enqueue_kernel(stream_, name_,
                   [kernel = kernel_, name = name_, grid = grid_, block = block_, values] {
                     run_grid(name, grid, block, [&] { std::apply(kernel, values); });
                   });
  }

 private:
  Kernel kernel_;
  const char* name_;
  dim3 grid_, block_;
  cudaStream_t stream_;
};

template <typename... Params>
GridLaunch<Params...> launch_grid(void (*kernel)(Params...), const char* name, dim3 grid,
                                  dim3 block, std::size_t shared_bytes, cudaStream_t stream) {
  if (shared_bytes != 0) {
    std::fprintf(stderr, "h2d sim: kernel %s asks for dynamic shared memory, not modelled\n", name);
    std::abort();
  }
  return GridLaunch<Params...>(kernel, name, grid, block, stream);
}

}  // namespace h2d::sim
