#include "harness/run_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <stdexcept>

#include "harness/byte_size.hpp"
#include "harness/duration.hpp"
#include "harness/usage_error.hpp"

namespace h2d {
namespace {

// Splits "--flag=value" or takes the value from the next word.
std::string take_value(const std::vector<std::string>& args, std::size_t& i,
                       const std::string& flag, const std::string& inline_value, bool has_inline,
                       const char* valid) {
  if (has_inline) {
    if (inline_value.empty()) {
      throw UsageError(fmt::format("{} needs a value ({})", flag, valid));
    }
    return inline_value;
  }
  if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0) {
    throw UsageError(fmt::format("{} needs a value ({})", flag, valid));
  }
  return args[++i];
}

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

}  // namespace

RunOptions parse_run_options(const std::vector<std::string>& args, bool listing) {
  RunOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--benchmark_", 0) == 0) {
      if (listing) {
        throw UsageError(fmt::format("'{}': list takes no Google Benchmark flags", arg));
      }
      options.benchmark_flags.push_back(arg);
      continue;
    }
    const std::size_t equals = arg.find('=');
    const bool has_inline = equals != std::string::npos;
    const std::string flag = has_inline ? arg.substr(0, equals) : arg;
    const std::string inline_value = has_inline ? arg.substr(equals + 1) : std::string();
    if (flag == "--preset") {
      options.preset = parse_preset(
          take_value(args, i, flag, inline_value, has_inline, "quick, default or full"));
    } else if (flag == "--filter") {
      options.filter = take_value(args, i, flag, inline_value, has_inline, "a regular expression");
      try {
        std::regex check(options.filter);
      } catch (const std::regex_error& error) {
        throw UsageError(fmt::format("--filter '{}' is not a valid regular expression: {}",
                                     options.filter, error.what()));
      }
    } else if (flag == "--devices") {
      options.devices =
          take_value(args, i, flag, inline_value, has_inline, "'all' or GPU ordinals such as 0,1");
    } else if (flag == "--out" && !listing) {
      options.out = take_value(args, i, flag, inline_value, has_inline, "a file path");
    } else if (flag == "--pinned-limit" && !listing) {
      const std::string value =
          take_value(args, i, flag, inline_value, has_inline, "a size such as 8GiB");
      try {
        options.pinned_limit = parse_bytes(value);
      } catch (const std::invalid_argument& error) {
        throw UsageError(fmt::format("--pinned-limit: {}", error.what()));
      }
    } else if (flag == "--profile" && !listing && !has_inline) {
      options.profile = true;
    } else if (flag == "--trace" && !listing) {
      options.trace = take_value(args, i, flag, inline_value, has_inline, "a file such as t.json");
    } else if (flag == "--watchdog" && !listing) {
      const std::string value =
          take_value(args, i, flag, inline_value, has_inline, "seconds, such as 30 or 2m");
      try {
        options.watchdog_s = parse_duration_s(value);
      } catch (const std::invalid_argument& error) {
        throw UsageError(fmt::format("--watchdog: {}", error.what()));
      }
    } else {
      throw UsageError(fmt::format(
          "unknown option '{}' for {} (valid: --preset, --filter, --devices{}; see --help)", arg,
          listing ? "list" : "run",
          listing ? "" : ", --out, --pinned-limit, --profile, --trace, --watchdog, --benchmark_*"));
    }
  }
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
