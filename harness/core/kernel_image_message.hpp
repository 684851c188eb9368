#pragma once

#include <string>

#include "harness/core/device_info.hpp"

namespace h2d {

// The line h2dbench refuses a GPU with when this build holds no kernel it can run (a build
// configured without a visible GPU targets a portable list that starts at sm_75, so a GTX 1080 Ti,
// sm_61, would fail every GPU case with "no kernel image is available"). Names the GPU, its
// compute capability, what was built, and the exact rebuild. `built_architectures` is
// H2D_CUDA_ARCHITECTURES as configured ("75,80,86,90", "native", "" when unknown).
std::string missing_kernel_image_message(const DeviceInfo& gpu,
                                         const std::string& built_architectures);

}  // namespace h2d
