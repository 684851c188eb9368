#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/decode/decode_speed.hpp"
#include "harness/decode/image_set.hpp"
#include "harness/decode/jpeg_decoder.hpp"
#include "harness/host/thread_team.hpp"

namespace h2d {

// Decodes a list of images on a team of host threads, each with its own TurboJPEG instance, the
// images handed out one at a time (so images of different sizes balance): host/decode's work.
class TeamDecode {
 public:
  explicit TeamDecode(std::size_t threads);

  std::size_t threads() const { return team_.size(); }
  // Decodes images[i] into outputs[i] (images[i]->header.rgb_bytes() each). Returns the decode
  // time the threads spent, added up (seconds): per image it is the time one decode takes.
  double decode(const std::vector<const JpegImage*>& images,
                const std::vector<std::uint8_t*>& outputs, DecodeSpeed speed);

 private:
  ThreadTeam team_;
  std::vector<JpegDecoder> decoders_;
  std::vector<double> busy_s_;
};

}  // namespace h2d
