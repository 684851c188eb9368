#include "harness/cuda/device.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include <array>

#include "harness/cuda/cuda_error.hpp"

namespace h2d {
namespace {

std::string format_uuid(const cudaUUID_t& uuid) {
  std::string hex;
  for (char byte : uuid.bytes) {
    hex += fmt::format("{:02x}", static_cast<unsigned char>(byte));
  }
  return fmt::format("GPU-{}-{}-{}-{}-{}", hex.substr(0, 8), hex.substr(8, 4), hex.substr(12, 4),
                     hex.substr(16, 4), hex.substr(20));
}

// cudart reports a missing driver as "driver version is insufficient", which sends users looking
// for an upgrade; look for the driver library ourselves so the reason names the real problem.
bool driver_library_present() {
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return false;
  }
  dlclose(handle);
  return true;
}

std::string explain_no_device(cudaError_t status, int driver_version, int runtime_version) {
  const std::string cuda_words =
      fmt::format("{}: {}", cudaGetErrorName(status), cudaGetErrorString(status));
  if (status == cudaErrorInsufficientDriver && !driver_library_present()) {
    return fmt::format("no NVIDIA driver is installed (libcuda.so.1 not found; {})", cuda_words);
  }
  if (status == cudaErrorInsufficientDriver) {
    return fmt::format(
        "the NVIDIA driver supports CUDA {} but h2dbench was built with CUDA {} ({})",
        format_cuda_version(driver_version), format_cuda_version(runtime_version), cuda_words);
  }
  if (status == cudaErrorNoDevice) {
    return fmt::format("the driver sees no CUDA device (check CUDA_VISIBLE_DEVICES; {})",
                       cuda_words);
  }
  return fmt::format("CUDA could not enumerate devices ({})", cuda_words);
}

DeviceInfo describe(int ordinal) {
  cudaDeviceProp prop{};
  H2D_CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  DeviceInfo info;
  info.ordinal = ordinal;
  info.name = prop.name;
  info.uuid = format_uuid(prop.uuid);
  std::array<char, 32> bus_id{};
  H2D_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id.data(), static_cast<int>(bus_id.size()), ordinal));
  info.pci_bus_id = bus_id.data();
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.copy_engines = prop.asyncEngineCount;
  info.total_memory = prop.totalGlobalMem;
  info.multiprocessors = prop.multiProcessorCount;
  info.can_map_host_memory = prop.canMapHostMemory != 0;
  return info;
}

DeviceDiscovery run_discovery() {
  DeviceDiscovery discovery;
  int reported = 0;
  const cudaError_t runtime_status = cudaRuntimeGetVersion(&reported);
  discovery.runtime_version = runtime_version_or_built(runtime_status, reported);
  cudaDriverGetVersion(&discovery.driver_version);
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    discovery.unavailable_reason =
        explain_no_device(status == cudaSuccess ? cudaErrorNoDevice : status,
                          discovery.driver_version, discovery.runtime_version);
    return discovery;
  }
  try {
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      discovery.devices.push_back(describe(ordinal));
    }
  } catch (const CudaError& error) {
    discovery.devices.clear();
    discovery.unavailable_reason =
        fmt::format("a CUDA device could not be queried: {}", error.what());
  }
  return discovery;
}

}  // namespace

int runtime_version_or_built(int status, int reported) {
  return status == cudaSuccess && reported > 0 ? reported : CUDART_VERSION;
}

const DeviceDiscovery& discover_devices() {
  static const DeviceDiscovery discovery = run_discovery();
  return discovery;
}

}  // namespace h2d
