#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace h2d {

// A batch on its way through an epoch's queues.
struct BatchTicket {
  std::uint64_t batch = 0;
  std::size_t slot = 0;  // in the pool of the stage that filled it last
  bool verify = false;
  std::vector<std::uint64_t> sums;  // per-sample checksums taken when produced (verify only)
  std::size_t bytes = 0;            // what the slot holds, from its start (copied by the pin stage)
  std::uint64_t bus_bytes = 0;      // of those, what the copy to the device moves
  // decode=gpu, verified: libjpeg-turbo's decode of sample config.checked_sample(batch)
  std::vector<std::uint8_t> reference;
};

}  // namespace h2d
