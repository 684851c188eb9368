#include "sim/runtime/api_support.hpp"

#include <map>

namespace h2d::sim {
namespace {

// The per-thread default streams of one thread, one per device; closed when the thread ends.
class PerThreadStreams {
 public:
  PerThreadStreams() = default;
  PerThreadStreams(const PerThreadStreams&) = delete;
  PerThreadStreams& operator=(const PerThreadStreams&) = delete;
  ~PerThreadStreams() {
    for (auto& [key, stream] : streams_) {
      stream->close();
    }
  }
  StreamPtr of(Device& device) {
    StreamPtr& stream = streams_[{&device, device.ordinal()}];
    if (stream == nullptr) {
      stream = device.create_stream(StreamKind::per_thread, 0);
    }
    return stream;
  }

 private:
  std::map<std::pair<const Device*, int>, StreamPtr> streams_;
};

thread_local PerThreadStreams per_thread_streams;

}  // namespace

cudaError_t current_device(Device*& device) {
  device = runtime().device(current_device_ordinal());
  if (device == nullptr) {
    return fail(runtime().device_count() == 0 ? cudaErrorNoDevice : cudaErrorInvalidDevice);
  }
  return sticky(*device);
}

cudaError_t sticky(const Device& device) {
  return fail(device.sticky_error());
}

cudaError_t resolve_stream(cudaStream_t handle, StreamPtr& stream, Device*& device) {
  if (handle == nullptr || handle == cudaStreamLegacy || handle == cudaStreamPerThread) {
    if (const cudaError_t error = current_device(device); error != cudaSuccess) {
      return error;
    }
    stream =
        handle == cudaStreamPerThread ? per_thread_streams.of(*device) : device->legacy_stream();
    return cudaSuccess;
  }
  stream = runtime().streams.find(handle);
  if (stream == nullptr) {
    return fail(cudaErrorInvalidResourceHandle);
  }
  device = runtime().device(stream->device());
  return sticky(*device);
}

FaultEffect injected(const char* function, Device* device) {
  FaultEffect effect = runtime().faults.on_call(function);
  if (effect.error != cudaSuccess) {
    if (device != nullptr && is_sticky(effect.error)) {
      device->set_sticky_error(effect.error);
    }
    fail(effect.error);
  }
  return effect;
}

void wait_if_launch_blocking(const CompletionPtr& work) {
  if (runtime().config().launch_blocking) {
    work->wait();
  }
}

void wait_all_devices_idle() {
  Runtime& sim = runtime();
  for (int ordinal = 0; ordinal < sim.device_count(); ++ordinal) {
    sim.device(ordinal)->wait_idle();
  }
}

}  // namespace h2d::sim
