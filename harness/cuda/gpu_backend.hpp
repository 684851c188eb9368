#pragma once

#include <string_view>

namespace h2d {

// Which CUDA runtime this binary was linked with: "cuda" (the real one) or "simulated" (sim/,
// tests only). The build sets it where it chooses the runtime (h2d_cuda_runtime in the top
// CMakeLists.txt); nothing measures differently because of it, it only labels what comes out, so
// a simulated number can never pass for a real machine's.
inline constexpr std::string_view kGpuBackend = H2D_GPU_BACKEND_NAME;

constexpr bool gpu_backend_is_simulated() {
  return kGpuBackend == "simulated";
}

// Where reports go unless --out says otherwise: results/ holds real machines' reports only.
constexpr std::string_view default_report_folder() {
  return gpu_backend_is_simulated() ? "simulated-results" : "results";
}

}  // namespace h2d
