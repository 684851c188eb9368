// h2dbench soak: randomized pipeline configurations, one after another, for a while. What it
// proves is the absence of the failures data loaders are known for: no batch lost or corrupted
// (every batch is checksummed), no hang (the watchdog would report it), over many shapes of
// pipeline. Without a GPU it soaks the same orchestration with the host stand-in.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "benchmarks/commands/commands.hpp"
#include "harness/cli/command_line.hpp"
#include "harness/core/duration.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/pinned_budget.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/pipeline/gpu/gpu_step_engine.hpp"
#include "harness/pipeline/host_step_engine.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/pipeline/watchdog.hpp"

namespace h2d {
namespace {

struct SoakOptions {
  double duration_s = 60;
  double watchdog_s = 30;
  std::uint64_t seed = 0;
  bool seed_given = false;
  int device = 0;
  bool device_given = false;
};

constexpr const char* kSoakUsage =
    "soak [--duration 60s] [--watchdog SECONDS] [--seed N] [--device ORDINAL]";

SoakOptions parse_soak_options(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_command_line({"soak",
                                                {{"--duration", "a duration such as 60s, 5m or 2h"},
                                                 {"--watchdog", "seconds, such as 30 or 2m"},
                                                 {"--seed", "a non-negative integer"},
                                                 {"--device", "a GPU ordinal such as 0"}},
                                                "",
                                                ""},
                                               args);
  // A whole number in [0, max]; anything else names the flag and what is valid.
  const auto whole = [](const char* flag, const std::string& value, unsigned long long max,
                        const char* valid) {
    const bool digits =
        value.size() <= 20 && std::all_of(value.begin(), value.end(),
                                          [](unsigned char c) { return std::isdigit(c) != 0; });
    errno = 0;
    const unsigned long long number = digits ? std::strtoull(value.c_str(), nullptr, 10) : 0;
    if (!digits || errno == ERANGE || number > max) {
      throw UsageError(fmt::format("{} '{}' is not valid; give {}", flag, value, valid));
    }
    return number;
  };
  const auto duration = [](const char* flag, const std::string& value,
                           double (*parse)(std::string_view)) {
    try {
      return parse(value);
    } catch (const std::invalid_argument& error) {
      throw UsageError(fmt::format("{}: {}", flag, error.what()));
    }
  };
  SoakOptions options;
  if (const auto value = parsed.get("--duration")) {
    options.duration_s = duration("--duration", *value, parse_duration_s);
  }
  if (const auto value = parsed.get("--watchdog")) {
    options.watchdog_s = duration("--watchdog", *value, parse_watchdog_s);
  }
  if (const auto value = parsed.get("--seed")) {
    options.seed = whole("--seed", *value, std::numeric_limits<std::uint64_t>::max(),
                         "a non-negative integer such as 11");
    options.seed_given = true;
  }
  if (const auto value = parsed.get("--device")) {
    options.device = static_cast<int>(whole("--device", *value, 1023, "a GPU ordinal such as 0"));
    options.device_given = true;
  }
  return options;
}

template <typename T>
T pick(std::mt19937_64& rng, const std::vector<T>& values) {
  return values[std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng)];
}

std::size_t between(std::mt19937_64& rng, std::size_t low, std::size_t high) {
  return std::uniform_int_distribution<std::size_t>(low, high)(rng);
}

// Every knob at random, small enough that a configuration takes well under a second. Every
// batch is verified: a soak is for finding wrong data.
PipelineConfig random_config(std::mt19937_64& rng, bool gpu, double watchdog_s) {
  PipelineConfig config;
  config.loop = pick<LoopKind>(rng, {LoopKind::train, LoopKind::predict});
  config.workers = between(rng, 1, std::min<std::size_t>(8, 2 * usable_cores()));
  config.prefetch = between(rng, 1, 6);
  config.pin = pick<PinMode>(rng, {PinMode::none, PinMode::pin_thread, PinMode::pinned_ring});
  config.copy = pick<CopyMode>(rng, {CopyMode::sync, CopyMode::async});
  config.batch_size = between(rng, 1, 32);
  config.tile =
      gpu ? pick<std::size_t>(rng, {16, 32, 64, 128}) : pick<std::size_t>(rng, {8, 16, 32, 64});
  config.channels = pick<std::size_t>(rng, {1, 3});
  config.sample_us = pick<double>(rng, {0, 0, 20, 100});
  config.compute_us = pick<double>(rng, {0, 50, 200, 1000});
  config.batches = between(rng, 8, 80);
  config.warmup = between(rng, 0, 3);
  config.verify_every = 1;
  config.slots = pick<std::size_t>(rng, {0, 0, 1, 2, 3});  // few slots: refills wait on fences
  config.seed = rng();
  if (config.pin == PinMode::pin_thread) {  // one pin thread as PyTorch, or a team of them
    config.pin_threads = pick<std::size_t>(rng, {1, 1, 2, 4});
  }
  if (pick<int>(rng, {0, 0, 1}) == 1) {  // worker processes, their batches in shared memory
    config.worker = WorkerKind::process;
    config.shm = pick<ShmMode>(rng, {ShmMode::fresh, ShmMode::reused});
    if (config.pin == PinMode::pinned_ring) {
      config.pin = config.shm == ShmMode::reused ? PinMode::shared_pinned : PinMode::none;
    }
    // The reused ring at its smallest (one slot more than the batches asked) or its default.
    config.slots = config.shm == ShmMode::reused && config.slots > 0
                       ? config.workers * config.prefetch + 1
                       : 0;
  }
  config.watchdog = std::chrono::duration<double>(watchdog_s);
  return config;
}

struct SoakTotals {
  std::size_t configs = 0;
  std::size_t batches = 0;
  std::size_t verified = 0;
  std::size_t checksum_failures = 0;
  std::size_t lost_batches = 0;
  std::size_t stalls = 0;
  std::size_t errors = 0;
  std::size_t skipped = 0;
  double longest_stall_s = 0;
  std::string longest_stall_config;

