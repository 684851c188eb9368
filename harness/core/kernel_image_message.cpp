#include "harness/core/kernel_image_message.hpp"

#include <fmt/format.h>

namespace h2d {

std::string missing_kernel_image_message(const DeviceInfo& gpu,
                                         const std::string& built_architectures) {
  const std::string built =
      built_architectures.empty()
          ? std::string()
          : fmt::format(" (built for CUDA architectures {})", built_architectures);
  return fmt::format(
      "GPU {} ({}, compute capability {}.{}) cannot run this build's kernels{}: rebuild with "
      "-DH2D_CUDA_ARCHITECTURES={}{} (e.g. cmake --preset release -DH2D_CUDA_ARCHITECTURES={}{}), "
      "or leave the GPU out with --devices",
      gpu.ordinal, gpu.name, gpu.cc_major, gpu.cc_minor, built, gpu.cc_major, gpu.cc_minor,
      gpu.cc_major, gpu.cc_minor);
}

}  // namespace h2d
