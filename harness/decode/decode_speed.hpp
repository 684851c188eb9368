#pragma once

#include <string_view>

namespace h2d {

// libjpeg-turbo's accuracy options: `fast` is TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE (the fast
// integer IDCT and nearest-neighbour chroma upsampling, as tjbench -fastdct -fastupsample);
// `accurate` is the default (the accurate integer IDCT, smooth "fancy" upsampling), what Pillow
// and torchvision decode with.
enum class DecodeSpeed { accurate, fast };

std::string_view to_string(DecodeSpeed speed);
// The TurboJPEG flags for `speed`.
int turbojpeg_flags(DecodeSpeed speed);

}  // namespace h2d
