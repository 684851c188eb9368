#include "harness/host/host_stream.hpp"

#include <chrono>
#include <utility>

#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {
// Waits re-check their Cancellation this often; cancel is the shutdown path, not the hot path.
constexpr std::chrono::milliseconds kCancelPoll(5);
}  // namespace

HostStream::HostStream(std::string name) {
  thread_ = std::thread([this, name = std::move(name)] {
    nvtx_name_this_thread(name);
    run();
  });
}

HostStream::~HostStream() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  has_task_.notify_all();
  thread_.join();
}

void HostStream::enqueue(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(task));
    ++enqueued_;
  }
  has_task_.notify_one();
}

std::uint64_t HostStream::enqueued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return enqueued_;
}

bool HostStream::wait_reached(std::uint64_t count, const Cancellation& cancel) const {
  std::unique_lock<std::mutex> lock(mutex_);
  while (finished_ < count) {
    if (cancel.cancelled()) {
      return false;
    }
    finished_changed_.wait_for(lock, kCancelPoll);
  }
  return true;
}

void HostStream::synchronize() const {
  std::unique_lock<std::mutex> lock(mutex_);
  const std::uint64_t target = enqueued_;
  finished_changed_.wait(lock, [&] { return finished_ >= target; });
}

void HostStream::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    has_task_.wait(lock, [this] { return closing_ || !tasks_.empty(); });
    if (tasks_.empty()) {
      return;  // closing, and everything queued has run
    }
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    task();
    lock.lock();
    ++finished_;
    finished_changed_.notify_all();
  }
}

void HostEvent::record(const HostStream& stream) {
  const std::uint64_t count = stream.enqueued();
  std::lock_guard<std::mutex> lock(mutex_);
  point_ = {&stream, count};
}

HostEvent::Point HostEvent::point() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return point_;
}

bool HostEvent::wait(const Cancellation& cancel) const {
  const Point at = point();
  return at.stream == nullptr || at.stream->wait_reached(at.count, cancel);
}

void HostEvent::enqueue_wait(HostStream& waiter, const Cancellation& cancel) const {
  const Point at = point();
  if (at.stream == nullptr) {
    return;
  }
  waiter.enqueue([at, &cancel] { at.stream->wait_reached(at.count, cancel); });
}

}  // namespace h2d
