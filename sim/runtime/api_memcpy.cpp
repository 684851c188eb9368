// Runtime API, "Memory Management": copies and memsets, with the host-side behaviour of
// "API synchronization behavior" (Runtime API reference, section 2).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/runtime/api_support.hpp"
#include "sim/runtime/pageable_staging.hpp"
#include "sim/runtime/runtime_call.hpp"
#include "sim/runtime/transfer.hpp"

using namespace h2d::sim;

namespace {

enum class Api { sync, async };

struct CopyCall {
  const char* function;
  Api api;
  void* destination;
  const void* source;
  CopyShape shape;
  cudaMemcpyKind kind;
  cudaStream_t stream;
};

unsigned char* middle_byte(void* destination, const CopyShape& shape) {
  return static_cast<unsigned char*>(destination) + shape.height / 2 * shape.destination_pitch +
         shape.width / 2;
}

// Whether the calling thread waits for the copy to finish, per "API synchronization behavior":
// - sync cudaMemcpy: pinned H2D and any D2H return when done, D2D returns at once, H2H is fully
//   synchronous, pageable H2D returns once staged;
// - async: D2H to pageable memory is synchronous ("might be synchronous"; it is on every driver),
//   H2H is fully synchronous, everything else returns at once.
bool host_waits(const CopyRoute& route, Api api) {
  switch (route.kind) {
    case 0:
      return true;
    case 1:
      return api == Api::sync && !route.source.pageable();
    case 2:
      return api == Api::sync || route.destination.pageable();
    default:
      return false;
  }
}

// Queues `call` and waits as CUDA does. Peer copies pass `peer_staged` when no peer access lets
// them go directly, so they hold the caller until done (cudaMemcpyPeerAsync).
cudaError_t queue_copy(const CopyCall& call, RuntimeCall& record, bool peer_staged = false,
                       const CopyRoute* known_route = nullptr) {
  StreamPtr stream;
  Device* device = nullptr;
  if (const cudaError_t error = resolve_stream(call.stream, stream, device); error != cudaSuccess) {
    return error;
  }
  record.set_device(device->ordinal());
  const FaultEffect fault = injected(call.function, device);
  if (fault.error != cudaSuccess) {
    return fault.error;
  }
  Runtime& sim = runtime();
  CopyRoute route;
  if (known_route != nullptr) {
    route = *known_route;
  } else if (const cudaError_t error = route_copy(sim.memory, call.destination, call.source,
                                                  call.shape.destination_span(),
                                                  call.shape.source_span(), call.kind, route);
             error != cudaSuccess) {
    return fail(error);
  }
  if (call.shape.bytes() == 0) {
    return cudaSuccess;
  }
  Transfer transfer;
  transfer.route = route;
  transfer.bytes = call.shape.bytes();
  transfer.legs = legs_of(sim, route);
  transfer.stall_ns = fault.stall_ns;
  transfer.corrupt_byte = fault.corrupt ? middle_byte(call.destination, call.shape) : nullptr;
  transfer.device = device->ordinal();
  transfer.stream_id = stream->id();
  transfer.correlation_id = record.correlation_id();
  void* const destination = call.destination;
  const CopyShape shape = call.shape;
  const bool staged = route.kind == 1 && route.source.pageable();
  if (staged) {
    device->submit(*stream, Work{})->wait();  // "a stream sync is performed before the copy"
    const StagedSource staging(call.source, shape);
    transfer.land = [staging, destination](std::uint64_t begin, std::uint64_t end) {
      staging.land(destination, begin, end);
    };
  } else {
    const void* const source = call.source;
    transfer.land = [destination, source, shape](std::uint64_t begin, std::uint64_t end) {
      copy_rows(destination, source, shape, begin, end);
    };
  }
  const CompletionPtr done =
      device->submit(*stream, transfer_work(std::move(transfer), sim.config().latency_ns));
  if (peer_staged || host_waits(route, call.api)) {
    done->wait();
  } else {
    wait_if_launch_blocking(done);
  }
  return sticky(*device);
}

cudaError_t queue_memset(const char* function, void* destination, int value, std::size_t count,
                         cudaStream_t stream_handle) {
  RuntimeCall record(function);
  StreamPtr stream;
  Device* device = nullptr;
  if (const cudaError_t error = resolve_stream(stream_handle, stream, device);
      error != cudaSuccess) {
    return error;
  }
  record.set_device(device->ordinal());
  const FaultEffect fault = injected(function, device);
  if (fault.error != cudaSuccess) {
    return fault.error;
  }
  CopyRoute route;
  if (const cudaError_t error = copy_end(runtime().memory, destination, count, route.destination);
      error != cudaSuccess || route.destination.pageable()) {
    return fail(cudaErrorInvalidValue);
  }
  if (count == 0) {
    return cudaSuccess;
  }
  Transfer transfer;
  transfer.route = route;
  transfer.route.source.memory = HostMemory::none;
  transfer.bytes = count;
  transfer.stall_ns = fault.stall_ns;
  transfer.activity = ActivityType::memset;
  transfer.device = device->ordinal();
  transfer.stream_id = stream->id();
  transfer.correlation_id = record.correlation_id();
  transfer.land = [destination, value](std::uint64_t begin, std::uint64_t end) {
    std::memset(static_cast<unsigned char*>(destination) + begin, value, end - begin);
  };
  // "cudaMemset ... is asynchronous with respect to the host" for device memory; on pinned host
  // memory it is synchronous.
  const CompletionPtr done = device->submit(*stream, transfer_work(std::move(transfer), 0));
  if (!route.destination.on_device()) {
    done->wait();
  } else {
    wait_if_launch_blocking(done);
  }
  return sticky(*device);
}

CopyShape linear(std::size_t count) {
  return CopyShape{count, 1, count, count};
}

}  // namespace

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  RuntimeCall record("cudaMemcpy");
  return queue_copy({"cudaMemcpy", Api::sync, dst, src, linear(count), kind, cudaStreamLegacy},
                    record);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  RuntimeCall record("cudaMemcpyAsync");
  return queue_copy({"cudaMemcpyAsync", Api::async, dst, src, linear(count), kind, stream}, record);
}

