// The sim's CUPTI stand-in, through CUPTI's own API: the records of copies, memsets, kernels and
// runtime calls come out with their kinds, bytes, memory kinds and correlation ids.

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "kernels/busy.cuh"

namespace {

constexpr std::size_t kCopyBytes = 3 << 20;
constexpr std::size_t kMemsetBytes = 4096 + 8;

struct Delivered {
  std::mutex mutex;
  std::vector<std::vector<std::uint8_t>> buffers;  // the valid bytes of each buffer
  std::size_t dropped = 0;
  std::size_t buffer_bytes = 1 << 20;
};
Delivered& delivered() {
  static Delivered* const instance = new Delivered;
  return *instance;
}

void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *size = delivered().buffer_bytes;
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer,
                        std::size_t /*size*/, std::size_t valid) {
  std::size_t dropped = 0;
  EXPECT_EQ(cuptiActivityGetNumDroppedRecords(context, stream, &dropped), CUPTI_SUCCESS);
  std::lock_guard<std::mutex> lock(delivered().mutex);
  delivered().buffers.emplace_back(buffer, buffer + valid);
  delivered().dropped += dropped;
  std::free(buffer);
}

constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
                                         CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                         CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER};

// Records the work `work` queues, the way harness/cupti_activity.cpp does.
template <typename Work>
std::vector<std::vector<std::uint8_t>> record(Work work) {
  {
    std::lock_guard<std::mutex> lock(delivered().mutex);
    delivered().buffers.clear();
    delivered().dropped = 0;
  }
  EXPECT_EQ(cuptiActivityRegisterCallbacks(requested, completed), CUPTI_SUCCESS);
  EXPECT_EQ(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM), CUPTI_SUCCESS);
  for (CUpti_ActivityKind kind : kKinds) {
    EXPECT_EQ(cuptiActivityEnable(kind), CUPTI_SUCCESS);
  }
  work();
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
  for (CUpti_ActivityKind kind : kKinds) {
    EXPECT_EQ(cuptiActivityDisable(kind), CUPTI_SUCCESS);
  }
  EXPECT_EQ(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
  std::lock_guard<std::mutex> lock(delivered().mutex);
  return delivered().buffers;
}

template <typename Each>
void for_each_record(const std::vector<std::vector<std::uint8_t>>& buffers, Each each) {
  for (const std::vector<std::uint8_t>& bytes : buffers) {
    std::vector<std::uint8_t> buffer(bytes);
    CUpti_Activity* activity = nullptr;
    while (cuptiActivityGetNextRecord(buffer.data(), buffer.size(), &activity) == CUPTI_SUCCESS) {
      each(*activity);
    }
  }
}

std::string call_name(std::uint32_t cbid) {
  const char* name = nullptr;
  EXPECT_EQ(cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name), CUPTI_SUCCESS);
  return name != nullptr ? name : "";
}

