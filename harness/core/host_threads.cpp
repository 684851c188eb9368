#include "harness/core/host_threads.hpp"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace h2d {

std::vector<std::size_t> host_thread_counts(Preset preset, std::size_t cores) {
  cores = std::max<std::size_t>(cores, 1);
  std::vector<std::size_t> counts;
  if (preset == Preset::quick) {
    counts = {1, cores};
  } else {
    for (std::size_t n = 1; n < cores; n *= 2) {
      counts.push_back(n);
    }
    counts.push_back(cores);
  }
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

std::size_t usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    return std::max(1, CPU_COUNT(&set));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace h2d
