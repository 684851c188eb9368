#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "sim/runtime/kernel_queue.hpp"
#include "tests/process_runner.hpp"
#include "tests/sim/runtime_test_support.hpp"

namespace h2d::sim {
namespace {

cudaPointerAttributes attributes_of(const void* pointer) {
  cudaPointerAttributes attributes{};
  EXPECT_EQ(cudaPointerGetAttributes(&attributes, pointer), cudaSuccess);
  return attributes;
}

TEST(SimMemory, PointerAttributesTellTheTruthInsideAllocations) {
  SimMachine machine({});
  void* device = nullptr;
  void* pinned = nullptr;
  void* mapped = nullptr;
  ASSERT_EQ(cudaMalloc(&device, kMiB), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&pinned, kMiB), cudaSuccess);
  ASSERT_EQ(cudaHostAlloc(&mapped, kMiB, cudaHostAllocMapped | cudaHostAllocWriteCombined),
            cudaSuccess);
  std::vector<char> registered(kMiB);
  std::vector<char> pageable(kMiB);
  ASSERT_EQ(cudaHostRegister(registered.data(), kMiB, cudaHostRegisterPortable), cudaSuccess);

  const auto inside_device = attributes_of(static_cast<char*>(device) + 100);
  EXPECT_EQ(inside_device.type, cudaMemoryTypeDevice);
  EXPECT_EQ(inside_device.device, 0);
  EXPECT_EQ(inside_device.devicePointer, static_cast<char*>(device) + 100);
  EXPECT_EQ(attributes_of(static_cast<char*>(pinned) + kMiB - 1).type, cudaMemoryTypeHost);
  EXPECT_EQ(attributes_of(mapped).type, cudaMemoryTypeHost);
  EXPECT_EQ(attributes_of(registered.data() + 5).type, cudaMemoryTypeHost);
  const auto unregistered = attributes_of(pageable.data());
  EXPECT_EQ(unregistered.type, cudaMemoryTypeUnregistered);
  EXPECT_EQ(unregistered.device, -2);
  EXPECT_EQ(unregistered.devicePointer, nullptr);
  void* on_device = nullptr;
  EXPECT_EQ(cudaHostGetDevicePointer(&on_device, mapped, 0), cudaSuccess);
  EXPECT_EQ(on_device, mapped);

  EXPECT_EQ(cudaHostRegister(registered.data() + 10, 10, 0), cudaErrorHostMemoryAlreadyRegistered);
  EXPECT_EQ(cudaGetLastError(), cudaErrorHostMemoryAlreadyRegistered);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaHostUnregister(registered.data()), cudaSuccess);
  EXPECT_EQ(attributes_of(registered.data()).type, cudaMemoryTypeUnregistered);
  EXPECT_EQ(cudaHostUnregister(registered.data()), cudaErrorHostMemoryNotRegistered);
  EXPECT_EQ(cudaFree(static_cast<char*>(device) + 1), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(device), cudaSuccess);
  EXPECT_EQ(attributes_of(device).type, cudaMemoryTypeUnregistered);
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(mapped), cudaSuccess);
  cudaGetLastError();
}

