#include "sim/runtime/stream.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <thread>
#include <utility>

#include "sim/runtime/clock.hpp"

namespace h2d::sim {

Stream::Stream(int device, StreamKind kind, unsigned flags, std::uint32_t id)
    : device_(device), kind_(kind), flags_(flags), id_(id), last_(Completion::already_done(0)) {}

Stream::~Stream() = default;

std::shared_ptr<Stream> Stream::start(int device, StreamKind kind, unsigned flags,
                                      std::uint32_t id) {
  std::shared_ptr<Stream> stream(new Stream(device, kind, flags, id));
  // Detached: the thread owns the stream until its queue is closed and drained, so neither
  // cudaStreamDestroy nor process exit has to join a worker that may be held by a latch.
  std::thread([stream] { stream->run_worker(); }).detach();
  return stream;
}

bool Stream::blocking() const {
  return (flags_ & cudaStreamNonBlocking) == 0;
}

CompletionPtr Stream::push(Work work) {
  auto done = std::make_shared<Completion>();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(Queued{std::move(work), done, clock_ns()});
    last_ = done;
  }
  changed_.notify_one();
  return done;
}

CompletionPtr Stream::last() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_;
}

void Stream::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  changed_.notify_one();
}

void Stream::run_worker() {
  std::uint64_t previous_end_ns = 0;
  for (;;) {
    Queued item;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) {
        return;
      }
      item = std::move(queue_.front());
      queue_.pop_front();
    }
    std::uint64_t ready_ns = std::max(item.queued_ns, previous_end_ns);
    for (const CompletionPtr& other : item.work.after) {
      ready_ns = std::max(ready_ns, other->wait());
    }
    previous_end_ns = item.work.run ? item.work.run(ready_ns) : ready_ns;
    item.done->complete(previous_end_ns);
  }
}

}  // namespace h2d::sim