  bool clean() const {
    return checksum_failures == 0 && lost_batches == 0 && stalls == 0 && errors == 0;
  }
};

// Runs one configuration for one epoch, stopped at `deadline` (the end of --duration); false when
// the soak must end (interrupted, out of time, CUDA error).
bool soak_one(const PipelineConfig& config, const DeviceDiscovery& discovery, int device,
              EpochDeadline deadline, SoakTotals& totals, double elapsed_s) {
  const std::string what = describe(config);
  const std::size_t number = ++totals.configs;
  EpochResult epoch;
  try {
    std::optional<ScopedDevice> on;  // the pinned ring is allocated for this GPU
    std::unique_ptr<StepEngine> engine;
    if (discovery.usable()) {
      on.emplace(device);
      engine = std::make_unique<GpuStepEngine>(device, config);
    } else {
      engine = std::make_unique<HostStepEngine>(config);
    }
    Pipeline pipeline(config, *engine);
    epoch = pipeline.run_epoch(deadline);
  } catch (const PinnedBudgetExceeded& error) {
    ++totals.skipped;
    fmt::print("[{:7.1f}s] #{} {}: skipped: {}\n", elapsed_s, number, what, error.what());
    return true;
  } catch (const std::exception& error) {
    ++totals.errors;
    fmt::print(stderr, "[{:7.1f}s] #{} {}: ERROR: {}\n", elapsed_s, number, what, error.what());
    return false;
  }
  totals.batches += epoch.completed;
  totals.verified += epoch.verified;
  totals.checksum_failures += epoch.checksum_failures;
  totals.lost_batches += epoch.lost_batches;
  if (epoch.longest_gap_s > totals.longest_stall_s) {
    totals.longest_stall_s = epoch.longest_gap_s;
    totals.longest_stall_config = fmt::format("#{} {}", number, what);
  }
  std::string outcome =
      fmt::format("{} batches, longest gap {:.1f} ms", epoch.completed, epoch.longest_gap_s * 1e3);
  if (epoch.checksum_failures > 0 || epoch.lost_batches > 0) {
    outcome += fmt::format("; WRONG DATA: {} checksum failures, {} lost batches; first: {}",
                           epoch.checksum_failures, epoch.lost_batches, epoch.first_failure);
  }
  switch (epoch.end) {
    case EpochEnd::completed:
      break;
    case EpochEnd::stalled:
      ++totals.stalls;
      outcome += "; STALLED: " + epoch.message;
      break;
    case EpochEnd::interrupted:
      outcome += "; interrupted";
      break;
    case EpochEnd::out_of_time:
      outcome += "; stopped at the end of --duration";
      break;
    case EpochEnd::failed:
      ++totals.errors;
      outcome += "; ERROR: " + epoch.message;
      break;
  }
  auto* stream =
      epoch.end == EpochEnd::completed && epoch.checksum_failures == 0 && epoch.lost_batches == 0
          ? stdout
          : stderr;
  fmt::print(stream, "[{:7.1f}s] #{} {}: {}\n", elapsed_s, number, what, outcome);
  return epoch.end == EpochEnd::completed || epoch.end == EpochEnd::stalled;
}

int soak_command(const std::vector<std::string>& args, const std::string& /*program*/) {
  SoakOptions options = parse_soak_options(args);
  if (!options.seed_given) {
    options.seed = std::random_device{}();
  }
  const DeviceDiscovery& discovery = discover_devices();
  std::string where;
  if (discovery.usable()) {
    if (options.device >= static_cast<int>(discovery.devices.size())) {
      throw UsageError(fmt::format("--device {}: no such GPU (GPUs here: 0..{})", options.device,
                                   discovery.devices.size() - 1));
    }
    where = fmt::format("GPU {} ({})", options.device,
                        discovery.devices[static_cast<std::size_t>(options.device)].name);
  } else {
    if (options.device_given) {
      throw UsageError(fmt::format("--device {}: no usable GPU here: {}", options.device,
                                   discovery.unavailable_reason));
    }
    where = "the host-only pipeline (host stand-in for the GPU)";
    fmt::print("h2dbench soak: no usable GPU: {}. Soaking the host-only pipeline instead.\n",
               discovery.unavailable_reason);
  }
  fmt::print(
      "h2dbench soak: {:g} s of random pipeline configurations on {}, seed {}, watchdog {:g} s\n",
      options.duration_s, where, options.seed, options.watchdog_s);

  const StopSignalScope stop_on_signal;
  std::mt19937_64 rng(options.seed);
  SoakTotals totals;
  const Stopwatch clock;
  // The end of --duration: no configuration starts after it, and the one running then stops
  // there too (one took 150 s under TSan).
  const auto end = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(options.duration_s));
  while (std::chrono::steady_clock::now() < end && !stop_requested()) {
    const PipelineConfig config = random_config(rng, discovery.usable(), options.watchdog_s);
    if (!soak_one(config, discovery, options.device, end, totals, clock.seconds())) {
      break;
    }
  }

