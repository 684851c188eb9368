#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace h2d::sim {

// One direction of a PCIe link that several GPUs share (a switch's uplink). Copies through it at
// the same time share its rate fairly: each gets rate / active. PCIe is full duplex, so H2D and
// D2H each have their own.
class UplinkDirection {
 public:
  explicit UplinkDirection(double bytes_per_s) : bytes_per_s_(bytes_per_s) {}
  void join() { ++active_; }
  void leave() { --active_; }
  // What one of the active copies gets now.
  double share_bytes_per_s() const {
    const int active = active_.load();
    return active <= 1 ? bytes_per_s_ : bytes_per_s_ / active;
  }

 private:
  const double bytes_per_s_;
  std::atomic<int> active_{0};
};

struct Uplink {
  Uplink(std::string bridge_bus_id, double bytes_per_s)
      : bus_id(std::move(bridge_bus_id)), h2d(bytes_per_s), d2h(bytes_per_s) {}
  std::string bus_id;  // the switch port whose upstream link it is
  UplinkDirection h2d, d2h;
};

}  // namespace h2d::sim
