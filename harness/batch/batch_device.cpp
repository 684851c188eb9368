#include "harness/batch/batch_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "harness/core/verification.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/trace/nvtx.hpp"
#include "kernels/gather_copy.cuh"

namespace h2d {
namespace {

// The stand-in model's output per sample: the first plane of its input (the first member), the
// first channel of an image; the whole member where it has fewer than two dimensions.
std::size_t plane_bytes(const LayoutPlan& layout) {
  const MemberSpec& input = layout.contents.members.front();
  const std::size_t bytes = layout.contents.room_of(0, 0);
  return input.shape.size() >= 2 ? bytes / input.shape.front().low : bytes;
}

}  // namespace

std::size_t BatchDevice::output_bytes(const LayoutPlan& layout, BatchTask task) {
  return task == BatchTask::predict ? layout.batch() * plane_bytes(layout) : 0;
}

BatchDevice::BatchDevice(int device, const LayoutPlan& layout, const TransferPlan& transfer,
                         BatchTask task, CopyIssue issue)
    : layout_(layout),
      pack_(transfer.pack),
      task_(task),
      issue_(issue),
      block_(device, std::max<std::size_t>(transfer.pack.bytes, 1)) {
  const std::size_t output = output_bytes(layout, task);
  if (output > 0) {
    if (layout.contents.members.front().varies()) {
      throw std::invalid_argument("predict sends the sample's first member, which must not vary");
    }
    image_stride_ = packed_stride(layout_, pack_, 0);
    device_output_ = DeviceBuffer(device, output);
    host_output_ = HostBuffer(HostKind::pinned, output);
  }
}

const std::byte* BatchDevice::view(Member member, std::size_t sample) const {
  return block_.data() + packed_offset(layout_, pack_, member, sample);
}

void BatchDevice::enqueue(const std::vector<HostCopy>& copies, const Stream& stream,
                          const Event& h2d_done, const Event& model_done) const {
  NvtxRange range(NvtxCategory::copy,
                  task_ == BatchTask::predict ? "enqueue predict batch" : "enqueue train batch");
  if (issue_.call == CopyCall::batched) {
    std::vector<BatchedCopy> batched;
    batched.reserve(copies.size());
    for (const HostCopy& copy : copies) {
      batched.push_back({block_.data() + copy.device_offset, copy.source, copy.bytes});
    }
    enqueue_batched_copies(batched, issue_.order, stream.get());
  } else if (issue_.call == CopyCall::kernel) {
    const Gather& gather = gather_of(copies);
    H2D_CUDA_CHECK(kernels::launch_gather_copy(
        reinterpret_cast<const kernels::GatherCopy*>(gather.copies.data()), gather.count,
        gather.blocks_per_copy, stream.get()));
  } else {
    for (const HostCopy& copy : copies) {
      H2D_CUDA_CHECK(cudaMemcpyAsync(block_.data() + copy.device_offset, copy.source, copy.bytes,
                                     cudaMemcpyHostToDevice, stream.get()));
    }
  }
  h2d_done.record(stream.get());
  if (task_ != BatchTask::predict) {
    return;
  }
  // The stand-in model: channel 0 of every image, one strided 2D copy, as the per-pixel output.
  const std::size_t plane = plane_bytes(layout_);
  H2D_CUDA_CHECK(cudaMemcpy2DAsync(device_output_.data(), plane, view(0, 0), image_stride_, plane,
                                   layout_.batch(), cudaMemcpyDeviceToDevice, stream.get()));
  model_done.record(stream.get());
  H2D_CUDA_CHECK(cudaMemcpyAsync(host_output_.data(), device_output_.data(), host_output_.size(),
                                 cudaMemcpyDeviceToHost, stream.get()));
}

const BatchDevice::Gather& BatchDevice::gather_of(const std::vector<HostCopy>& copies) const {
  if (copies.empty()) {
    throw std::invalid_argument("copy=kernel: a batch without copies");
  }
  const auto found = gathers_.find(copies.front().source);
  if (found != gathers_.end()) {
    return found->second;
  }
  std::vector<kernels::GatherCopy> items;
  std::size_t largest = 0;
  for (const HostCopy& copy : copies) {
    void* mapped = nullptr;  // the source's address in the device's address space
    H2D_CUDA_CHECK(cudaHostGetDevicePointer(&mapped, const_cast<std::byte*>(copy.source), 0));
    items.push_back({block_.data() + copy.device_offset, mapped, copy.bytes});
    largest = std::max(largest, copy.bytes);
  }
  Gather gather;
  gather.copies = DeviceBuffer(block_.device(), items.size() * sizeof(kernels::GatherCopy));
  H2D_CUDA_CHECK(
      cudaMemcpy(gather.copies.data(), items.data(), gather.copies.size(), cudaMemcpyHostToDevice));
  gather.count = static_cast<unsigned>(items.size());
  gather.blocks_per_copy = kernels::gather_blocks_per_copy(largest);
  return gathers_.emplace(copies.front().source, std::move(gather)).first->second;
}

void BatchDevice::clear(const Stream& stream) const {
  ScopedDevice on(stream.device());
  H2D_CUDA_CHECK(cudaMemsetAsync(block_.data(), 0, block_.size(), stream.get()));
  if (device_output_.size() > 0) {
    H2D_CUDA_CHECK(cudaMemsetAsync(device_output_.data(), 0, device_output_.size(), stream.get()));
  }
  stream.synchronize();
  if (host_output_.size() > 0) {
    std::memset(host_output_.data(), 0, host_output_.size());
  }
}

void BatchDevice::verify_arrived(const SampleSet& samples, const Stream& stream) const {
  NvtxRange range(NvtxCategory::verify, "checksum batch members");
  for (std::size_t sample = 0; sample < layout_.batch(); ++sample) {
    for (Member member = 0; member < layout_.member_count(); ++member) {
      const std::size_t bytes = samples.bytes(member, sample);
      if (bytes == 0) {
        continue;  // an empty tensor: nothing crossed
      }
      verify_checksum(device_checksum(view(member, sample), bytes, stream),
                      samples.checksum(member, sample),
                      fmt::format("the {} of sample {} on the device",
                                  layout_.contents.members[member].name, sample));
    }
  }
}

void BatchDevice::verify_output(const SampleSet& samples) const {
  NvtxRange range(NvtxCategory::verify, "compare predict output");
  const std::size_t plane = plane_bytes(layout_);
  for (std::size_t sample = 0; sample < layout_.batch(); ++sample) {
    if (std::memcmp(host_output_.data() + sample * plane, samples.data(0, sample), plane) != 0) {
      throw VerificationError(
          fmt::format("the predict output of sample {} read on the host is not the first plane "
                      "of its {}",
                      sample, layout_.contents.members.front().name));
    }
  }
}

}  // namespace h2d
