#include "harness/cuda/latch.hpp"

#include <cstring>
#include <stdexcept>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "kernels/latch.cuh"

namespace h2d {

LatchHold::LatchHold(LatchHold&& other) noexcept : latch_(other.latch_) {
  other.latch_ = nullptr;
}

LatchHold::~LatchHold() {
  release();
}

void LatchHold::release() noexcept {
  if (latch_ != nullptr) {
    latch_->release();
    latch_ = nullptr;
  }
}

StreamLatch::StreamLatch(int device, Latching latching, std::chrono::milliseconds timeout)
    : flags_([device] {
        ScopedDevice on(device);
        return HostBuffer(HostKind::mapped, 2 * sizeof(int));
      }()),
      latching_(latching),
      timeout_(timeout) {
  std::memset(flags_.data(), 0, 2 * sizeof(int));  // timed_out() is false before any block()
}

LatchHold StreamLatch::block(const Stream& stream) {
  if (held_) {
    throw std::logic_error("a StreamLatch holds one stream at a time; release it first");
  }
  auto* flags = reinterpret_cast<int*>(flags_.data());
  __atomic_store_n(&flags[0], 0, __ATOMIC_SEQ_CST);
  __atomic_store_n(&flags[1], 0, __ATOMIC_SEQ_CST);
  if (latching_ == Latching::off) {
    return LatchHold(nullptr);  // nothing holds the stream; timed_out() stays false
  }
  auto* device_flags = static_cast<int*>(flags_.device_pointer());
  ScopedDevice on(stream.device());
  H2D_CUDA_CHECK(kernels::launch_latch(
      device_flags, device_flags + 1,
      static_cast<std::uint64_t>(std::chrono::nanoseconds(timeout_).count()), stream.get()));
  held_ = true;
  return LatchHold(this);
}

void StreamLatch::release() noexcept {
  // A sequentially consistent store: visible to the spinning kernel without reordering.
  __atomic_store_n(reinterpret_cast<int*>(flags_.data()), 1, __ATOMIC_SEQ_CST);
  held_ = false;
}

bool StreamLatch::timed_out() const {
  return __atomic_load_n(reinterpret_cast<const int*>(flags_.data()) + 1, __ATOMIC_SEQ_CST) != 0;
}

}  // namespace h2d
