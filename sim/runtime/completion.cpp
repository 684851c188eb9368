#include "sim/runtime/completion.hpp"

namespace h2d::sim {

std::shared_ptr<Completion> Completion::already_done(std::uint64_t end_ns) {
  auto completion = std::make_shared<Completion>();
  completion->complete(end_ns);
  return completion;
}

void Completion::complete(std::uint64_t end_ns) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
    end_ns_ = end_ns;
  }
  changed_.notify_all();
}

bool Completion::done() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return done_;
}

std::uint64_t Completion::wait() const {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return done_; });
  return end_ns_;
}

}  // namespace h2d::sim
