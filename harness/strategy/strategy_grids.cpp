#include "harness/strategy/strategy_grids.hpp"

#include <algorithm>

#include "harness/core/host_threads.hpp"
#include "harness/core/size_grid.hpp"

namespace h2d {
namespace {

constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;
constexpr std::size_t GiB = std::size_t{1} << 30;

void add_unique(std::vector<BounceRingConfig>& configs, const BounceRingConfig& config) {
  if (std::find(configs.begin(), configs.end(), config) == configs.end()) {
    configs.push_back(config);
  }
}

}  // namespace

std::vector<std::size_t> stream_counts(Preset preset) {
  if (preset == Preset::quick) {
    return {1, 4};
  }
  return {1, 2, 4, 8, 16};
}

std::vector<std::size_t> streams_sizes(Preset preset) {
  switch (preset) {
    case Preset::quick:
      return {64 * MiB};
    case Preset::standard:
      return geometric_sizes(16 * MiB, 1 * GiB, 4);
    case Preset::full:
      return geometric_sizes(4 * MiB, 1 * GiB, 2);
  }
  return {};
}

std::vector<std::size_t> staging_sizes(Preset preset) {
  if (preset == Preset::quick) {
    return {4 * MiB, 64 * MiB};
  }
  return geometric_sizes(1 * MiB, 1 * GiB, 4);
}

std::vector<BounceRingConfig> ring_configs(Preset preset, std::size_t cores) {
  cores = std::max<std::size_t>(cores, 1);
  const std::size_t some_threads = std::min<std::size_t>(4, cores);
  const std::vector<std::size_t> chunks = geometric_sizes(256 * KiB, 16 * MiB, 4);
  std::vector<BounceRingConfig> configs;
  switch (preset) {
    case Preset::quick:
      add_unique(configs, {1 * MiB, 2, 1});
      add_unique(configs, {1 * MiB, 2, some_threads});
      break;
    case Preset::standard:
      // One axis at a time around C = 4 MiB, D = 2, T = min(4, cores).
      for (std::size_t chunk : chunks) {
        add_unique(configs, {chunk, 2, some_threads});
      }
      for (std::size_t depth : {3, 4}) {
        add_unique(configs, {4 * MiB, depth, some_threads});
      }
      for (std::size_t threads : host_thread_counts(preset, cores)) {
        add_unique(configs, {4 * MiB, 2, threads});
      }
      break;
    case Preset::full:
      for (std::size_t chunk : chunks) {
        for (std::size_t depth : {2, 3, 4}) {
          for (std::size_t threads : host_thread_counts(preset, cores)) {
            add_unique(configs, {chunk, depth, threads});
          }
        }
      }
      break;
  }
  return configs;
}

bool ring_fits(const BounceRingConfig& config, std::size_t bytes) {
  return config.chunk_bytes > 0 && bytes / config.chunk_bytes >= 2;
}

std::vector<std::size_t> pin_cost_sizes(Preset preset) {
  switch (preset) {
    case Preset::quick:
      return {1 * MiB, 64 * MiB};
    case Preset::standard:
      return geometric_sizes(64 * KiB, 1 * GiB, 4);
    case Preset::full:
      return geometric_sizes(4 * KiB, 1 * GiB, 2);
  }
  return {};
}

std::vector<std::size_t> cached_request_sizes(Preset preset) {
  // Capped so the rounded block stays at 512 MiB or less.
  std::vector<std::size_t> sizes;
  for (std::size_t size : pin_cost_sizes(preset)) {
    if (size <= 256 * MiB) {
      sizes.push_back(size + size / 2);
    }
  }
  return sizes;
}

std::vector<std::size_t> zero_copy_sizes(Preset preset) {
  switch (preset) {
    case Preset::quick:
      return {64, 64 * KiB, 1 * MiB};
    case Preset::standard:
      return geometric_sizes(64, 1 * MiB, 4);
    case Preset::full:
      return geometric_sizes(64, 16 * MiB, 2);
  }
  return {};
}

std::vector<HostStagingPoint> host_staging_grid(Preset preset, std::size_t cores) {
  std::size_t bytes = 0;
  std::vector<std::size_t> chunks;
  switch (preset) {
    case Preset::quick:
      bytes = 64 * MiB;
      chunks = {256 * KiB, 4 * MiB};
      break;
    case Preset::standard:
      bytes = 256 * MiB;
      chunks = geometric_sizes(64 * KiB, 16 * MiB, 16);  // full has the steps between
      break;
    case Preset::full:
      bytes = 1 * GiB;
      chunks = geometric_sizes(64 * KiB, 64 * MiB, 2);
      break;
  }
  std::vector<HostStagingPoint> grid;
  for (std::size_t threads : host_thread_counts(preset, cores)) {
    for (std::size_t chunk : chunks) {
      grid.push_back({bytes, chunk, 2, threads});
    }
  }
  return grid;
}

}  // namespace h2d
