#include "harness/cli/run_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "harness/cli/benchmark_flags.hpp"
#include "harness/cli/command_line.hpp"
#include "harness/core/byte_size.hpp"
#include "harness/core/duration.hpp"
#include "harness/core/filter_regex.hpp"
#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

// Profile mode fixes the iterations and runs each case once, so a profiler's output stays small;
// flags that ask for more contradict it.
void check_profile_flags(RunOptions& options) {
  if (options.trace) {
    options.profile = true;
  }
  if (!options.profile) {
    return;
  }
  const char* mode = options.trace ? "--trace" : "--profile";
  for (const std::string& flag : options.benchmark_flags) {
    for (const char* fixed : {"--benchmark_repetitions", "--benchmark_min_time"}) {
      if (flag.rfind(fixed, 0) == 0) {
        throw UsageError(fmt::format(
            "'{}' contradicts {}, which runs every case a few iterations once; drop one of them",
            flag, mode));
      }
    }
  }
}

CommandSyntax run_syntax(bool listing) {
  CommandSyntax syntax{listing ? "list" : "run",
                       {{"--preset", "quick, default or full"},
                        {"--filter", "a regular expression"},
                        {"--devices", "'all' or GPU ordinals such as 0,1"},
                        {"--sample", "a named sample, name:shape:dtype members, or @FILE"}},
                       "",
                       listing ? "" : "--benchmark_"};
  if (listing) {
    syntax.options.push_back({"--all", ""});
  } else {
    syntax.options.insert(syntax.options.end(), {{"--out", "a file path"},
                                                 {"--pinned-limit", "a size such as 8GiB"},
                                                 {"--profile", ""},
                                                 {"--trace", "a file such as t.json"},
                                                 {"--watchdog", "seconds, such as 30 or 2m"},
                                                 {"--images", "a folder of .jpg/.jpeg files"},
                                                 {"--console", "compact or full"},
                                                 {"--peers", ""},
                                                 {"--nvbandwidth", "the nvbandwidth program"},
                                                 {"--peer-limit", "seconds, such as 60 or 2m"}});
  }
  return syntax;
}

}  // namespace

std::string run_options_help(bool listing) {
  std::string help =
      "  --preset quick|default|full   how much to sweep (default: default)\n"
      "  --filter REGEX                only cases whose name matches\n"
      "  --devices all|LIST            GPU ordinals to use, e.g. 0,1 (default: 0)\n"
      "  --sample SPEC                 one sample of your batch: tile (default), imagenet,\n"
      "                                detection, tokens, or name:shape:dtype members separated\n"
      "                                by commas (image:3x224x224:uint8,boxes:0..100x4:float32;\n"
      "                                A..B varies per sample), or @FILE (JSON)\n";
  if (listing) {
    return help +
           "  --all                         without a usable GPU, also the cases a GPU run would\n"
           "                                execute (on GPU 0, or the --devices given), marked\n"
           "                                \"needs a GPU\"\n";
  }
  return help +
         "  --out PATH                    report file (default: "
         "results/<host>_<gpu>_<UTC time>.json)\n"
         "  --pinned-limit SIZE           cap on pinned host memory (default: half of available)\n"
         "  --profile                     a few iterations per case, once: for profilers "
         "(scripts/profile)\n"
         "  --trace FILE.json             built-in timeline (Chrome trace JSON) and checks of the\n"
         "                                cases' claims against it; implies --profile\n"
         "  --watchdog SECONDS            stop a pipeline case when no batch completes for this "
         "long (default: 30)\n"
         "  --images DIR                  the JPEGs the decode cases use (.jpg/.jpeg, "
         "recursively;\n"
         "                                default: generated 256x256 and 512x512 tiles)\n"
         "  --console compact|full        a row a case with its figure (default), or Google\n"
         "                                Benchmark's table with every counter\n"
         "  --peers                       after the cases, run nvbandwidth and PyTorch (when "
         "found)\n"
         "                                at the run's sizes; their figures go to h2dbench.peers\n"
         "  --nvbandwidth PATH            the nvbandwidth program (default: found on PATH);\n"
         "                                implies --peers\n"
         "  --peer-limit SECONDS          the peers' time bound, all of them together; one still "
         "running\n"
         "                                then is killed (default: 60)\n"
         "  --benchmark_*                 passed to Google Benchmark, e.g. "
         "--benchmark_repetitions=5\n"
         "\nexit codes: 0 done, 1 a case failed (wrong data, a CUDA error, a stall), 2 bad input, "
         "130 interrupted (Ctrl-C; the report of what completed is written)\n";
}