// Runtime API cudaMemcpyBatchAsync (CUDA 12.8; 13.0 dropped failIdx): pointer-to-pointer copies,
// each with the attributes of the last attrsIdxs entry at or before it; the batch runs in stream
// order, its copies in any order among themselves (here: one after another). Every pointer, size
// and attribute is checked first, and nothing is queued unless all pass. A batch whose host
// sources are part page-locked and part pageable is cudaErrorInvalidValue, as the driver refuses
// it. Pageable sources are read as cudaMemcpyAsync reads them (staged when the copy is queued).
namespace {

cudaError_t queue_batch(void* const* dsts, const void* const* srcs, const size_t* sizes,
                        size_t count, const cudaMemcpyAttributes* attrs, const size_t* attrsIdxs,
                        size_t numAttrs, size_t* failIdx, cudaStream_t stream) {
  RuntimeCall record("cudaMemcpyBatchAsync");
  const auto refuse = [&](std::size_t copy) {
    if (failIdx != nullptr) {
      *failIdx = copy;
    }
    return fail(cudaErrorInvalidValue);
  };
  if (count == 0 || dsts == nullptr || srcs == nullptr || sizes == nullptr || attrs == nullptr ||
      attrsIdxs == nullptr || numAttrs == 0 || numAttrs > count || attrsIdxs[0] != 0) {
    return refuse(SIZE_MAX);
  }
  for (size_t a = 0; a < numAttrs; ++a) {
    const cudaMemcpySrcAccessOrder order = attrs[a].srcAccessOrder;
    const bool known = order == cudaMemcpySrcAccessOrderStream ||
                       order == cudaMemcpySrcAccessOrderDuringApiCall ||
                       order == cudaMemcpySrcAccessOrderAny;
    if (!known || (a > 0 && attrsIdxs[a] <= attrsIdxs[a - 1]) || attrsIdxs[a] >= count) {
      return refuse(attrsIdxs[a] < count ? attrsIdxs[a] : SIZE_MAX);
    }
  }
  std::vector<CopyRoute> routes(count);
  bool page_locked_host = false;
  bool pageable_host = false;
  for (size_t i = 0; i < count; ++i) {
    if (route_copy(runtime().memory, dsts[i], srcs[i], sizes[i], sizes[i], cudaMemcpyDefault,
                   routes[i]) != cudaSuccess) {
      return refuse(i);
    }
    if (!routes[i].source.on_device()) {
      (routes[i].source.pageable() ? pageable_host : page_locked_host) = true;
    }
    if (page_locked_host && pageable_host) {
      return refuse(i);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    const cudaError_t error = queue_copy({"cudaMemcpyBatchAsync", Api::async, dsts[i], srcs[i],
                                          linear(sizes[i]), cudaMemcpyDefault, stream},
                                         record, false, &routes[i]);
    if (error != cudaSuccess) {
      if (failIdx != nullptr) {
        *failIdx = i;
      }
      return error;
    }
  }
  return cudaSuccess;
}

}  // namespace

// Runtime API cudaMemPrefetchAsync: the migration of managed memory to a device or the host,
// modelled as a copy of its bytes on the engine of that direction that lands nothing (the memory
// is host memory throughout). A range outside one managed allocation is cudaErrorInvalidValue.
namespace {

cudaError_t queue_prefetch(const void* pointer, size_t count, bool to_device, int ordinal,
                           cudaStream_t stream_handle) {
  RuntimeCall record("cudaMemPrefetchAsync");
  StreamPtr stream;
  Device* device = nullptr;
  if (const cudaError_t error = resolve_stream(stream_handle, stream, device);
      error != cudaSuccess) {
    return error;
  }
  record.set_device(device->ordinal());
  Runtime& sim = runtime();
  const auto allocation = sim.memory.find(pointer);
  if (pointer == nullptr || !allocation || allocation->kind != MemoryKind::managed ||
      !allocation->contains(pointer, count)) {
    return fail(cudaErrorInvalidValue);
  }
  if (to_device && (ordinal < 0 || ordinal >= sim.device_count())) {
    return fail(cudaErrorInvalidDevice);
  }
  if (count == 0) {
    return cudaSuccess;
  }
  const CopyEnd host{HostMemory::pinned, -1};
  const CopyEnd on_device{HostMemory::device, to_device ? ordinal : device->ordinal()};
  Transfer transfer;
  transfer.route.kind = to_device ? 1 : 2;
  transfer.route.source = to_device ? host : on_device;
  transfer.route.destination = to_device ? on_device : host;
  transfer.bytes = count;
  transfer.legs = legs_of(sim, transfer.route);
  transfer.land = [](std::uint64_t, std::uint64_t) {};
  transfer.device = device->ordinal();
  transfer.stream_id = stream->id();
  transfer.correlation_id = record.correlation_id();
  wait_if_launch_blocking(
      device->submit(*stream, transfer_work(std::move(transfer), sim.config().latency_ns)));
  return sticky(*device);
}

}  // namespace

#if CUDART_VERSION >= 13000
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  if (flags != 0 ||
      (location.type != cudaMemLocationTypeDevice && location.type != cudaMemLocationTypeHost)) {
    return fail(cudaErrorInvalidValue);
  }
  return queue_prefetch(devPtr, count, location.type == cudaMemLocationTypeDevice, location.id,
                        stream);
}
#else
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice,
                                 cudaStream_t stream) {
  return queue_prefetch(devPtr, count, dstDevice != cudaCpuDeviceId, dstDevice, stream);
}
#endif