  fmt::print(
      "soak summary ({}, seed {}, {:.1f} s{}):\n"
      "  configurations:             {} ({} skipped for the pinned-memory cap)\n"
      "  batches completed:          {}\n"
      "  checksum failures:          {} (of {} verified batches)\n"
      "  lost or duplicated batches: {}\n"
      "  stalls (watchdog {:g} s):     {}\n"
      "  errors:                     {}\n"
      "  longest stall:              {:.1f} ms ({})\n",
      where, options.seed, clock.seconds(), stop_requested() ? ", interrupted" : "", totals.configs,
      totals.skipped, totals.batches, totals.checksum_failures, totals.verified,
      totals.lost_batches, options.watchdog_s, totals.stalls, totals.errors,
      totals.longest_stall_s * 1e3, totals.longest_stall_config);
  if (!totals.clean()) {
    fmt::print(stderr, "h2dbench soak: FAILED (rerun with --seed {} to repeat)\n", options.seed);
    return 1;
  }
  return stop_requested() ? 130 : 0;
}

[[maybe_unused]] const bool soak_command_registered = register_command({
    "soak",
    kSoakUsage,
    "run random pipeline configurations for a while: no lost batch, no wrong data, no hang",
    soak_command,
});

}  // namespace
}  // namespace h2d
