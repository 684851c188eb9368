// Runtime API, "Event Management".
#include <cuda_runtime_api.h>

#include "sim/runtime/api_support.hpp"
#include "sim/runtime/runtime_call.hpp"

using namespace h2d::sim;

namespace {

cudaError_t find_event(cudaEvent_t handle, std::shared_ptr<Event>& event) {
  event = runtime().events.find(handle);
  if (event == nullptr) {
    return fail(cudaErrorInvalidResourceHandle);
  }
  return sticky(*runtime().device(event->device()));
}

}  // namespace

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  constexpr unsigned kKnown =
      cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (event == nullptr || (flags & ~kKnown) != 0 ||
      ((flags & cudaEventInterprocess) != 0 && (flags & cudaEventDisableTiming) == 0)) {
    return fail(cudaErrorInvalidValue);
  }
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  *event = static_cast<cudaEvent_t>(
      runtime().events.add(std::make_shared<Event>(device->ordinal(), flags)));
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return runtime().events.remove(event) != nullptr ? cudaSuccess
                                                   : fail(cudaErrorInvalidResourceHandle);
}

// The event's time is when its stream reaches it; "the stream and event must be on the same
// device" (else cudaErrorInvalidResourceHandle).
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  RuntimeCall call("cudaEventRecord");
  std::shared_ptr<Event> found;
  if (const cudaError_t error = find_event(event, found); error != cudaSuccess) {
    return error;
  }
  StreamPtr resolved;
  Device* device = nullptr;
  if (const cudaError_t error = resolve_stream(stream, resolved, device); error != cudaSuccess) {
    return error;
  }
  if (device->ordinal() != found->device()) {
    return fail(cudaErrorInvalidResourceHandle);
  }
  call.set_device(device->ordinal());
  found->set_recorded(device->submit(*resolved, Work{}));
  return cudaSuccess;
}

// "If cudaEventRecord() has not been called on this event, the function returns cudaSuccess."
cudaError_t cudaEventQuery(cudaEvent_t event) {
  RuntimeCall call("cudaEventQuery");
  std::shared_ptr<Event> found;
  if (const cudaError_t error = find_event(event, found); error != cudaSuccess) {
    return error;
  }
  const CompletionPtr recorded = found->recorded();
  return recorded == nullptr || recorded->done() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  RuntimeCall call("cudaEventSynchronize");
  std::shared_ptr<Event> found;
  if (const cudaError_t error = find_event(event, found); error != cudaSuccess) {
    return error;
  }
  call.set_device(found->device());
  if (const CompletionPtr recorded = found->recorded()) {
    recorded->wait();
  }
  return sticky(*runtime().device(found->device()));
}

// Milliseconds between two completed events. cudaErrorInvalidResourceHandle when either was never
// recorded or was made with cudaEventDisableTiming (or they lie on different devices);
// cudaErrorNotReady when either has not completed yet.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  std::shared_ptr<Event> first, second;
  if (const cudaError_t error = find_event(start, first); error != cudaSuccess) {
    return error;
  }
  if (const cudaError_t error = find_event(end, second); error != cudaSuccess) {
    return error;
  }
  const CompletionPtr from = first->recorded();
  const CompletionPtr to = second->recorded();
  if (from == nullptr || to == nullptr || !first->timing() || !second->timing() ||
      first->device() != second->device()) {
    return fail(cudaErrorInvalidResourceHandle);
  }
  if (!from->done() || !to->done()) {
    return cudaErrorNotReady;
  }
  const double from_ns = static_cast<double>(from->wait());
  const double to_ns = static_cast<double>(to->wait());
  *ms = static_cast<float>((to_ns - from_ns) / 1e6);
  return cudaSuccess;
}
