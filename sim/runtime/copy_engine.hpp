#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "sim/runtime/uplink.hpp"

namespace h2d::sim {

// One leg of a modelled DMA: which engine carries it, at what rate, through which shared links.
struct TransferLeg {
  class CopyEngine* engine = nullptr;
  double bytes_per_s = 0;
  std::vector<UplinkDirection*> uplinks;
};

// A DMA copy engine. Copies on one engine run one after another (CUDA Programming Guide,
// "Overlap of Data Transfer and Kernel Execution" / asyncEngineCount): a copy starts when the
// engine is free and the copy's stream reached it.
class CopyEngine {
 public:
  // Carries `bytes` over `leg`, starting no earlier than `ready_ns`: sleeps until the modelled end
  // and returns it. `extra_ns` (an injected stall) and the per-copy latency come first. As the
  // modelled copy advances, `carried` (may be empty) is told how many bytes it has carried so far
  // (the last call: all of them), so the caller lands them as DMA would, while the copy runs and
  // never ahead of it: a host memcpy of the whole copy after its modelled end would make the next
  // work on the stream start late by the memcpy's real time. The calls come while the engine and
  // the shared uplinks are held: were they released first, another copy would have an uplink to
  // itself while this one's bytes land, and GPUs sharing an uplink would together carry more than
  // its rate.
  struct Span {
    std::uint64_t start_ns = 0, end_ns = 0;
  };
  using Carried = std::function<void(std::uint64_t carried_bytes)>;
  Span carry(const TransferLeg& leg, std::uint64_t bytes, std::uint64_t ready_ns,
             std::uint64_t latency_ns, std::uint64_t extra_ns, const Carried& carried);

 private:
  std::uint64_t acquire(std::uint64_t ready_ns);
  void release(std::uint64_t end_ns);

  std::mutex mutex_;
  std::condition_variable freed_;
  bool busy_ = false;
  // The modelled end of the engine's last copy: back-to-back copies start there, not when the
  // previous one's bytes finished landing, so pacing does not drift by the host memcpy time.
  std::uint64_t free_at_ns_ = 0;
};

}  // namespace h2d::sim
