#pragma once

namespace h2d {

// Lets `device` reach `peer`'s memory directly (P2P over PCIe or NVLink) where the hardware allows,
// for the life of this object, and undoes only what it enabled itself. Where it cannot, copies
// between the two still work: the driver stages them through host memory.
class PeerAccess {
 public:
  PeerAccess(int device, int peer);
  PeerAccess(const PeerAccess&) = delete;
  PeerAccess& operator=(const PeerAccess&) = delete;
  ~PeerAccess();

  // Direct access is on (enabled here or already before).
  bool enabled() const { return enabled_; }

 private:
  int device_;
  int peer_;
  bool enabled_ = false;
  bool owned_ = false;
};

}  // namespace h2d
