#include "sim/runtime/device_properties.hpp"

#include <cstdio>
#include <cstring>

#include "sim/runtime/device.hpp"

namespace h2d::sim {

cudaDeviceProp device_properties(const Device& device) {
  cudaDeviceProp prop{};
  std::snprintf(prop.name, sizeof prop.name, "%s", device.name().c_str());
  prop.uuid = device.uuid();
  prop.totalGlobalMem = device.config().device_memory_bytes;
  prop.major = device.config().cc_major;
  prop.minor = device.config().cc_minor;
  prop.multiProcessorCount = device.config().multiprocessors;
  prop.asyncEngineCount = device.copy_engines();
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  std::sscanf(device.bus_id().c_str(), "%x:%x:%x.%x", &domain, &bus, &slot, &function);
  prop.pciDomainID = static_cast<int>(domain);
  prop.pciBusID = static_cast<int>(bus);
  prop.pciDeviceID = static_cast<int>(slot);
  // Limits every compute capability since 3.0 shares.
  prop.warpSize = 32;
  prop.maxThreadsPerBlock = 1024;
  prop.maxThreadsDim[0] = 1024;
  prop.maxThreadsDim[1] = 1024;
  prop.maxThreadsDim[2] = 64;
  prop.maxGridSize[0] = 0x7fffffff;
  prop.maxGridSize[1] = 65535;
  prop.maxGridSize[2] = 65535;
  prop.sharedMemPerBlock = 48 * 1024;
  prop.regsPerBlock = 64 * 1024;
  prop.totalConstMem = 64 * 1024;
  prop.maxThreadsPerMultiProcessor = 2048;
  // What the sim models: UVA, mapped, registered and managed host memory, concurrent kernels.
  prop.integrated = 0;
  prop.canMapHostMemory = 1;
  prop.unifiedAddressing = 1;
  prop.concurrentKernels = 1;
  prop.hostRegisterSupported = 1;
  prop.canUseHostPointerForRegisteredMem = 1;
  prop.managedMemory = 1;  // cudaMallocManaged and cudaMemPrefetchAsync (docs/sim.md)
  prop.concurrentManagedAccess = 1;
  prop.pageableMemoryAccess = 0;
  prop.deviceNumaId = -1;
  prop.hostNumaId = -1;
  return prop;
}

bool device_attribute(const cudaDeviceProp& prop, cudaDeviceAttr attribute, int& value) {
  switch (attribute) {
    case cudaDevAttrMultiProcessorCount:
      value = prop.multiProcessorCount;
      return true;
    case cudaDevAttrComputeCapabilityMajor:
      value = prop.major;
      return true;
    case cudaDevAttrComputeCapabilityMinor:
      value = prop.minor;
      return true;
    case cudaDevAttrAsyncEngineCount:
      value = prop.asyncEngineCount;
      return true;
    case cudaDevAttrGpuOverlap:
      value = prop.asyncEngineCount > 0 ? 1 : 0;
      return true;
    case cudaDevAttrCanMapHostMemory:
      value = prop.canMapHostMemory;
      return true;
    case cudaDevAttrUnifiedAddressing:
      value = prop.unifiedAddressing;
      return true;
    case cudaDevAttrConcurrentKernels:
      value = prop.concurrentKernels;
      return true;
    case cudaDevAttrIntegrated:
      value = prop.integrated;
      return true;
    case cudaDevAttrConcurrentManagedAccess:
      value = prop.concurrentManagedAccess;
      return true;
    case cudaDevAttrPciBusId:
      value = prop.pciBusID;
      return true;
    case cudaDevAttrPciDeviceId:
      value = prop.pciDeviceID;
      return true;
    case cudaDevAttrPciDomainId:
      value = prop.pciDomainID;
      return true;
    case cudaDevAttrWarpSize:
      value = prop.warpSize;
      return true;
    case cudaDevAttrMaxThreadsPerBlock:
      value = prop.maxThreadsPerBlock;
      return true;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      value = static_cast<int>(prop.sharedMemPerBlock);
      return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      value = prop.maxThreadsPerMultiProcessor;
      return true;
    case cudaDevAttrHostRegisterSupported:
      value = prop.hostRegisterSupported;
      return true;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
      value = prop.canUseHostPointerForRegisteredMem;
      return true;
    case cudaDevAttrManagedMemory:
      value = prop.managedMemory;
      return true;
    case cudaDevAttrPageableMemoryAccess:
      value = prop.pageableMemoryAccess;
      return true;
    default:
      return false;
  }
}

}  // namespace h2d::sim
