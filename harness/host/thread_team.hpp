#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace h2d {

// A fixed set of host threads that run one task together and wait for each other: the host
// threads of multithreaded memcpy and staging. Started once, so timing does not include thread
// creation. The caller is member 0 (a team of one runs inline, with no hand-off cost); the
// others are named for NVTX timelines ("<name> <index>").
class ThreadTeam {
 public:
  ThreadTeam(std::size_t threads, std::string name);
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;
  ~ThreadTeam();

  std::size_t size() const { return workers_.size() + 1; }
  // Runs task(index) on every thread, index 0..size()-1, and returns when all have finished.
  // The first exception a task throws is rethrown here.
  void run(const std::function<void(std::size_t)>& task);

 private:
  void work(std::size_t index, const std::string& name);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t generation_ = 0;
  std::size_t pending_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
};

// [begin, end) of part `index` when `total` items are split into `parts` near-equal parts.
std::pair<std::size_t, std::size_t> split_range(std::size_t total, std::size_t parts,
                                                std::size_t index);

}  // namespace h2d
