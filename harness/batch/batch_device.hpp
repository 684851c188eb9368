#pragma once

#include <cstddef>
#include <map>
#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/batch/pin_policy.hpp"
#include "harness/batch/sample_set.hpp"
#include "harness/cuda/batched_copy.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/event.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/host/host_copy.hpp"

namespace h2d {

// The device side of a batch: one block the copies land in, the members as views at the packed
// offsets, and for predict an output sent back into pinned host memory: the stand-in model
// writes each sample's first plane of its first member (the tile's first image channel, one
// float32 per pixel) as its output, so what comes back depends on what arrived. Predict needs
// that member not to vary (std::invalid_argument).
// How a batch's host-to-device copies are issued: one cudaMemcpyAsync each (the default), all of
// them in one cudaMemcpyBatchAsync call (copy=batched) whose sources are read per `order`, or one
// kernel launch that pulls every copy out of mapped pinned memory (copy=kernel).
enum class CopyCall { each, batched, kernel };
struct CopyIssue {
  CopyCall call = CopyCall::each;
  SourceOrder order = SourceOrder::stream;
};

class BatchDevice {
 public:
  BatchDevice(int device, const LayoutPlan& layout, const TransferPlan& transfer, BatchTask task,
              CopyIssue issue = {});

  // Bytes of the predict output (0 for train).
  static std::size_t output_bytes(const LayoutPlan& layout, BatchTask task);

  // Enqueues the batch on `stream`: the H2D copies (as the CopyIssue says), then `h2d_done`; for
  // predict the model, then `model_done`, then the D2H of the output. Nothing here synchronizes:
  // the host may read output() only after the stream has been synchronized.
  void enqueue(const std::vector<HostCopy>& copies, const Stream& stream, const Event& h2d_done,
               const Event& model_done) const;

  // Zeroes the device block, the device output and the host output, so a copy that did not happen
  // fails verification. Synchronizes `stream`.
  void clear(const Stream& stream) const;

  // Checksums every member of every sample at its device view against `samples`; throws
  // VerificationError naming the first that differs. Synchronizes `stream`.
  void verify_arrived(const SampleSet& samples, const Stream& stream) const;

  // Compares the host output with the first plane of each sample's first member; throws
  // VerificationError. Call only after the stream that ran enqueue() has been synchronized.
  void verify_output(const SampleSet& samples) const;

  const std::byte* view(Member member, std::size_t sample) const;
  // The whole device block (packed layout, padding included).
  const DeviceBuffer& block() const { return block_; }
  const HostBuffer& output() const { return host_output_; }

 private:
  LayoutPlan layout_;
  PackPlan pack_;
  BatchTask task_;
  CopyIssue issue_;
  // copy=kernel: each slot's copies as the device reads them, keyed by the slot's first source,
  // uploaded on the slot's first batch (the warm-up) and reused after: a loader that gathers with a
  // kernel keeps its descriptors resident. Mutable: enqueue() is const to its callers.
  struct Gather {
    DeviceBuffer copies;
    unsigned count = 0;
    unsigned blocks_per_copy = 1;
  };
  mutable std::map<const void*, Gather> gathers_;
  const Gather& gather_of(const std::vector<HostCopy>& copies) const;
  std::size_t image_stride_ = 0;  // packed_stride of the images, for the model's 2D copy
  DeviceBuffer block_;
  DeviceBuffer device_output_;
  HostBuffer host_output_;
};

}  // namespace h2d
