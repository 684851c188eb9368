#pragma once

#include <string>
#include <vector>

#include "harness/core/device_info.hpp"

namespace h2d {

// H2D_CUDA_ARCHITECTURES as this build was configured ("90", "75,80,86,90", "native"); "" in
// the sim backend.
std::string built_cuda_architectures();

// Whether this build's kernels run on `device`: cudaFuncGetAttributes on the latch kernel finds
// SASS for its architecture or PTX the driver can compile for it.
bool has_kernel_image(int device);

// At startup: throws UsageError (exit 2) with missing_kernel_image_message for the first of
// `gpus` this build cannot run on, before any case fails with "no kernel image is available".
void require_kernel_images(const std::vector<DeviceInfo>& gpus);

}  // namespace h2d
