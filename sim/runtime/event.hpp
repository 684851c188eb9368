#pragma once

#include <cstdint>
#include <mutex>

#include "sim/runtime/completion.hpp"

namespace h2d::sim {

// A CUDA event: the completion of the last cudaEventRecord, whose time is the sim clock at which
// the stream reached it (Runtime API, cudaEventRecord: "the event is recorded after all preceding
// operations in the stream have been completed").
class Event {
 public:
  Event(int device, unsigned flags) : device_(device), flags_(flags) {}
  int device() const { return device_; }
  unsigned flags() const { return flags_; }
  bool timing() const;
  void set_recorded(CompletionPtr completion);
  // nullptr until recorded.
  CompletionPtr recorded() const;

 private:
  const int device_;
  const unsigned flags_;
  mutable std::mutex mutex_;
  CompletionPtr recorded_;
};

}  // namespace h2d::sim