TEST(SimCupti, CopiesMemsetsKernelsAndTheirCallsAreRecorded) {
  void* device = nullptr;
  void* pinned = nullptr;
  std::vector<unsigned char> pageable(kCopyBytes, 1);
  ASSERT_EQ(cudaMalloc(&device, kCopyBytes), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&pinned, kCopyBytes), cudaSuccess);
  const auto buffers = record([&] {
    EXPECT_EQ(cudaMemcpyAsync(device, pageable.data(), kCopyBytes, cudaMemcpyHostToDevice, nullptr),
              cudaSuccess);
    EXPECT_EQ(cudaMemcpyAsync(device, pinned, kCopyBytes, cudaMemcpyHostToDevice, nullptr),
              cudaSuccess);
    EXPECT_EQ(cudaMemcpyAsync(pinned, device, kCopyBytes / 2, cudaMemcpyDeviceToHost, nullptr),
              cudaSuccess);
    EXPECT_EQ(cudaMemsetAsync(device, 0, kMemsetBytes, nullptr), cudaSuccess);
    EXPECT_EQ(h2d::kernels::launch_busy(1000, 1, nullptr), cudaSuccess);
  });
  std::vector<CUpti_ActivityMemcpy6> copies;
  std::vector<CUpti_ActivityMemset4> memsets;
  std::vector<CUpti_ActivityKernel10> kernels;
  std::map<std::uint32_t, std::string> calls;  // correlation id -> name
  for_each_record(buffers, [&](const CUpti_Activity& activity) {
    switch (activity.kind) {
      case CUPTI_ACTIVITY_KIND_MEMCPY:
        copies.push_back(reinterpret_cast<const CUpti_ActivityMemcpy6&>(activity));
        break;
      case CUPTI_ACTIVITY_KIND_MEMSET:
        memsets.push_back(reinterpret_cast<const CUpti_ActivityMemset4&>(activity));
        break;
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        kernels.push_back(reinterpret_cast<const CUpti_ActivityKernel10&>(activity));
        break;
      case CUPTI_ACTIVITY_KIND_RUNTIME: {
        const auto& call = reinterpret_cast<const CUpti_ActivityAPI&>(activity);
        calls[call.correlationId] = call_name(call.cbid);
        EXPECT_LE(call.start, call.end);
        break;
      }
      default:
        ADD_FAILURE() << "unexpected record kind " << activity.kind;
    }
  });
  ASSERT_EQ(copies.size(), 3u);
  EXPECT_EQ(copies[0].copyKind, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
  EXPECT_EQ(copies[0].srcKind, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE);
  EXPECT_EQ(copies[0].dstKind, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
  EXPECT_EQ(copies[0].bytes, kCopyBytes);
  EXPECT_EQ(copies[1].srcKind, CUPTI_ACTIVITY_MEMORY_KIND_PINNED);
  EXPECT_EQ(copies[2].copyKind, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH);
  EXPECT_EQ(copies[2].srcKind, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
  EXPECT_EQ(copies[2].dstKind, CUPTI_ACTIVITY_MEMORY_KIND_PINNED);
  EXPECT_EQ(copies[2].bytes, kCopyBytes / 2);
  for (const CUpti_ActivityMemcpy6& copy : copies) {
    EXPECT_LT(copy.start, copy.end);
    EXPECT_EQ(calls[copy.correlationId], "cudaMemcpyAsync_v3020");
    EXPECT_EQ(calls[copy.runtimeCorrelationId], "cudaMemcpyAsync_v3020");
  }
  ASSERT_EQ(memsets.size(), 1u);
  EXPECT_EQ(memsets[0].bytes, kMemsetBytes);
  EXPECT_EQ(calls[memsets[0].correlationId], "cudaMemsetAsync_v3020");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_STREQ(kernels[0].name, "busy_kernel");
  EXPECT_LE(kernels[0].start, kernels[0].end);
  EXPECT_EQ(calls[kernels[0].correlationId], "cudaLaunchKernel_v7000");
  EXPECT_EQ(delivered().dropped, 0u);
  cudaFree(device);
  cudaFreeHost(pinned);
}

TEST(SimCupti, NothingIsRecordedWhileNoKindIsEnabled) {
  void* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, 64), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(device, 0, 64, nullptr), cudaSuccess);  // before recording
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::size_t memsets = 0;
  for_each_record(record([] {}), [&](const CUpti_Activity& activity) {
    memsets += activity.kind == CUPTI_ACTIVITY_KIND_MEMSET ? 1 : 0;
  });
  EXPECT_EQ(memsets, 0u);
  cudaFree(device);
}

TEST(SimCupti, RecordsThatFitNoBufferAreCountedAsDropped) {
  void* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, 64), cudaSuccess);
  delivered().buffer_bytes = 16;  // smaller than any record
  record([&] { EXPECT_EQ(cudaMemsetAsync(device, 0, 64, nullptr), cudaSuccess); });
  delivered().buffer_bytes = 1 << 20;
  EXPECT_GE(delivered().dropped, 2u) << "the memset and its call";
  cudaFree(device);
}

TEST(SimCupti, NextRecordWalksABufferAndStopsAtItsEnd) {
  alignas(8) std::uint8_t buffer[sizeof(CUpti_ActivityAPI) * 2] = {};
  auto* const calls = reinterpret_cast<CUpti_ActivityAPI*>(buffer);
  calls[0].kind = calls[1].kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  CUpti_Activity* record = nullptr;
  ASSERT_EQ(cuptiActivityGetNextRecord(buffer, sizeof(buffer), &record), CUPTI_SUCCESS);
  EXPECT_EQ(reinterpret_cast<std::uint8_t*>(record), buffer);
  ASSERT_EQ(cuptiActivityGetNextRecord(buffer, sizeof(buffer), &record), CUPTI_SUCCESS);
  EXPECT_EQ(reinterpret_cast<std::uint8_t*>(record), buffer + sizeof(CUpti_ActivityAPI));
  EXPECT_EQ(cuptiActivityGetNextRecord(buffer, sizeof(buffer), &record),
            CUPTI_ERROR_MAX_LIMIT_REACHED);
  record = nullptr;
  EXPECT_EQ(cuptiActivityGetNextRecord(buffer, sizeof(CUpti_ActivityAPI) - 8, &record),
            CUPTI_ERROR_INVALID_KIND)
      << "a record cut short";
}

TEST(SimCupti, CallbackNamesAndResultStringsAreCuptis) {
  const char* name = nullptr;
  ASSERT_EQ(cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API,
                                 CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, &name),
            CUPTI_SUCCESS);
  EXPECT_STREQ(name, "cudaStreamSynchronize_v3020");
  EXPECT_EQ(cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, 1, &name),
            CUPTI_ERROR_INVALID_PARAMETER);
  const char* text = nullptr;
  ASSERT_EQ(cuptiGetResultString(CUPTI_ERROR_MAX_LIMIT_REACHED, &text), CUPTI_SUCCESS);
  EXPECT_STREQ(text, "CUPTI_ERROR_MAX_LIMIT_REACHED");
  std::uint64_t first = 0, second = 0;
  ASSERT_EQ(cuptiGetTimestamp(&first), CUPTI_SUCCESS);
  ASSERT_EQ(cuptiGetTimestamp(&second), CUPTI_SUCCESS);
  EXPECT_LE(first, second);
}

}  // namespace
