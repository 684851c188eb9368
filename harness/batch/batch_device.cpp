#include "harness/batch/batch_device.hpp"

#include <fmt/format.h>

#include <cstring>

#include "harness/core/verification.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

std::size_t plane_bytes(const SampleShape& shape) {
  return shape.pixels() * sizeof(float);
}

}  // namespace

std::size_t BatchDevice::output_bytes(const LayoutPlan& layout, BatchTask task) {
  return task == BatchTask::predict ? layout.batch * plane_bytes(layout.shape) : 0;
}

BatchDevice::BatchDevice(int device, const LayoutPlan& layout, const TransferPlan& transfer,
                         BatchTask task)
    : layout_(layout), pack_(transfer.pack), task_(task), block_(device, transfer.pack.bytes) {
  const std::size_t output = output_bytes(layout, task);
  if (output > 0) {
    image_stride_ = packed_stride(layout_, pack_, Member::image);
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
  for (const HostCopy& copy : copies) {
    H2D_CUDA_CHECK(cudaMemcpyAsync(block_.data() + copy.device_offset, copy.source, copy.bytes,
                                   cudaMemcpyHostToDevice, stream.get()));
  }
  h2d_done.record(stream.get());
  if (task_ != BatchTask::predict) {
    return;
  }
  // The stand-in model: channel 0 of every image, one strided 2D copy, as the per-pixel output.
  const std::size_t plane = plane_bytes(layout_.shape);
  H2D_CUDA_CHECK(cudaMemcpy2DAsync(device_output_.data(), plane, view(Member::image, 0),
                                   image_stride_, plane, layout_.batch, cudaMemcpyDeviceToDevice,
                                   stream.get()));
  model_done.record(stream.get());
  H2D_CUDA_CHECK(cudaMemcpyAsync(host_output_.data(), device_output_.data(), host_output_.size(),
                                 cudaMemcpyDeviceToHost, stream.get()));
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
  for (std::size_t sample = 0; sample < layout_.batch; ++sample) {
    for (Member member : layout_.members) {
      verify_checksum(
          device_checksum(view(member, sample), member_bytes(layout_.shape, member), stream),
          samples.checksum(member, sample),
          fmt::format("the {} of sample {} on the device", to_string(member), sample));
    }
  }
}

void BatchDevice::verify_output(const SampleSet& samples) const {
  NvtxRange range(NvtxCategory::verify, "compare predict output");
  const std::size_t plane = plane_bytes(layout_.shape);
  for (std::size_t sample = 0; sample < layout_.batch; ++sample) {
    if (std::memcmp(host_output_.data() + sample * plane, samples.data(Member::image, sample),
                    plane) != 0) {
      throw VerificationError(fmt::format(
          "the predict output of sample {} read on the host is not its first image channel",
          sample));
    }
  }
}

}  // namespace h2d
