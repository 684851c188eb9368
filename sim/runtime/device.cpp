#include "sim/runtime/device.hpp"

#include <algorithm>
#include <cstdio>

namespace h2d::sim {
namespace {

constexpr std::uint32_t kLegacyStreamId = 1;

std::uint32_t next_stream_id() {
  static std::atomic<std::uint32_t> next{kLegacyStreamId + 1};
  return next++;
}

std::string device_name(int ordinal) {
  return "Simulated GPU " + std::to_string(ordinal) + " (h2dbench sim)";
}

// Distinct per device, and recognisable: the bytes spell "h2dbench sim" then the ordinal.
cudaUUID_t device_uuid(int ordinal) {
  cudaUUID_t uuid{};
  const char tag[] = "h2dbench sim";
  std::copy(tag, tag + 12, uuid.bytes);
  uuid.bytes[12] = 0;
  uuid.bytes[13] = 0;
  uuid.bytes[14] = static_cast<char>((ordinal >> 8) & 0xff);
  uuid.bytes[15] = static_cast<char>(ordinal & 0xff);
  return uuid;
}

}  // namespace

Device::Device(int ordinal, const Config& config, std::string bus_id, double link_bytes_per_s)
    : ordinal_(ordinal),
      config_(config),
      name_(device_name(ordinal)),
      bus_id_(std::move(bus_id)),
      link_bytes_per_s_(link_bytes_per_s),
      uuid_(device_uuid(ordinal)),
      legacy_(Stream::start(ordinal, StreamKind::legacy, 0, kLegacyStreamId)) {}

CopyEngine& Device::engine(Direction direction) {
  const bool second = direction == Direction::d2h && config_.copy_engines > 1;
  return engines_[second ? 1 : 0];
}

double Device::bytes_per_s(Direction direction, bool pageable) const {
  double rate = direction == Direction::h2d ? config_.h2d_bytes_per_s : config_.d2h_bytes_per_s;
  if (link_bytes_per_s_ > 0) {
    rate = std::min(rate, link_bytes_per_s_);
  }
  return pageable ? rate * config_.pageable_factor : rate;
}

std::vector<UplinkDirection*> Device::uplinks(Direction direction) const {
  std::vector<UplinkDirection*> result;
  for (Uplink* uplink : uplinks_) {
    result.push_back(direction == Direction::h2d ? &uplink->h2d : &uplink->d2h);
  }
  return result;
}

bool Device::reserve(std::uint64_t bytes) {
  std::uint64_t used = used_bytes_.load();
  do {
    if (bytes > config_.device_memory_bytes - used) {
      return false;
    }
  } while (!used_bytes_.compare_exchange_weak(used, used + bytes));
  return true;
}

void Device::unreserve(std::uint64_t bytes) {
  used_bytes_ -= bytes;
}

void Device::set_sticky_error(cudaError_t error) {
  cudaError_t expected = cudaSuccess;
  sticky_.compare_exchange_strong(expected, error);
}

StreamPtr Device::create_stream(StreamKind kind, unsigned flags) {
  StreamPtr stream = Stream::start(ordinal_, kind, flags, next_stream_id());
  std::lock_guard<std::mutex> lock(ordering_mutex_);
  streams_.erase(std::remove_if(streams_.begin(), streams_.end(),
                                [](const std::weak_ptr<Stream>& s) { return s.expired(); }),
                 streams_.end());
  streams_.push_back(stream);
  return stream;
}

CompletionPtr Device::submit(Stream& stream, Work work) {
  std::lock_guard<std::mutex> lock(ordering_mutex_);
  if (stream.kind() == StreamKind::legacy) {
    for (const std::weak_ptr<Stream>& weak : streams_) {
      if (const StreamPtr other = weak.lock(); other != nullptr && other->blocking()) {
        work.after.push_back(other->last());
      }
    }
  } else if (stream.blocking()) {
    work.after.push_back(legacy_->last());
  }
  return stream.push(std::move(work));
}

std::vector<StreamPtr> Device::live_streams() {
  std::vector<StreamPtr> live{legacy_};
  std::lock_guard<std::mutex> lock(ordering_mutex_);
  for (const std::weak_ptr<Stream>& weak : streams_) {
    if (StreamPtr stream = weak.lock()) {
      live.push_back(std::move(stream));
    }
  }
  return live;
}

void Device::wait_idle() {
  for (const StreamPtr& stream : live_streams()) {
    stream->last()->wait();
  }
}

bool Device::peer_enabled(int peer) const {
  std::lock_guard<std::mutex> lock(peer_mutex_);
  return peers_.count(peer) != 0;
}

cudaError_t Device::enable_peer(int peer) {
  std::lock_guard<std::mutex> lock(peer_mutex_);
  return peers_.insert(peer).second ? cudaSuccess : cudaErrorPeerAccessAlreadyEnabled;
}

cudaError_t Device::disable_peer(int peer) {
  std::lock_guard<std::mutex> lock(peer_mutex_);
  return peers_.erase(peer) != 0 ? cudaSuccess : cudaErrorPeerAccessNotEnabled;
}

}  // namespace h2d::sim
