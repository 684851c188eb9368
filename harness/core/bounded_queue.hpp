#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace h2d {

// A blocking FIFO with a fixed capacity between pipeline stages: the capacity is the stage's
// prefetch depth, and a full queue is how a slow consumer holds its producers back.
// Two ways to end it, so no thread is ever left blocked:
//   close():  the producers are done; consumers drain what is queued, then pop() returns nullopt.
//   cancel(): stop now; every blocked or later push() and pop() returns at once (false/nullopt).
template <typename T>
class BoundedQueue {
 public:
  BoundedQueue(std::string name, std::size_t capacity)
      : name_(std::move(name)), capacity_(capacity) {
    if (capacity == 0) {
      throw std::invalid_argument("queue '" + name_ + "' needs a capacity of at least 1");
    }
  }
  BoundedQueue(const BoundedQueue&) = delete;
  BoundedQueue& operator=(const BoundedQueue&) = delete;

  // Blocks while the queue is full. False when the queue was cancelled (the item is dropped).
  // Pushing after close() is a logic error.
  bool push(T item) {
    std::unique_lock<std::mutex> lock(mutex_);
    not_full_.wait(lock, [this] { return cancelled_ || items_.size() < capacity_; });
    if (cancelled_) {
      return false;
    }
    if (closed_) {
      throw std::logic_error("push to queue '" + name_ + "' after it was closed");
    }
    items_.push_back(std::move(item));
    lock.unlock();
    not_empty_.notify_one();
    return true;
  }

  // Blocks while the queue is empty and open. nullopt when closed and drained, or cancelled.
  std::optional<T> pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    not_empty_.wait(lock, [this] { return cancelled_ || closed_ || !items_.empty(); });
    if (cancelled_ || items_.empty()) {
      return std::nullopt;
    }
    std::optional<T> item(std::move(items_.front()));
    items_.pop_front();
    lock.unlock();
    not_full_.notify_one();
    return item;
  }

  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    not_empty_.notify_all();
  }

  void cancel() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      cancelled_ = true;
    }
    not_empty_.notify_all();
    not_full_.notify_all();
  }

  const std::string& name() const { return name_; }
  std::size_t capacity() const { return capacity_; }
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.size();
  }
  bool closed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_;
  }

 private:
  const std::string name_;
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable not_empty_;
  std::condition_variable not_full_;
  std::deque<T> items_;
  bool closed_ = false;
  bool cancelled_ = false;
};

}  // namespace h2d
