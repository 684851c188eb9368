#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/preset.hpp"
#include "harness/core/sample_spec.hpp"

namespace h2d {

// What the terminal shows of each case: one row of its figure that fits 120 columns (compact),
// or Google Benchmark's table with every counter (full: `run --console full`).
enum class ConsoleMode { compact, full };

// The options of `h2dbench run` and `h2dbench list`, parsed but not yet checked against the
// machine (devices) or the file system (output path).
struct RunOptions {
  Preset preset = Preset::standard;
  std::optional<std::string> out;      // --out PATH
  std::optional<std::string> devices;  // --devices LIST, checked by select_devices()
  std::string filter;                  // --filter REGEX over case names
  std::optional<std::size_t> pinned_limit;
  bool profile = false;               // --profile: a few iterations per case, no repetitions
  std::optional<std::string> trace;   // --trace FILE: built-in timeline (implies --profile)
  std::optional<double> watchdog_s;   // --watchdog SECONDS: pipeline stall timeout
  std::optional<std::string> images;  // --images DIR: the JPEGs the decode cases use
  ConsoleMode console = ConsoleMode::compact;  // --console compact|full
  std::vector<std::string> benchmark_flags;    // --benchmark_*, checked, passed to Google Benchmark
  std::string benchmark_filter;  // --benchmark_filter's value, applied when cases are selected
  bool all_cases = false;        // list --all: also the GPU cases where no GPU is usable
  bool peers = false;            // --peers: nvbandwidth and PyTorch after the cases
  std::optional<std::string> nvbandwidth;  // --nvbandwidth PATH (implies --peers)
  double peer_limit_s = 60;                // --peer-limit SECONDS: each peer's time bound
  // --sample SPEC: what one sample of the user's batch carries (harness/core/sample_spec);
  // the tile by default.
  SampleSpec sample = named_samples().front();
  std::string sample_given = "tile";  // as the user wrote it (a name, members or @FILE)
};

// The options of `run` (listing false) or `list` (true) and what they mean, one line each, for
// `h2dbench run --help` and `h2dbench list --help`.
std::string run_options_help(bool listing);

// Parses `args` (the words after the subcommand). `listing` is true for `list`, which takes only
// --preset, --filter, --devices, --sample and --all. Throws UsageError naming the flag and what is
// valid.
RunOptions parse_run_options(const std::vector<std::string>& args, bool listing);

// "all" or a comma list of ordinals ("0,2"); each must be below `device_count`, none repeated.
// Throws UsageError naming the bad entry and the devices that exist.
std::vector<int> parse_device_list(const std::string& text, int device_count);

}  // namespace h2d
