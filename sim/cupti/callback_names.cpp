#include "sim/cupti/callback_names.hpp"

#include <cupti.h>

#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace h2d::sim::cupti {
namespace {

struct KnownCall {
  std::string_view function;
  std::uint32_t id;
  const char* cupti_name;
};

// The runtime functions h2dbench calls (and cudaLaunchKernel, which a kernel launch is), with
// the oldest versioned id that every supported toolkit (11.8 on) defines.
#define H2D_CALL(function, version)                                                    \
  KnownCall {                                                                          \
#function, CUPTI_RUNTIME_TRACE_CBID_##function##_##version, #function "_" #version \
  }
constexpr KnownCall kKnownCalls[] = {
    H2D_CALL(cudaDeviceCanAccessPeer, v4000),
    H2D_CALL(cudaDeviceDisablePeerAccess, v4000),
    H2D_CALL(cudaDeviceEnablePeerAccess, v4000),
    H2D_CALL(cudaDeviceGetAttribute, v5000),
    H2D_CALL(cudaDeviceGetPCIBusId, v4010),
    H2D_CALL(cudaDeviceSynchronize, v3020),
    H2D_CALL(cudaDriverGetVersion, v3020),
    H2D_CALL(cudaEventCreate, v3020),
    H2D_CALL(cudaEventCreateWithFlags, v3020),
    H2D_CALL(cudaEventDestroy, v3020),
    H2D_CALL(cudaEventElapsedTime, v3020),
    H2D_CALL(cudaEventQuery, v3020),
    H2D_CALL(cudaEventRecord, v3020),
    H2D_CALL(cudaEventSynchronize, v3020),
    H2D_CALL(cudaFree, v3020),
    H2D_CALL(cudaFreeHost, v3020),
    H2D_CALL(cudaGetDevice, v3020),
    H2D_CALL(cudaGetDeviceCount, v3020),
    H2D_CALL(cudaGetDeviceProperties, v3020),
    H2D_CALL(cudaGetErrorName, v6050),
    H2D_CALL(cudaGetErrorString, v3020),
    H2D_CALL(cudaGetLastError, v3020),
    H2D_CALL(cudaHostAlloc, v3020),
    H2D_CALL(cudaHostGetDevicePointer, v3020),
    H2D_CALL(cudaHostRegister, v4000),
    H2D_CALL(cudaHostUnregister, v4000),
    H2D_CALL(cudaLaunchKernel, v7000),
    H2D_CALL(cudaMalloc, v3020),
    H2D_CALL(cudaMallocHost, v3020),
    H2D_CALL(cudaMemcpy, v3020),
    H2D_CALL(cudaMemcpy2DAsync, v3020),
    H2D_CALL(cudaMemcpyAsync, v3020),
    H2D_CALL(cudaMemcpyPeerAsync, v4000),
    H2D_CALL(cudaMemset, v3020),
    H2D_CALL(cudaMemsetAsync, v3020),
    H2D_CALL(cudaPeekAtLastError, v3020),
    H2D_CALL(cudaPointerGetAttributes, v4000),
    H2D_CALL(cudaRuntimeGetVersion, v3020),
    H2D_CALL(cudaSetDevice, v3020),
    H2D_CALL(cudaStreamCreate, v3020),
    H2D_CALL(cudaStreamCreateWithFlags, v5000),
    H2D_CALL(cudaStreamDestroy, v5050),
    H2D_CALL(cudaStreamQuery, v3020),
    H2D_CALL(cudaStreamSynchronize, v3020),
    H2D_CALL(cudaStreamWaitEvent, v3020),
};
#undef H2D_CALL

// Ids handed out for functions outside the table, and their names.
struct OtherCalls {
  std::mutex mutex;
  std::unordered_map<std::string, std::uint32_t> ids;
  std::deque<std::string> names;  // index: id - CUPTI_RUNTIME_TRACE_CBID_SIZE; never moves
};
OtherCalls& other_calls() {
  static OtherCalls* const calls = new OtherCalls;  // read by CUPTI callbacks until exit
  return *calls;
}

}  // namespace

std::uint32_t runtime_callback_id(std::string_view name) {
  for (const KnownCall& call : kKnownCalls) {
    if (call.function == name) {
      return call.id;
    }
  }
  OtherCalls& other = other_calls();
  std::lock_guard<std::mutex> lock(other.mutex);
  const auto [found, added] =
      other.ids.emplace(std::string(name), CUPTI_RUNTIME_TRACE_CBID_SIZE +
                                               static_cast<std::uint32_t>(other.names.size()));
  if (added) {
    other.names.emplace_back(name);
  }
  return found->second;
}

const char* runtime_callback_name(std::uint32_t id) {
  for (const KnownCall& call : kKnownCalls) {
    if (call.id == id) {
      return call.cupti_name;
    }
  }
  OtherCalls& other = other_calls();
  std::lock_guard<std::mutex> lock(other.mutex);
  if (id >= CUPTI_RUNTIME_TRACE_CBID_SIZE &&
      id - CUPTI_RUNTIME_TRACE_CBID_SIZE < other.names.size()) {
    return other.names[id - CUPTI_RUNTIME_TRACE_CBID_SIZE].c_str();
  }
  return nullptr;
}

}  // namespace h2d::sim::cupti