TEST(SimMemory, DeviceMemoryLimitAndBadCopiesReturnCudaErrors) {
  SimMachine machine({{"H2D_SIM_DEVICE_MEMORY", "16MiB"}});
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(cudaMalloc(&a, 12 * kMiB), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&b, 8 * kMiB), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaGetLastError(), cudaErrorMemoryAllocation);
  std::vector<char> host(kMiB);
  EXPECT_EQ(cudaMemcpy(host.data(), host.data(), kMiB, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  // 7: no kind, yet within the enum's range (0..7), so the cast is defined (9 is undefined
  // behaviour, which UBSan reported).
  EXPECT_EQ(cudaMemcpy(a, host.data(), kMiB, static_cast<cudaMemcpyKind>(7)),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(
      cudaMemcpy(static_cast<char*>(a) + 12 * kMiB - 10, host.data(), 100, cudaMemcpyHostToDevice),
      cudaErrorInvalidValue)
      << "a copy running past the allocation's end";
  EXPECT_EQ(
      cudaMemcpyAsync(a, host.data(), 1, cudaMemcpyDefault, reinterpret_cast<cudaStream_t>(0x1234)),
      cudaErrorInvalidResourceHandle);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaSetDevice(3), cudaErrorInvalidDevice);
  EXPECT_STREQ(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
  EXPECT_EQ(cudaFree(a), cudaSuccess);
  cudaGetLastError();
}

#if CUDART_VERSION >= 13000
// cudaMemcpyBatchAsync: every copy of the batch lands; what CUDA refuses is refused before any is
// queued: no copies, an attribute without a source order, attributes that do not start at copy 0,
// and host sources part page-locked and part pageable.
TEST(SimMemory, ABatchedCopyLandsEveryCopyAndRefusesWhatCudaRefuses) {
  SimMachine machine({});
  void* device = nullptr;
  void* pinned = nullptr;
  ASSERT_EQ(cudaMalloc(&device, 3 * kMiB), cudaSuccess);
  ASSERT_EQ(cudaMemset(device, 0, 3 * kMiB), cudaSuccess);  // cudaMalloc's memory holds anything
  ASSERT_EQ(cudaMallocHost(&pinned, 2 * kMiB), cudaSuccess);
  std::vector<char> pageable(kMiB, 7);
  std::memset(pinned, 5, 2 * kMiB);
  auto* on_device = static_cast<char*>(device);
  void* const destinations[] = {on_device, on_device + kMiB, on_device + 2 * kMiB};
  const void* const pinned_sources[] = {pinned, static_cast<char*>(pinned) + kMiB, pinned};
  const size_t sizes[] = {kMiB, kMiB, 100};
  cudaMemcpyAttributes attributes{};
  attributes.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  size_t first = 0;
  ASSERT_EQ(
      cudaMemcpyBatchAsync(destinations, pinned_sources, sizes, 3, &attributes, &first, 1, nullptr),
      cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  std::vector<char> back(3 * kMiB);
  ASSERT_EQ(cudaMemcpy(back.data(), device, back.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[0], 5);
  EXPECT_EQ(back[2 * kMiB - 1], 5);
  EXPECT_EQ(back[2 * kMiB + 99], 5);
  EXPECT_EQ(back[2 * kMiB + 100], 0) << "past the third copy's 100 bytes";

  EXPECT_EQ(
      cudaMemcpyBatchAsync(destinations, pinned_sources, sizes, 0, &attributes, &first, 1, nullptr),
      cudaErrorInvalidValue);
  cudaMemcpyAttributes unordered{};
  EXPECT_EQ(
      cudaMemcpyBatchAsync(destinations, pinned_sources, sizes, 3, &unordered, &first, 1, nullptr),
      cudaErrorInvalidValue);
  size_t late = 1;
  EXPECT_EQ(
      cudaMemcpyBatchAsync(destinations, pinned_sources, sizes, 3, &attributes, &late, 1, nullptr),
      cudaErrorInvalidValue);
  const void* const mixed[] = {pinned, pageable.data(), pinned};
  EXPECT_EQ(cudaMemcpyBatchAsync(destinations, mixed, sizes, 3, &attributes, &first, 1, nullptr),
            cudaErrorInvalidValue);
  attributes.srcAccessOrder = cudaMemcpySrcAccessOrderAny;
  const void* const pageable_sources[] = {pageable.data(), pageable.data(), pageable.data()};
  ASSERT_EQ(cudaMemcpyBatchAsync(destinations, pageable_sources, sizes, 3, &attributes, &first, 1,
                                 nullptr),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(back.data(), device, back.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[kMiB], 7);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue) << "the refusals' error, until read";
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaFree(device), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
}
#endif

// Managed memory: one address the host and kernels reach, which cudaPointerGetAttributes calls
// managed; a prefetch of it to the device or the host takes the modelled time and keeps the
// bytes; a range outside a managed allocation, a device that does not exist and an unknown flag
// are refused.
TEST(SimMemory, ManagedMemoryIsPrefetchedEitherWayAndFreed) {
  SimMachine machine({{"H2D_SIM_H2D_GBPS", "1"}});
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  int concurrent = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, 0),
            cudaSuccess);
  EXPECT_EQ(concurrent, 1);
  void* managed = nullptr;
  EXPECT_EQ(cudaMallocManaged(&managed, kMiB, 7), cudaErrorInvalidValue);
  ASSERT_EQ(cudaMallocManaged(&managed, kMiB, cudaMemAttachGlobal), cudaSuccess);
  EXPECT_EQ(attributes_of(static_cast<char*>(managed) + 10).type, cudaMemoryTypeManaged);
  std::memset(managed, 3, kMiB);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
#if CUDART_VERSION >= 13000
  cudaMemLocation device{};
  device.type = cudaMemLocationTypeDevice;
  device.id = 0;
  cudaMemLocation host{};
  host.type = cudaMemLocationTypeHost;
  cudaMemLocation missing = device;
  missing.id = 5;
#else
  const int device = 0;
  const int host = cudaCpuDeviceId;
  const int missing = 5;
#endif
  const auto started = std::chrono::steady_clock::now();
#if CUDART_VERSION >= 13000
  ASSERT_EQ(cudaMemPrefetchAsync(managed, kMiB, device, 0, stream), cudaSuccess);
#else
  ASSERT_EQ(cudaMemPrefetchAsync(managed, kMiB, device, stream), cudaSuccess);
#endif
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::microseconds(900))
      << "1 MiB at a modelled 1 GB/s";
  EXPECT_EQ(static_cast<char*>(managed)[kMiB - 1], 3);
#if CUDART_VERSION >= 13000
  EXPECT_EQ(cudaMemPrefetchAsync(managed, kMiB, host, 0, stream), cudaSuccess);
  EXPECT_EQ(cudaMemPrefetchAsync(managed, kMiB + 1, device, 0, stream), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemPrefetchAsync(managed, kMiB, missing, 0, stream), cudaErrorInvalidDevice);
#else
  EXPECT_EQ(cudaMemPrefetchAsync(managed, kMiB, host, stream), cudaSuccess);
  EXPECT_EQ(cudaMemPrefetchAsync(managed, kMiB + 1, device, stream), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemPrefetchAsync(managed, kMiB, missing, stream), cudaErrorInvalidDevice);
#endif
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  EXPECT_EQ(cudaFree(managed), cudaSuccess);
  EXPECT_EQ(attributes_of(managed).type, cudaMemoryTypeUnregistered);
  cudaGetLastError();
}

TEST(SimMemory, DevicesAreNamedAsSimulatedAndDistinct) {
  SimMachine machine({{"H2D_SIM_DEVICES", "2"}, {"H2D_SIM_COPY_ENGINES", "1"}});
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  ASSERT_EQ(count, 2);
  cudaDeviceProp first{}, second{};
  ASSERT_EQ(cudaGetDeviceProperties(&first, 0), cudaSuccess);
  ASSERT_EQ(cudaGetDeviceProperties(&second, 1), cudaSuccess);
  EXPECT_STREQ(first.name, "Simulated GPU 0 (h2dbench sim)");
  EXPECT_NE(std::memcmp(first.uuid.bytes, second.uuid.bytes, sizeof first.uuid.bytes), 0);
  EXPECT_EQ(first.asyncEngineCount, 1);
  int sms = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 1), cudaSuccess);
  EXPECT_EQ(sms, 4);
  char bus[32];
  ASSERT_EQ(cudaDeviceGetPCIBusId(bus, sizeof bus, 1), cudaSuccess);
  EXPECT_STREQ(bus, "0000:02:00.0");
  int version = 0;
  EXPECT_EQ(cudaDriverGetVersion(&version), cudaSuccess);
  EXPECT_EQ(version, CUDART_VERSION);
  cudaFuncAttributes attributes{};
  EXPECT_EQ(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(&attributes_of)),
            cudaSuccess);
}