RunOptions parse_run_options(const std::vector<std::string>& args, bool listing) {
  if (listing) {
    for (const std::string& arg : args) {
      if (arg.rfind("--benchmark_", 0) == 0) {
        throw UsageError(fmt::format("'{}': list takes no Google Benchmark flags", arg));
      }
    }
  }
  const ParsedArgs parsed = parse_command_line(run_syntax(listing), args);
  RunOptions options;
  if (const auto preset = parsed.get("--preset")) {
    options.preset = parse_preset(*preset);
  }
  if (const auto filter = parsed.get("--filter")) {
    options.filter = *filter;
    compile_filter("--filter", options.filter);
  }
  options.devices = parsed.get("--devices");
  if (const auto sample = parsed.get("--sample")) {
    options.sample = parse_sample(*sample, "--sample");
    options.sample_given = *sample;
  }
  options.all_cases = parsed.has("--all");
  options.out = parsed.get("--out");
  if (const auto limit = parsed.get("--pinned-limit")) {
    try {
      options.pinned_limit = parse_bytes(*limit);
    } catch (const std::invalid_argument& error) {
      throw UsageError(fmt::format("--pinned-limit: {}", error.what()));
    }
  }
  if (const auto console = parsed.get("--console")) {
    if (*console != "compact" && *console != "full") {
      throw UsageError(fmt::format("--console '{}': compact or full", *console));
    }
    options.console = *console == "full" ? ConsoleMode::full : ConsoleMode::compact;
  }
  options.profile = parsed.has("--profile");
  options.trace = parsed.get("--trace");
  if (const auto watchdog = parsed.get("--watchdog")) {
    try {
      options.watchdog_s = parse_watchdog_s(*watchdog);
    } catch (const std::invalid_argument& error) {
      throw UsageError(fmt::format("--watchdog: {}", error.what()));
    }
  }
  options.images = parsed.get("--images");
  options.nvbandwidth = parsed.get("--nvbandwidth");
  options.peers = parsed.has("--peers") || options.nvbandwidth.has_value();
  if (const auto limit = parsed.get("--peer-limit")) {
    try {
      options.peer_limit_s = parse_duration_s(*limit);
    } catch (const std::invalid_argument& error) {
      throw UsageError(fmt::format("--peer-limit: {}", error.what()));
    }
  }
  options.benchmark_flags = parsed.passthrough;
  check_benchmark_flags(options.benchmark_flags);
  options.benchmark_filter = benchmark_flag(options.benchmark_flags, "filter").value_or("");
  check_profile_flags(options);
  return options;
}

std::vector<int> parse_device_list(const std::string& text, int device_count) {
  const std::string existing =
      device_count == 0
          ? std::string("none")
          : (device_count == 1 ? std::string("0") : fmt::format("0..{}", device_count - 1));
  std::vector<int> devices;
  if (text == "all") {
    for (int i = 0; i < device_count; ++i) {
      devices.push_back(i);
    }
    return devices;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string entry =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const bool digits =
        !entry.empty() && entry.size() < 6 &&
        std::all_of(entry.begin(), entry.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) {
      throw UsageError(
          fmt::format("--devices '{}': '{}' is not a GPU ordinal (use 'all' or a list such as 0,1)",
                      text, entry));
    }
    const int ordinal = std::stoi(entry);
    if (ordinal >= device_count) {
      throw UsageError(fmt::format("--devices '{}': GPU {} does not exist (GPUs here: {})", text,
                                   ordinal, existing));
    }
    if (std::find(devices.begin(), devices.end(), ordinal) != devices.end()) {
      throw UsageError(fmt::format("--devices '{}': GPU {} is listed twice", text, ordinal));
    }
    devices.push_back(ordinal);
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return devices;
}

}  // namespace h2d
