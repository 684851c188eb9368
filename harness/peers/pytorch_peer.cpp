#include "harness/peers/pytorch_peer.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "harness/core/text_wrap.hpp"
#include "harness/peers/peer_process_failure.hpp"
#include "harness/report/json_fields.hpp"

namespace h2d {
namespace {

using std::chrono::milliseconds;

constexpr const char* kScript = "scripts/peers/pytorch_peer.py";

std::string this_program_folder() {
  std::array<char, 4096> path{};
  const ssize_t length = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  return length > 0
             ? std::filesystem::path(std::string(path.data(), static_cast<std::size_t>(length)))
                   .parent_path()
                   .string()
             : std::string();
}

std::string join_numbers(const std::vector<std::uint64_t>& values) {
  std::string text;
  for (const std::uint64_t value : values) {
    text += (text.empty() ? "" : ",") + std::to_string(value);
  }
  return text;
}

// The script's JSON: its last line that is a JSON object (torch may warn before it).
std::optional<nlohmann::json> last_json_line(const std::string& output) {
  std::istringstream lines(output);
  std::string line;
  std::optional<nlohmann::json> found;
  while (std::getline(lines, line)) {
    if (line.empty() || line.front() != '{') {
      continue;
    }
    nlohmann::json parsed = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_object()) {
      found = std::move(parsed);
    }
  }
  return found;
}

std::string pairing_of(const nlohmann::json& figure, const nlohmann::json& report,
                       const LoaderSettings& settings) {
  const std::string test = string_or(figure, "test", "");
  const double bytes = number_or(figure, "bytes", 0);
  if (test == "to_cuda_pinned" && bytes > 0) {
    return memory_case("h2d", "pinned", "async", static_cast<std::uint64_t>(bytes));
  }
  if (test == "to_cuda_pageable" && bytes > 0) {
    return memory_case("h2d", "pageable", "sync", static_cast<std::uint64_t>(bytes));
  }
  if (test == "dataloader") {
    return loader_case(report, static_cast<int>(number_or(figure, "num_workers", -1)),
                       bool_or(figure, "pin_memory", false), settings);
  }
  return {};
}

}  // namespace

std::string pytorch_peer_script() {
  if (const char* chosen = std::getenv("H2D_PYTORCH_PEER"); chosen != nullptr && *chosen != 0) {
    return chosen;
  }
  const std::filesystem::path beside = std::filesystem::path(this_program_folder()) / kScript;
  std::error_code error;
  if (std::filesystem::is_regular_file(beside, error)) {
    return beside.string();
  }
  return (std::filesystem::path(H2D_PEERS_SOURCE_DIR) / kScript).string();
}

std::vector<std::string> pytorch_command(const std::string& python, const std::string& script,
                                         const std::vector<std::uint64_t>& sizes,
                                         const LoaderSettings& settings) {
  std::vector<std::string> argv = {python, script};
  if (!sizes.empty()) {
    argv.insert(argv.end(), {"--sizes", join_numbers(sizes)});
  }
  std::string workers;
  for (const long long count : settings.workers) {
    workers += (workers.empty() ? "" : ",") + std::to_string(count);
  }
  argv.insert(argv.end(), {"--workers", workers});
  argv.insert(argv.end(), {"--batch", std::to_string(settings.batch), "--sample-us",
                           std::to_string(settings.sample_us), "--compute-us",
                           std::to_string(settings.compute_us), "--batches",
                           std::to_string(kPeerLoaderBatches)});
  return argv;
}

PeerRun read_pytorch_run(const std::vector<std::string>& argv, const ProcessOutcome& outcome,
                         milliseconds limit, const nlohmann::json& report,
                         const LoaderSettings& settings) {
  PeerRun run{"pytorch", command_text(argv), "failed", "", outcome.elapsed_s, {}};
  if (auto failure = process_failure(outcome, limit)) {
    run.reason = std::move(*failure);
    return run;
  }
  const auto document = last_json_line(outcome.output);
  const nlohmann::json* figures = document ? find_member(*document, "figures") : nullptr;
  if (figures == nullptr || !figures->is_array()) {
    run.reason = "its output has no JSON line with \"figures\"";
    return run;
  }
  run.status = "measured";
  const std::string version = string_or(*document, "torch", "");
  for (const nlohmann::json& figure : *figures) {
    const nlohmann::json* value = find_member(figure, "value");
    if (value == nullptr || !value->is_number() || string_or(figure, "unit", "").empty()) {
      continue;
    }
    const double bytes = number_or(figure, "bytes", 0);
    std::string test = string_or(figure, "test", "");
    if (test == "dataloader") {
      test = fmt::format("dataloader num_workers={} pin_memory={}",
                         static_cast<int>(number_or(figure, "num_workers", -1)),
                         bool_or(figure, "pin_memory", false) ? "True" : "False");
    }
    run.figures.push_back({"pytorch", version, run.command, test,
                           bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0, value->get<double>(),
                           string_or(figure, "unit", ""), pairing_of(figure, report, settings),
                           ""});
  }
  // What the script could not measure here (no CUDA for torch): said once, kept in the report.
  if (const nlohmann::json* skipped = find_member(*document, "skipped");
      skipped != nullptr && skipped->is_array()) {
    for (const nlohmann::json& why : *skipped) {
      if (why.is_string()) {
        run.reason += (run.reason.empty() ? "" : "; ") + why.get<std::string>();
      }
    }
  }
  return run;
}

void run_pytorch_peer(const PeerRequest& request, std::vector<PeerRun>& runs) {
  const auto started = std::chrono::steady_clock::now();
  const ProcessOutcome check =
      run_bounded({"python3", "-c", "import torch"}, request.limit, peer_environment(request));
  if (auto failure = process_failure(check, request.limit)) {
    runs.push_back({"pytorch",
                    "python3 -c 'import torch'",
                    "skipped",
                    "python3 cannot import torch (" + *failure + ")",
                    check.elapsed_s,
                    {}});
    fmt::print("{}", wrap_line("h2dbench: peers: pytorch skipped: " + runs.back().reason));
    return;
  }
  const LoaderSettings settings = peer_loader_settings(request.report);
  const auto argv = pytorch_command("python3", pytorch_peer_script(), request.sizes, settings);
  const milliseconds left = request.limit - std::chrono::duration_cast<milliseconds>(
                                                std::chrono::steady_clock::now() - started);
  fmt::print("{}", wrap_line(fmt::format("h2dbench: peers: pytorch ({}), at most {:g} s",
                                         command_text(argv),
                                         std::chrono::duration<double>(left).count())));
  runs.push_back(read_pytorch_run(
      argv, run_bounded(argv, std::max(left, milliseconds(1)), peer_environment(request)),
      std::max(left, milliseconds(1)), request.report, settings));
  const PeerRun& run = runs.back();
  if (run.status != "measured") {
    fmt::print("{}",
               wrap_line(fmt::format("h2dbench: peers: pytorch {}: {}", run.status, run.reason)));
  } else if (!run.reason.empty()) {
    fmt::print("{}", wrap_line("h2dbench: peers: pytorch: " + run.reason));
  }
}

}  // namespace h2d