TEST(SimMemory, NoDevicesIsCudaErrorNoDevice) {
  SimMachine machine({{"H2D_SIM_DEVICES", "0"}});
  int count = -1;
  EXPECT_EQ(cudaGetDeviceCount(&count), cudaErrorNoDevice);
  EXPECT_EQ(count, 0);
  cudaGetLastError();
}

TEST(SimPeers, PeerAccessOnlyWhereConfiguredAndStagedCopiesHoldTheCaller) {
  SimMachine machine({{"H2D_SIM_DEVICES", "3"}, {"H2D_SIM_PEER", "0-1"}});
  int can = -1;
  ASSERT_EQ(cudaDeviceCanAccessPeer(&can, 0, 1), cudaSuccess);
  EXPECT_EQ(can, 1);
  ASSERT_EQ(cudaDeviceCanAccessPeer(&can, 0, 2), cudaSuccess);
  EXPECT_EQ(can, 0);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(2, 0), cudaErrorPeerAccessUnsupported);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessAlreadyEnabled);
  void* on0 = nullptr;
  void* on2 = nullptr;
  ASSERT_EQ(cudaMalloc(&on0, 4 * kMiB), cudaSuccess);
  ASSERT_EQ(cudaMemset(on0, 5, 4 * kMiB), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // device 2's stream does not wait for it
  ASSERT_EQ(cudaSetDevice(2), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&on2, 4 * kMiB), cudaSuccess);
  ASSERT_EQ(cudaMemcpyPeerAsync(on2, 2, on0, 0, 4 * kMiB, nullptr), cudaSuccess);
  EXPECT_EQ(static_cast<unsigned char*>(on2)[4 * kMiB - 1], 5)
      << "without peer access the copy is staged through the host and done on return";
  EXPECT_EQ(cudaMemcpyPeerAsync(on2, 1, on0, 0, 16, nullptr), cudaErrorInvalidValue);
  cudaFree(on2);
  cudaSetDevice(0);
  EXPECT_EQ(cudaDeviceDisablePeerAccess(1), cudaSuccess);
  EXPECT_EQ(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
  cudaFree(on0);
  cudaGetLastError();
}

