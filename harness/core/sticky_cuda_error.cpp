#include "harness/core/sticky_cuda_error.hpp"

#include <algorithm>
#include <array>

namespace h2d {

bool is_sticky_cuda_error(int code) {
  static constexpr std::array<int, 13> kSticky{700, 702, 710, 714, 715, 716, 717,
                                               718, 719, 721, 810, 911, 226};
  return std::find(kSticky.begin(), kSticky.end(), code) != kSticky.end();
}

std::string_view sticky_error_consequence() {
  return "no CUDA call of this process can succeed any more, so the GPU cases left are skipped "
         "(host cases still run, the report is written)";
}

}  // namespace h2d
