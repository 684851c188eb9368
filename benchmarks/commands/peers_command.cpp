// h2dbench peers: only the peer tools (nvbandwidth, PyTorch) at the given sizes, in a report of
// their figures alone (an empty "benchmarks" array, so Google Benchmark's tools still read it).

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/commands/commands.hpp"
#include "h2d/version.hpp"
#include "harness/cli/command_line.hpp"
#include "harness/core/byte_size.hpp"
#include "harness/core/duration.hpp"
#include "harness/core/host_info.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/peers/peer_session.hpp"
#include "harness/report/report_file.hpp"
#include "harness/suite/context.hpp"

namespace h2d {
namespace {

constexpr const char* kUsage =
    "peers [--out PATH] [--sizes LIST] [--nvbandwidth PATH] [--peer-limit SECONDS]";
constexpr const char* kDefaultSizes = "64MiB";

// "64MiB,512MiB": whole MiB each, for nvbandwidth's -b.
std::vector<std::uint64_t> parse_sizes(const std::string& text) {
  std::vector<std::uint64_t> sizes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string entry =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::size_t bytes = 0;
    try {
      bytes = parse_bytes(entry);
    } catch (const std::invalid_argument& error) {
      throw UsageError(fmt::format("--sizes '{}': {}", text, error.what()));
    }
    if (bytes == 0 || bytes % (std::size_t{1} << 20) != 0) {
      throw UsageError(
          fmt::format("--sizes '{}': '{}' is not a whole number of MiB (nvbandwidth "
                      "takes MiB), e.g. 64MiB",
                      text, entry));
    }
    sizes.push_back(bytes);
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return sizes;
}

int peers_command(const std::vector<std::string>& args, const std::string& /*program*/) {
  const ParsedArgs parsed = parse_command_line({"peers",
                                                {{"--out", "a file path"},
                                                 {"--sizes", "sizes such as 64MiB,512MiB"},
                                                 {"--nvbandwidth", "the nvbandwidth program"},
                                                 {"--peer-limit", "seconds, such as 60 or 2m"}},
                                                "",
                                                ""},
                                               args);
  PeerRequest request;
  request.nvbandwidth = parsed.get("--nvbandwidth");
  request.sizes = parse_sizes(parsed.get("--sizes").value_or(kDefaultSizes));
  if (const auto limit = parsed.get("--peer-limit")) {
    try {
      request.limit =
          std::chrono::milliseconds(static_cast<long long>(parse_duration_s(*limit) * 1000));
    } catch (const std::invalid_argument& error) {
      throw UsageError(fmt::format("--peer-limit: {}", error.what()));
    }
  }
  const HostInfo host = describe_host();
  const std::string out = parsed.get("--out").value_or(
      fmt::format("results/{}_peers_{}.json", file_safe(host.hostname), utc_timestamp_compact()));
  check_writable(out);
  request.report = {{"benchmarks", nlohmann::json::array()}};
  nlohmann::json report = {
      {"context", {{"date", utc_timestamp_iso()}, {"host_name", host.hostname}}},
      {"benchmarks", nlohmann::json::array()},
      {"h2dbench",
       {{"schema", kReportSchema},
        {"version", kVersion},
        {"git_sha", kGitSha},
        {"host", host_to_json(host)},
        {"run", {{"started_utc", utc_timestamp_iso()}}}}}};
  report["h2dbench"]["peers"] = run_peers(request);
  write_json_atomically(out, report);
  fmt::print("report: {}\n", out);
  return 0;
}

[[maybe_unused]] const bool peers_command_registered = register_command({
    "peers",
    kUsage,
    "run only the peer tools (nvbandwidth, PyTorch) and write a report of their figures",
    peers_command,
    "  --out PATH            report file (default: results/<host>_peers_<UTC time>.json)\n"
    "  --sizes LIST          copy sizes, whole MiB each (default: 64MiB)\n"
    "  --nvbandwidth PATH    the nvbandwidth program (default: found on PATH)\n"
    "  --peer-limit SECONDS  the peers' time bound, all together; one still running then is\n"
    "                        killed (default: 60)\n",
});

}  // namespace
}  // namespace h2d
