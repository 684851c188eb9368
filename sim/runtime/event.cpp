#include "sim/runtime/event.hpp"

#include <cuda_runtime_api.h>

#include <utility>

namespace h2d::sim {

bool Event::timing() const {
  return (flags_ & cudaEventDisableTiming) == 0;
}

void Event::set_recorded(CompletionPtr completion) {
  std::lock_guard<std::mutex> lock(mutex_);
  recorded_ = std::move(completion);
}

CompletionPtr Event::recorded() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return recorded_;
}

}  // namespace h2d::sim
