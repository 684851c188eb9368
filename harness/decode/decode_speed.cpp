#include "harness/decode/decode_speed.hpp"

#include <turbojpeg.h>

namespace h2d {

std::string_view to_string(DecodeSpeed speed) {
  return speed == DecodeSpeed::fast ? "fast" : "accurate";
}

int turbojpeg_flags(DecodeSpeed speed) {
  return speed == DecodeSpeed::fast ? TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE : 0;
}

}  // namespace h2d