#if CUDART_VERSION >= 13000
cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes,
                                 size_t count, cudaMemcpyAttributes* attrs, size_t* attrsIdxs,
                                 size_t numAttrs, cudaStream_t stream) {
  return queue_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, nullptr, stream);
}
#elif CUDART_VERSION >= 12080
cudaError_t cudaMemcpyBatchAsync(void** dsts, void** srcs, size_t* sizes, size_t count,
                                 cudaMemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs,
                                 size_t* failIdx, cudaStream_t stream) {
  return queue_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, stream);
}
#endif

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
  RuntimeCall record("cudaMemcpy2DAsync");
  if (width > dpitch || width > spitch) {
    return fail(cudaErrorInvalidPitchValue);
  }
  return queue_copy(
      {"cudaMemcpy2DAsync", Api::async, dst, src, {width, height, dpitch, spitch}, kind, stream},
      record);
}

// Runtime API cudaMemcpyPeerAsync: "Copies memory from one device to memory on another device";
// without peer access the copy is staged through host memory, and it holds the caller.
cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice,
                                size_t count, cudaStream_t stream) {
  RuntimeCall record("cudaMemcpyPeerAsync");
  Runtime& sim = runtime();
  if (sim.device(dstDevice) == nullptr || sim.device(srcDevice) == nullptr) {
    return fail(cudaErrorInvalidDevice);
  }
  CopyRoute route;
  if (const cudaError_t error =
          route_copy(sim.memory, dst, src, count, count, cudaMemcpyDeviceToDevice, route);
      error != cudaSuccess) {
    return fail(error);
  }
  if (route.source.device != srcDevice || route.destination.device != dstDevice) {
    return fail(cudaErrorInvalidValue);
  }
  const bool staged = srcDevice != dstDevice && !sim.peer_path(srcDevice, dstDevice);
  return queue_copy({"cudaMemcpyPeerAsync", Api::async, dst, src, linear(count),
                     cudaMemcpyDeviceToDevice, stream},
                    record, staged, &route);
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  return queue_memset("cudaMemset", devPtr, value, count, cudaStreamLegacy);
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return queue_memset("cudaMemsetAsync", devPtr, value, count, stream);
}