TEST(SimFaultInjection, NthCallFailsCopiesCorruptAndIllegalAddressSticks) {
  SimMachine machine({{"H2D_SIM_FAULTS",
                       "cudaMalloc#2=cudaErrorMemoryAllocation,corrupt=cudaMemcpyAsync#1,"
                       "kernel:bad#1=cudaErrorIllegalAddress"}});
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(cudaMalloc(&a, kMiB), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&b, kMiB), cudaErrorMemoryAllocation);
  ASSERT_EQ(cudaMalloc(&b, kMiB), cudaSuccess);
  std::vector<unsigned char> source(kMiB, 1), back(kMiB, 0);
  ASSERT_EQ(cudaMemcpyAsync(a, source.data(), kMiB, cudaMemcpyHostToDevice, nullptr), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(back.data(), a, kMiB, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[kMiB / 2], 0xfe);
  EXPECT_EQ(back[0], 1);
  ASSERT_EQ(enqueue_kernel(nullptr, "bad", [] {}), cudaSuccess) << "the launch itself succeeds";
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress) << "sticky: never reset";
  EXPECT_EQ(cudaMalloc(&b, 16), cudaErrorIllegalAddress);
}

// A test's machine is rebuilt from the environment when it ends: the error it left behind must not
// be the next test's (a launch's status read it, so a test failed only after this one).
TEST(SimFaultInjection, ALastErrorDoesNotOutliveItsMachine) {
  {
    SimMachine machine({{"H2D_SIM_DEVICES", "1"}});
    EXPECT_NE(cudaSetDevice(7), cudaSuccess);
    ASSERT_NE(cudaPeekAtLastError(), cudaSuccess) << "the failed call left no last error";
  }
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
}

