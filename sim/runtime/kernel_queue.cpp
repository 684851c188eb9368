#include "sim/runtime/kernel_queue.hpp"

#include <utility>

#include "sim/runtime/api_support.hpp"
#include "sim/runtime/clock.hpp"
#include "sim/runtime/runtime_call.hpp"

namespace h2d::sim {

// A launch is stream work like a copy; it runs on the stream's worker and overlaps copies and
// kernels of other streams. An injected sticky error (kernel:NAME#N=cudaErrorIllegalAddress)
// happens as on hardware: the launch succeeds and the device fails when the kernel runs, so the
// next synchronizing call reports it. Other injected errors fail the launch itself.
cudaError_t enqueue_kernel(cudaStream_t stream, std::string name, std::function<void()> body) {
  RuntimeCall record("cudaLaunchKernel");
  StreamPtr resolved;
  Device* device = nullptr;
  if (const cudaError_t error = resolve_stream(stream, resolved, device); error != cudaSuccess) {
    return error;
  }
  record.set_device(device->ordinal());
  FaultEffect fault = runtime().faults.on_call("kernel:" + name);
  if (fault.error != cudaSuccess && !is_sticky(fault.error)) {
    return fail(fault.error);
  }
  Work work;
  work.run = [device, name = std::move(name), body = std::move(body), fault,
              stream_id = resolved->id(), correlation = record.correlation_id()](std::uint64_t) {
    const std::uint64_t start_ns = clock_ns();
    if (fault.stall_ns > 0) {
      sleep_until_ns(start_ns + fault.stall_ns);
    }
    if (fault.error != cudaSuccess) {
      device->set_sticky_error(fault.error);
    } else if (device->sticky_error() == cudaSuccess) {
      body();
    }
    Activity activity;
    activity.type = ActivityType::kernel;
    activity.start_ns = start_ns;
    const std::uint64_t end_ns = clock_ns();
    activity.end_ns = end_ns;
    activity.device = device->ordinal();
    activity.stream_id = stream_id;
    activity.correlation_id = correlation;
    activity.name = name;
    record_activity(std::move(activity));
    return end_ns;
  };
  wait_if_launch_blocking(device->submit(*resolved, std::move(work)));
  return cudaSuccess;
}

}  // namespace h2d::sim
