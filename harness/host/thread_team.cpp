#include "harness/host/thread_team.hpp"

#include <stdexcept>

#include "harness/trace/nvtx.hpp"

namespace h2d {

ThreadTeam::ThreadTeam(std::size_t threads, std::string name) {
  if (threads == 0) {
    throw std::invalid_argument("a thread team needs at least one thread");
  }
  nvtx_initialize();
  workers_.reserve(threads - 1);
  for (std::size_t i = 1; i < threads; ++i) {
    workers_.emplace_back([this, i, name] { work(i, name); });
  }
}

ThreadTeam::~ThreadTeam() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (auto& worker : workers_) {
    worker.join();
  }
}

void ThreadTeam::run(const std::function<void(std::size_t)>& task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    error_ = nullptr;
    pending_ = workers_.size();
    ++generation_;
  }
  start_.notify_all();
  std::exception_ptr own_error;
  try {
    task(0);
  } catch (...) {
    own_error = std::current_exception();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
  task_ = nullptr;
  if (own_error) {
    std::rethrow_exception(own_error);
  }
  if (error_) {
    std::rethrow_exception(error_);
  }
}

void ThreadTeam::work(std::size_t index, const std::string& name) {
  nvtx_name_this_thread(name + " " + std::to_string(index));
  std::size_t seen = 0;
  while (true) {
    const std::function<void(std::size_t)>* task = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) {
        return;
      }
      seen = generation_;
      task = task_;
    }
    std::exception_ptr error;
    try {
      (*task)(index);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (error && !error_) {
      error_ = error;
    }
    if (--pending_ == 0) {
      done_.notify_one();
    }
  }
}

std::pair<std::size_t, std::size_t> split_range(std::size_t total, std::size_t parts,
                                                std::size_t index) {
  const std::size_t base = total / parts;
  const std::size_t extra = total % parts;
  const std::size_t begin = index * base + (index < extra ? index : extra);
  return {begin, begin + base + (index < extra ? 1 : 0)};
}

}  // namespace h2d
