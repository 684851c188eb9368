#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "sim/runtime/config.hpp"
#include "sim/runtime/copy_engine.hpp"
#include "sim/runtime/stream.hpp"

namespace h2d::sim {

enum class Direction { h2d, d2h };

// One simulated GPU: its identity, copy engines and link, memory budget, streams and the legacy
// default stream's ordering, peer access, and the sticky error that ends its context.
class Device {
 public:
  Device(int ordinal, const Config& config, std::string bus_id, double link_bytes_per_s);
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  int ordinal() const { return ordinal_; }
  const std::string& name() const { return name_; }
  const std::string& bus_id() const { return bus_id_; }
  const cudaUUID_t& uuid() const { return uuid_; }
  int copy_engines() const { return config_.copy_engines; }
  const Config& config() const { return config_; }

  // H2D on engine 0; D2H on engine 1 when there are two, else on the same one.
  CopyEngine& engine(Direction direction);
  // Pinned rate, or the pageable fraction of it, capped by the device's own link.
  double bytes_per_s(Direction direction, bool pageable) const;
  std::vector<UplinkDirection*> uplinks(Direction direction) const;
  void add_uplink(Uplink* uplink) { uplinks_.push_back(uplink); }

  // Device memory budget (totalGlobalMem): false when `bytes` do not fit.
  bool reserve(std::uint64_t bytes);
  void unreserve(std::uint64_t bytes);

  // cudaSuccess until a sticky error happened on this device; then that error, forever.
  cudaError_t sticky_error() const { return sticky_.load(); }
  void set_sticky_error(cudaError_t error);

  StreamPtr legacy_stream() const { return legacy_; }
  StreamPtr create_stream(StreamKind kind, unsigned flags);
  // Queues `work` on `stream` (of this device) with the legacy default stream's rules
  // (Programming Guide, "Default Stream" / Runtime API "Stream synchronization behavior"): work on
  // the legacy stream waits for all work queued before it on the device's blocking streams, and
  // work queued on a blocking stream waits for the legacy stream's earlier work. Non-blocking
  // streams (cudaStreamNonBlocking) do neither.
  CompletionPtr submit(Stream& stream, Work work);
  // Returns when all work queued on the device so far has completed.
  void wait_idle();

  // Peer access this device enabled (cudaDeviceEnablePeerAccess from this device's context).
  bool peer_enabled(int peer) const;
  cudaError_t enable_peer(int peer);
  cudaError_t disable_peer(int peer);

 private:
  std::vector<StreamPtr> live_streams();

  const int ordinal_;
  const Config config_;
  const std::string name_;
  const std::string bus_id_;
  const double link_bytes_per_s_;  // 0: not limited by a link
  cudaUUID_t uuid_{};
  std::array<CopyEngine, 2> engines_;
  std::vector<Uplink*> uplinks_;
  std::atomic<std::uint64_t> used_bytes_{0};
  std::atomic<cudaError_t> sticky_{cudaSuccess};
  StreamPtr legacy_;
  std::mutex ordering_mutex_;  // submit: the legacy stream's dependencies and the queue agree
  std::vector<std::weak_ptr<Stream>> streams_;
  mutable std::mutex peer_mutex_;
  std::set<int> peers_;
};

}  // namespace h2d::sim