TEST(SimFaultInjection, AStallHoldsTheCopy) {
  SimMachine machine({{"H2D_SIM_FAULTS", "stall=cudaMemcpyAsync#1:80ms"}});
  void* a = nullptr;
  void* host = nullptr;
  ASSERT_EQ(cudaMalloc(&a, 4096), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&host, 4096), cudaSuccess);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(cudaMemcpyAsync(a, host, 4096, cudaMemcpyHostToDevice, nullptr), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(80));
  cudaFree(a);
  cudaFreeHost(host);
}

TEST(SimUplinks, GpusBehindOneSwitchShareItsUplink) {
  // The first two GPUs of the six-GPU fixture sit behind one switch; each is modelled at 1 GB/s
  // and their uplink at 1.5 GB/s: together each gets 0.75 GB/s (event time on each device).
  SimMachine machine({{"H2D_SIM_TOPOLOGY", h2d::testing::source_dir() +
                                               "/tests/fixtures/six_gpu_gen3_two_switches.xml"},
                      {"H2D_SIM_DEVICES", "2"},
                      {"H2D_SIM_UPLINK_GBPS", "1.5"},
                      {"H2D_SIM_H2D_GBPS", "1"},
                      {"H2D_SIM_LATENCY_US", "0"}});
  char bus[32];
  ASSERT_EQ(cudaDeviceGetPCIBusId(bus, sizeof bus, 0), cudaSuccess);
  EXPECT_STREQ(bus, "0000:04:00.0");
  constexpr std::size_t kBytes = 8 * kMiB;
  void* host = nullptr;
  ASSERT_EQ(cudaMallocHost(&host, kBytes), cudaSuccess);
  std::memset(host, 1, kBytes);
  void* dev[2] = {};
  cudaEvent_t start[2] = {}, stop[2] = {};
  for (int d = 0; d < 2; ++d) {
    ASSERT_EQ(cudaSetDevice(d), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dev[d], kBytes), cudaSuccess);
    ASSERT_EQ(cudaMemset(dev[d], 0, kBytes), cudaSuccess);  // first touch outside the timing
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_EQ(cudaEventCreate(&start[d]), cudaSuccess);
    ASSERT_EQ(cudaEventCreate(&stop[d]), cudaSuccess);
  }
  // Both copies start together: each device's stream is held until one release.
  std::atomic<bool> release{false};
  for (int d = 0; d < 2; ++d) {
    cudaSetDevice(d);
    ASSERT_EQ(enqueue_kernel(nullptr, "hold",
                             [&release] {
                               while (!release) {
                                 std::this_thread::sleep_for(std::chrono::microseconds(50));
                               }
                             }),
              cudaSuccess);
    ASSERT_EQ(cudaEventRecord(start[d], nullptr), cudaSuccess);
    ASSERT_EQ(cudaMemcpyAsync(dev[d], host, kBytes, cudaMemcpyHostToDevice, nullptr), cudaSuccess);
    ASSERT_EQ(cudaEventRecord(stop[d], nullptr), cudaSuccess);
  }
  release = true;
  for (int d = 0; d < 2; ++d) {
    cudaSetDevice(d);
    ASSERT_EQ(cudaEventSynchronize(stop[d]), cudaSuccess);
    float ms = 0;
    ASSERT_EQ(cudaEventElapsedTime(&ms, start[d], stop[d]), cudaSuccess);
    // 15%: on a loaded machine (ASan, 2 cores) one stream may pass its hold a moment before the
    // other and copy alone at first (0.837 GB/s seen in CI); not sharing at all would be 1.5.
    EXPECT_NEAR(kBytes / (ms * 1e-3) / 1e9, 0.75, 0.75 * 0.15) << "device " << d;
    cudaEventDestroy(start[d]);
    cudaEventDestroy(stop[d]);
    cudaFree(dev[d]);
  }
  cudaSetDevice(0);
  cudaFreeHost(host);
}

}  // namespace
}  // namespace h2d::sim
