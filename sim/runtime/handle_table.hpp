#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>

namespace h2d::sim {

// Live CUDA handles (streams, events): the handle is the object's address, and a handle that was
// never made or was destroyed is found to be invalid instead of being dereferenced
// (cudaErrorInvalidResourceHandle).
template <typename T>
class HandleTable {
 public:
  void* add(std::shared_ptr<T> object) {
    void* handle = object.get();
    std::lock_guard<std::mutex> lock(mutex_);
    live_.emplace(handle, std::move(object));
    return handle;
  }
  std::shared_ptr<T> find(const void* handle) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = live_.find(handle);
    return found == live_.end() ? nullptr : found->second;
  }
  std::shared_ptr<T> remove(const void* handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = live_.find(handle);
    if (found == live_.end()) {
      return nullptr;
    }
    std::shared_ptr<T> object = std::move(found->second);
    live_.erase(found);
    return object;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const void*, std::shared_ptr<T>> live_;
};

}  // namespace h2d::sim
