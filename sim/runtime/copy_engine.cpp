#include "sim/runtime/copy_engine.hpp"

#include <algorithm>

#include "sim/runtime/clock.hpp"

namespace h2d::sim {
namespace {

// How often a copy looks again at how many share its uplinks, and lands what it carried since.
constexpr std::uint64_t kStepNs = 500'000;

double rate_now(const TransferLeg& leg) {
  double rate = leg.bytes_per_s;
  for (const UplinkDirection* uplink : leg.uplinks) {
    rate = std::min(rate, uplink->share_bytes_per_s());
  }
  return rate;
}

}  // namespace

std::uint64_t CopyEngine::acquire(std::uint64_t ready_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  freed_.wait(lock, [this] { return !busy_; });
  busy_ = true;
  return std::max(ready_ns, free_at_ns_);
}

void CopyEngine::release(std::uint64_t end_ns) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    busy_ = false;
    free_at_ns_ = end_ns;
  }
  freed_.notify_one();
}

CopyEngine::Span CopyEngine::carry(const TransferLeg& leg, std::uint64_t bytes,
                                   std::uint64_t ready_ns, std::uint64_t latency_ns,
                                   std::uint64_t extra_ns, const Carried& carried) {
  const std::uint64_t start_ns = acquire(ready_ns);
  double position_ns = static_cast<double>(start_ns + latency_ns + extra_ns);
  double remaining = static_cast<double>(bytes);
  for (UplinkDirection* uplink : leg.uplinks) {
    uplink->join();
  }
  sleep_until_ns(static_cast<std::uint64_t>(position_ns));
  // Short steps at the rate the link gives now (its fair share of the uplinks), landing each
  // step's bytes once the model has carried them.
  while (remaining > 0) {
    const double rate = rate_now(leg);
    const double step_ns = std::min(remaining / rate * 1e9, static_cast<double>(kStepNs));
    remaining = std::max(0.0, remaining - step_ns * rate / 1e9);
    position_ns += step_ns;
    sleep_until_ns(static_cast<std::uint64_t>(position_ns));
    if (carried && remaining > 0) {
      carried(bytes - static_cast<std::uint64_t>(remaining));
    }
  }
  const auto end_ns = static_cast<std::uint64_t>(position_ns);
  sleep_until_ns(end_ns);
  if (carried) {
    carried(bytes);
  }
  for (UplinkDirection* uplink : leg.uplinks) {
    uplink->leave();
  }
  release(end_ns);
  return {start_ns, end_ns};
}

}  // namespace h2d::sim
