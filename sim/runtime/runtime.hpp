#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "sim/runtime/config.hpp"
#include "sim/runtime/device.hpp"
#include "sim/runtime/event.hpp"
#include "sim/runtime/faults.hpp"
#include "sim/runtime/handle_table.hpp"
#include "sim/runtime/memory_registry.hpp"
#include "sim/runtime/uplink.hpp"

namespace h2d::sim {

// Everything the simulated driver knows: the machine (from the configuration), its memory,
// handles and fault plan. Built at the first CUDA call.
class Runtime {
 public:
  explicit Runtime(Config config);
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const Config& config() const { return config_; }
  int device_count() const { return static_cast<int>(devices_.size()); }
  // nullptr for an ordinal that is not a device.
  Device* device(int ordinal) const;
  // H2D_SIM_PEER: whether `device` can be given access to `peer` (cudaDeviceCanAccessPeer).
  bool can_access_peer(int device, int peer) const;
  // Either device enabled access to the other: copies between them go directly.
  bool peer_path(int a, int b) const;

  MemoryRegistry memory;
  FaultPlan faults;
  HandleTable<Stream> streams;
  HandleTable<Event> events;

 private:
  const Config config_;
  std::vector<std::unique_ptr<Uplink>> uplinks_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<std::vector<bool>> peer_allowed_;
};

// The process's runtime (never destroyed: stream workers outlive static destruction).
Runtime& runtime();

// The calling thread's current device (cudaSetDevice), as an ordinal.
int current_device_ordinal();
void set_current_device_ordinal(int ordinal);

namespace testing {
// Builds a fresh runtime from the environment as it is now (tests of other configurations).
// Earlier handles become invalid; the old runtime's workers finish and stay parked.
void reconfigure_from_environment();
}  // namespace testing

}  // namespace h2d::sim
