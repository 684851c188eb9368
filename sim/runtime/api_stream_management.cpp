// Runtime API, "Stream Management".
#include <cuda_runtime_api.h>

#include "sim/runtime/api_support.hpp"
#include "sim/runtime/runtime_call.hpp"

using namespace h2d::sim;

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  if (pStream == nullptr || (flags != cudaStreamDefault && flags != cudaStreamNonBlocking)) {
    return fail(cudaErrorInvalidValue);
  }
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  if (const FaultEffect fault = injected("cudaStreamCreateWithFlags", device);
      fault.error != cudaSuccess) {
    return fault.error;
  }
  StreamPtr stream = device->create_stream(StreamKind::created, flags);
  *pStream = static_cast<cudaStream_t>(runtime().streams.add(std::move(stream)));
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
  return cudaStreamCreateWithFlags(pStream, cudaStreamDefault);
}

// "In case the device is still doing work in the stream when cudaStreamDestroy() is called, the
// function will return immediately and the resources ... released ... once the device has
// completed all work in stream."
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  StreamPtr removed = runtime().streams.remove(stream);
  if (removed == nullptr) {
    return fail(cudaErrorInvalidResourceHandle);
  }
  removed->close();
  return sticky(*runtime().device(removed->device()));
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  RuntimeCall call("cudaStreamSynchronize");
  StreamPtr resolved;
  Device* device = nullptr;
  if (const cudaError_t error = resolve_stream(stream, resolved, device); error != cudaSuccess) {
    return error;
  }
  call.set_device(device->ordinal());
  // The legacy stream's last work already waits for the blocking streams' earlier work.
  resolved->last()->wait();
  return sticky(*device);
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  RuntimeCall call("cudaStreamQuery");
  StreamPtr resolved;
  Device* device = nullptr;
  if (const cudaError_t error = resolve_stream(stream, resolved, device); error != cudaSuccess) {
    return error;
  }
  call.set_device(device->ordinal());
  return resolved->last()->done() ? cudaSuccess : cudaErrorNotReady;
}

// "Makes all future work submitted to stream wait for all work captured in event"; an event
// never recorded captures nothing. The event may belong to another device.
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  RuntimeCall call("cudaStreamWaitEvent");
  StreamPtr resolved;
  Device* device = nullptr;
  if (const cudaError_t error = resolve_stream(stream, resolved, device); error != cudaSuccess) {
    return error;
  }
  const std::shared_ptr<Event> found = runtime().events.find(event);
  if (found == nullptr) {
    return fail(cudaErrorInvalidResourceHandle);
  }
  if (flags != cudaEventWaitDefault && flags != cudaEventWaitExternal) {
    return fail(cudaErrorInvalidValue);
  }
  call.set_device(device->ordinal());
  Work wait;
  if (CompletionPtr recorded = found->recorded()) {
    wait.after.push_back(std::move(recorded));
  }
  device->submit(*resolved, std::move(wait));
  return cudaSuccess;
}
