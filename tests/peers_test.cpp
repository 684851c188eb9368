// The peer tools beside h2dbench: nvbandwidth's recorded v0.8 output read back, stand-in
// nvbandwidth programs (the recorded output, a failure, a hang, garbage, none at all) run by
// `h2dbench peers` and `run --peers`, and the gap the summary prints.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "harness/core/stop_signal.hpp"
#include "harness/peers/bounded_process.hpp"
#include "harness/peers/nvbandwidth_output.hpp"
#include "harness/peers/nvbandwidth_peer.hpp"
#include "harness/peers/peer_pairing.hpp"
#include "harness/peers/peer_session.hpp"
#include "harness/report/peer_figures.hpp"
#include "harness/report/peer_gaps.hpp"
#include "harness/report/report_file.hpp"
#include "harness/report/summary.hpp"
#include "tests/gpu_test_support.hpp"
#include "tests/h2dbench_process.hpp"

namespace {

using h2d_test::shell_quote;

const std::string kRecorded = "/results/2026-12-04_h200-pcie5/";

std::string recorded(const std::string& file) {
  std::ifstream in(h2d::testing::source_dir() + kRecorded + file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// A program named `name` in `folder` running `body` under /bin/sh.
void write_stand_in(const std::filesystem::path& folder, const std::string& name,
                    const std::string& body) {
  const auto path = folder / name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

// PATH with `folder` first and no python3 that can import torch (the stand-in torch is elsewhere).
std::string path_with(const std::filesystem::path& folder) {
  return "PATH=" + shell_quote(folder.string() + ":/usr/bin:/bin");
}

const nlohmann::json& run_of(const nlohmann::json& report, const std::string& peer) {
  for (const nlohmann::json& run : report["h2dbench"]["peers"]["runs"]) {
    if (run["peer"] == peer) {
      return run;
    }
  }
  static const nlohmann::json none;
  return none;
}

TEST(PeerNvbandwidthOutput, ReadsTheRecordedV08Output) {
  std::string why;
  const auto at64 = h2d::parse_nvbandwidth_output(recorded("nvbw64.log"), why);
  ASSERT_TRUE(at64) << why;
  EXPECT_EQ(at64->version, "v0.8");
  ASSERT_EQ(at64->sums.size(), 2U);
  EXPECT_EQ(at64->sums[0].test, "host_to_device_memcpy_ce");
  EXPECT_DOUBLE_EQ(at64->sums[0].gb_per_s, 55.42);
  EXPECT_EQ(at64->sums[1].test, "device_to_host_memcpy_ce");
  EXPECT_DOUBLE_EQ(at64->sums[1].gb_per_s, 55.31);

  const auto full = h2d::parse_nvbandwidth_output(recorded("nvbw.log"), why);
  ASSERT_TRUE(full) << why;
  ASSERT_EQ(full->sums.size(), 6U);
  EXPECT_EQ(full->sums[2].test, "host_to_device_bidirectional_memcpy_ce");
  EXPECT_DOUBLE_EQ(full->sums[2].gb_per_s, 49.31);
  EXPECT_DOUBLE_EQ(full->sums[5].gb_per_s, 52.65);
}

TEST(PeerNvbandwidthOutput, RefusesOutputThatIsNotNvbandwidths) {
  std::string why;
  EXPECT_FALSE(h2d::parse_nvbandwidth_output("Segmentation fault\nSUM x y\nSUM a 1 2\n", why));
  EXPECT_NE(why.find("not nvbandwidth's"), std::string::npos) << why;
  EXPECT_FALSE(h2d::parse_nvbandwidth_output("nvbandwidth Version: v0.8\nWaived\n", why));
  EXPECT_NE(why.find("no 'SUM"), std::string::npos) << why;
}

TEST(PeerNvbandwidthRun, PairsEachDirectionWithItsPinnedAsyncCase) {
  const auto argv = h2d::nvbandwidth_command("nvbandwidth", std::uint64_t{64} << 20);
  EXPECT_EQ(h2d::command_text(argv),
            "nvbandwidth -b 64 -t host_to_device_memcpy_ce device_to_host_memcpy_ce "
            "host_to_device_bidirectional_memcpy_ce device_to_host_bidirectional_memcpy_ce "
            "host_to_device_memcpy_sm device_to_host_memcpy_sm");
  h2d::ProcessOutcome outcome;
  outcome.ending = h2d::ProcessEnding::exited;
  outcome.exit_code = 0;
  outcome.output = recorded("nvbw.log");
  const h2d::PeerRun run =
      h2d::read_nvbandwidth_run(argv, std::uint64_t{512} << 20, outcome, std::chrono::seconds(60));
  EXPECT_EQ(run.status, "measured");
  ASSERT_EQ(run.figures.size(), 6U);
  EXPECT_EQ(run.figures[0].pairs_with, "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=512MiB");
  EXPECT_EQ(run.figures[1].pairs_with, "h2d/memory/dir=d2h/kind=pinned/mode=async/bytes=512MiB");
  EXPECT_EQ(run.figures[0].pairs_counter, "") << "the unit's rate, GB_per_s";
  // The bidirectional tests time one direction with the other running: dir=both's counter of it.
  EXPECT_EQ(run.figures[2].pairs_with, "h2d/memory/dir=both/kind=pinned/mode=async/bytes=512MiB");
  EXPECT_EQ(run.figures[2].pairs_counter, "h2d_both_GB_per_s");
  EXPECT_EQ(run.figures[3].pairs_with, run.figures[2].pairs_with);
  EXPECT_EQ(run.figures[3].pairs_counter, "d2h_both_GB_per_s");
  EXPECT_EQ(run.figures[4].pairs_with,
            "h2d/memory/dir=h2d/kind=pinned/mode=async/engine=sm/bytes=512MiB");
  EXPECT_EQ(run.figures[5].pairs_with,
            "h2d/memory/dir=d2h/kind=pinned/mode=async/engine=sm/bytes=512MiB");
  EXPECT_EQ(run.figures[0].version, "v0.8");
  EXPECT_EQ(run.figures[0].unit, "GB/s");
}

TEST(PeerPairing, HandsNvbandwidthTheRunsWholeMiBPinnedAsyncSizes) {
  const h2d::Report quick = h2d::read_report(h2d::testing::source_dir() + kRecorded + "quick.json");
  const auto sizes = h2d::peer_copy_sizes(quick.document, 3);
  ASSERT_EQ(sizes.size(), 2U) << "quick measures 4KiB, 1MiB and 64MiB; 4KiB is no whole MiB";
  EXPECT_EQ(sizes[0], std::uint64_t{1} << 20);
  EXPECT_EQ(sizes[1], std::uint64_t{64} << 20);
  EXPECT_EQ(h2d::peer_copy_sizes(quick.document, 1).size(), 1U);
}

// PyTorch's loader is measured at the worker counts the run's own loops used (and 0, its
// default), so each of those loops gets its DataLoader beside it: the H200's quick run had 2.
TEST(PeerPairing, HandsPytorchTheRunsLoaderWorkerCounts) {
  const h2d::Report quick = h2d::read_report(h2d::testing::source_dir() + kRecorded + "quick.json");
  const h2d::LoaderSettings settings = h2d::peer_loader_settings(quick.document);
  EXPECT_EQ(settings.workers, (std::vector<long long>{0, 2}));
  EXPECT_EQ(settings.batch, 16U);
  EXPECT_EQ(h2d::loader_case(quick.document, 2, false, settings),
            "host/pipeline/loop=train/workers=2/prefetch=2/pin=none/copy=sync/batch=16/"
            "compute_us=300/sample_us=50");
  // A report without loops (h2dbench peers alone): PyTorch's default and a 4-worker loader.
  EXPECT_EQ(h2d::peer_loader_settings(nlohmann::json::object()).workers,
            (std::vector<long long>{0, 4}));
}

TEST(PeerBoundedProcess, KillsAHangingProgramAndWhatItStartedAtTheBound) {
  const auto started = std::chrono::steady_clock::now();
  const auto outcome = h2d::run_bounded({"/bin/sh", "-c", "echo before; sleep 30 & sleep 30"},
                                        std::chrono::milliseconds(500));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  EXPECT_EQ(outcome.ending, h2d::ProcessEnding::killed_at_limit);
  EXPECT_EQ(outcome.output, "before\n");
  EXPECT_EQ(h2d::run_bounded({"no-such-program-h2d"}, std::chrono::seconds(1)).ending,
            h2d::ProcessEnding::could_not_start);
}

// A peer that closes its output and runs on is still ended at the bound, never waited on forever.
TEST(PeerBoundedProcess, APeerThatClosesItsOutputAndRunsOnEndsAtTheBound) {
  const auto started = std::chrono::steady_clock::now();
  const auto outcome =
      h2d::run_bounded({"/bin/sh", "-c", "echo said; exec >/dev/null 2>&1; sleep 30"},
                       std::chrono::milliseconds(500));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  EXPECT_EQ(outcome.ending, h2d::ProcessEnding::killed_at_limit);
  EXPECT_EQ(outcome.output, "said\n");
}

// Ctrl-C to h2dbench (a stop request) ends the peer at once, which sits in a process group of its
// own that the terminal's signal does not reach.
TEST(PeerBoundedProcess, AStopRequestEndsThePeerAtOnce) {
  h2d::request_stop();
  const auto started = std::chrono::steady_clock::now();
  const auto outcome = h2d::run_bounded({"/bin/sh", "-c", "sleep 30"}, std::chrono::seconds(20));
  h2d::clear_stop_request();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  EXPECT_EQ(outcome.ending, h2d::ProcessEnding::interrupted);
  EXPECT_NE(h2d::describe_ending(outcome, std::chrono::seconds(20)).find("interrupted"),
            std::string::npos);
}

// The peers see only the GPU the run measured: CUDA_VISIBLE_DEVICES in their environment.
TEST(PeerBoundedProcess, ThePeersRunWithTheRunsGpuVisibleOnly) {
  h2d::PeerRequest request;
  EXPECT_TRUE(h2d::peer_environment(request).empty()) << "h2dbench peers: every GPU";
  request.device = 3;
  const auto environment = h2d::peer_environment(request);
  ASSERT_EQ(environment, std::vector<std::string>{"CUDA_VISIBLE_DEVICES=3"});
  const auto outcome = h2d::run_bounded({"/bin/sh", "-c", "echo \"$CUDA_VISIBLE_DEVICES $HOME\""},
                                        std::chrono::seconds(5), environment);
  const char* home = std::getenv("HOME");
  EXPECT_EQ(outcome.output, std::string("3 ") + (home != nullptr ? home : "") + "\n")
      << "the rest of the environment is inherited";
}

// The report's peers part of one nvbandwidth run at `mib` MiB that printed the recorded `log`.
nlohmann::json recorded_nvbandwidth_peers(const std::string& log, std::uint64_t mib) {
  h2d::ProcessOutcome outcome;
  outcome.ending = h2d::ProcessEnding::exited;
  outcome.exit_code = 0;
  outcome.output = recorded(log);
  const std::uint64_t bytes = mib << 20;
  const auto run = h2d::read_nvbandwidth_run(h2d::nvbandwidth_command("nvbandwidth", bytes), bytes,
                                             outcome, std::chrono::seconds(60));
  return h2d::peers_to_json({run}, 60);
}

// Gap lines read from a report of the H200's quick run with nvbandwidth's recorded figures.
TEST(PeerGap, SummaryPrintsOursBesideNvbandwidthsWithTheGap) {
  h2d::Report quick = h2d::read_report(h2d::testing::source_dir() + kRecorded + "quick.json");
  quick.document["h2dbench"]["peers"] = recorded_nvbandwidth_peers("nvbw64.log", 64);
  const auto lines = h2d::peer_gap_lines(quick.document);
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0], "pinned H2D 64 MiB: 55.12 GB/s, nvbandwidth 55.42 (-0.5%)");
  EXPECT_EQ(lines[1], "pinned D2H 64 MiB: 55.01 GB/s, nvbandwidth 55.31 (-0.5%)");
  const std::string printed = h2d::format_summary(h2d::summarize_report(quick.document));
  EXPECT_NE(printed.find("  pinned H2D 64 MiB: 55.12 GB/s, nvbandwidth 55.42 (-0.5%)\n"),
            std::string::npos)
      << printed;

  const auto folder = h2d_test::scratch_folder("peer_gap");
  h2d::write_json_atomically((folder / "with_peers.json").string(), quick.document);
  const auto summary =
      h2d_test::run_h2dbench("summary " + shell_quote((folder / "with_peers.json").string()));
  EXPECT_EQ(summary.exit_code, 0) << summary.output;
  EXPECT_NE(summary.output.find("pinned D2H 64 MiB: 55.01 GB/s, nvbandwidth 55.31 (-0.5%)"),
            std::string::npos)
      << summary.output;
}

// nvbandwidth's bidirectional figures stand beside h2d/memory dir=both, each beside the counter of
// its direction, its _sm figure beside engine=sm, and the pairing survives the report's round
// trip. (The H200 run had neither case: the cases here carry the figures a run would have written,
// with their names.)
TEST(PeerGap, BidirectionalAndSmFiguresStandBesideTheirCases) {
  h2d::Report quick = h2d::read_report(h2d::testing::source_dir() + kRecorded + "quick.json");
  nlohmann::json both;
  for (const auto& entry : quick.document["benchmarks"]) {
    if (entry["name"] == "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB") {
      both = entry;
    }
  }
  ASSERT_FALSE(both.is_null());
  const std::string name = "h2d/memory/dir=both/kind=pinned/mode=async/bytes=512MiB";
  both["name"] = name;
  both["run_name"] = name;
  both.erase("axes");
  both["h2d_both_GB_per_s"] = 49.0;
  both["d2h_both_GB_per_s"] = 51.2;
  both["GB_per_s"] = 100.2;
  quick.document["benchmarks"].push_back(both);
  nlohmann::json by_sms = both;  // and one copy by the SMs, beside nvbandwidth's _sm figure
  by_sms["name"] = by_sms["run_name"] =
      "h2d/memory/dir=h2d/kind=pinned/mode=async/engine=sm/bytes=512MiB";
  by_sms["GB_per_s"] = 50.0;
  quick.document["benchmarks"].push_back(by_sms);
  quick.document["h2dbench"]["peers"] = recorded_nvbandwidth_peers("nvbw.log", 512);
  const nlohmann::json round_trip = nlohmann::json::parse(quick.document.dump());
  const auto lines = h2d::peer_gap_lines(round_trip);
  ASSERT_EQ(lines.size(), 3U) << "the copy-engine 512 MiB figures have no case in this report";
  EXPECT_EQ(lines[0], "pinned H2D with D2H 512 MiB: 49.00 GB/s, nvbandwidth 49.31 (-0.6%)");
  EXPECT_EQ(lines[1], "pinned D2H with H2D 512 MiB: 51.20 GB/s, nvbandwidth 51.06 (+0.3%)");
  EXPECT_EQ(lines[2], "pinned H2D 512 MiB by the SMs: 50.00 GB/s, nvbandwidth 51.34 (-2.6%)");
}

TEST(PeerCommand, WritesAReportOfTheRecordedNvbandwidthFigures) {
  const auto folder = h2d_test::scratch_folder("peer_recorded");
  write_stand_in(folder, "nvbandwidth",
                 "cat " + shell_quote(h2d::testing::source_dir() + kRecorded + "nvbw64.log"));
  const auto out = folder / "peers.json";
  const auto result = h2d_test::run_h2dbench(
      "peers --sizes 64MiB --out " + shell_quote(out.string()), path_with(folder));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("nvbandwidth (" + (folder / "nvbandwidth").string() + ") at 64MiB"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("at most 60 s"), std::string::npos) << result.output;
  const nlohmann::json report = read_json(out);
  EXPECT_TRUE(report["benchmarks"].is_array() && report["benchmarks"].empty());
  const auto figures = h2d::peer_figures_from_report(report);
  ASSERT_EQ(figures.size(), 2U);
  EXPECT_EQ(figures[0].test, "host_to_device_memcpy_ce");
  EXPECT_EQ(figures[0].bytes, std::uint64_t{64} << 20);
  EXPECT_DOUBLE_EQ(figures[0].value, 55.42);
  EXPECT_EQ(figures[0].version, "v0.8");
  EXPECT_NE(figures[0].command.find("-b 64 -t host_to_device_memcpy_ce"), std::string::npos);
  EXPECT_EQ(run_of(report, "nvbandwidth")["status"], "measured");
}

struct BadPeer {
  std::string name;
  std::string body;
  std::string reason;  // what the line and the report say
};

class PeerFailure : public ::testing::TestWithParam<BadPeer> {};

TEST_P(PeerFailure, CostsOneLineAndTheReportRecordsWhy) {
  const BadPeer& bad = GetParam();
  const auto folder = h2d_test::scratch_folder("peer_" + bad.name);
  write_stand_in(folder, "nvbandwidth", bad.body);
  const auto out = folder / "peers.json";
  const auto started = std::chrono::steady_clock::now();
  const auto result = h2d_test::run_h2dbench(
      "peers --peer-limit 2 --out " + shell_quote(out.string()), path_with(folder));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string line = "h2dbench: peers: nvbandwidth failed: " + bad.reason;
  EXPECT_NE(result.output.find(line), std::string::npos) << result.output;
  const nlohmann::json report = read_json(out);
  const nlohmann::json& run = run_of(report, "nvbandwidth");
  EXPECT_EQ(run["status"], "failed");
  EXPECT_NE(run["reason"].get<std::string>().find(bad.reason), std::string::npos) << run;
  EXPECT_TRUE(report["h2dbench"]["peers"]["figures"].empty());
}

INSTANTIATE_TEST_SUITE_P(
    PeerStandIns, PeerFailure,
    ::testing::Values(BadPeer{"exits_1", "echo 'CUDA error: no device' >&2; exit 1",
                              "exited with code 1: CUDA error: no device"},
                      BadPeer{"hangs", "echo starting; sleep 300",
                              "killed after 2 s (its time bound)"},
                      BadPeer{"garbage", "echo 'SUM of nothing'; head -c 300 /dev/urandom | od",
                              "its output has no version line and no 'SUM <test> <GB/s>' line"}),
    [](const ::testing::TestParamInfo<BadPeer>& param_info) { return param_info.param.name; });

TEST(PeerRun, AMissingNvbandwidthIsOneLineAndTheRunEndsAsItWouldHave) {
  const auto folder = h2d_test::scratch_folder("peer_missing");
  const auto out = folder / "report.json";
  const auto result = h2d_test::run_h2dbench(
      "run --preset quick --filter '^host/memcpy/' --peers --out " + shell_quote(out.string()),
      path_with(folder));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("--peers: after the cases, nvbandwidth and PyTorch where found, at "
                               "most 60 s in all"),
            std::string::npos)
      << result.output;
  EXPECT_NE(
      result.output.find("h2dbench: peers: nvbandwidth skipped: nvbandwidth not found on PATH"),
      std::string::npos)
      << result.output;
  const nlohmann::json report = read_json(out);
  EXPECT_FALSE(report["benchmarks"].empty()) << "the cases are all there";
  EXPECT_EQ(run_of(report, "nvbandwidth")["status"], "skipped");
  EXPECT_EQ(run_of(report, "pytorch")["status"], "skipped");
}

TEST(PeerRun, NvbandwidthGivenByPathThatIsNoProgramIsOneLine) {
  const auto folder = h2d_test::scratch_folder("peer_bad_path");
  const auto out = folder / "peers.json";
  const auto result = h2d_test::run_h2dbench(
      "peers --nvbandwidth /nonexistent/nvbandwidth --out " + shell_quote(out.string()),
      path_with(folder));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("--nvbandwidth '/nonexistent/nvbandwidth' is no executable file"),
            std::string::npos)
      << result.output;
  EXPECT_TRUE(std::filesystem::exists(out));
}

// scripts/peers/pytorch_peer.py against the stand-in torch of tests/fixtures/stand_in_torch (it
// measures nothing: its figures only prove the plumbing).
std::string stand_in_torch(const std::filesystem::path& folder, bool cuda) {
  return path_with(folder) + " PYTHONPATH=" +
         shell_quote(h2d::testing::source_dir() + "/tests/fixtures/stand_in_torch") +
         " H2D_STAND_IN_TORCH_LOG=" + shell_quote((folder / "torch.log").string()) +
         " H2D_STAND_IN_CUDA=" + (cuda ? "1" : "0");
}

TEST(PeerPytorch, MeasuresCopiesAndTheDataLoaderAndPairsThem) {
  const auto folder = h2d_test::scratch_folder("peer_pytorch");
  const auto out = folder / "peers.json";
  const auto result = h2d_test::run_h2dbench(
      "peers --sizes 1MiB --out " + shell_quote(out.string()), stand_in_torch(folder, true));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("h2dbench: peers: pytorch (python3 "), std::string::npos)
      << result.output;
  const nlohmann::json report = read_json(out);
  EXPECT_EQ(run_of(report, "pytorch")["status"], "measured") << report["h2dbench"]["peers"];
  const auto figures = h2d::peer_figures_from_report(report);
  ASSERT_EQ(figures.size(), 6U) << report["h2dbench"]["peers"];
  EXPECT_EQ(figures[0].test, "to_cuda_pageable");
  EXPECT_EQ(figures[0].pairs_with, "h2d/memory/dir=h2d/kind=pageable/mode=sync/bytes=1MiB");
  EXPECT_EQ(figures[1].test, "to_cuda_pinned");
  EXPECT_EQ(figures[1].pairs_with, "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=1MiB");
  EXPECT_EQ(figures[1].version, "0.0+stand-in");
  EXPECT_EQ(figures[5].test, "dataloader num_workers=4 pin_memory=True");
  EXPECT_EQ(figures[5].unit, "samples/s");
  std::ifstream log(folder / "torch.log");
  const std::string calls((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(calls.find("DataLoader batch_size=16 num_workers=4 pin_memory=True"), std::string::npos)
      << calls;
}

TEST(PeerPytorch, WithoutCudaMeasuresOnlyTheLoaderAndSaysWhy) {
  const auto folder = h2d_test::scratch_folder("peer_pytorch_no_cuda");
  const auto out = folder / "peers.json";
  const auto result = h2d_test::run_h2dbench(
      "peers --sizes 1MiB --out " + shell_quote(out.string()), stand_in_torch(folder, false));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("torch.cuda.is_available() is False"), std::string::npos)
      << result.output;
  const nlohmann::json report = read_json(out);
  const auto figures = h2d::peer_figures_from_report(report);
  // Without CUDA nothing is pinned: only the pin_memory=False loaders, and the reason why.
  ASSERT_EQ(figures.size(), 2U);
  EXPECT_EQ(figures[0].test, "dataloader num_workers=0 pin_memory=False");
  EXPECT_EQ(figures[1].test, "dataloader num_workers=4 pin_memory=False");
  const std::string reason = run_of(report, "pytorch")["reason"].get<std::string>();
  EXPECT_NE(reason.find("not measured"), std::string::npos) << reason;
  EXPECT_NE(reason.find("without CUDA nothing is pinned"), std::string::npos) << reason;
}

TEST(PeerCommand, RefusesSizesNvbandwidthCannotTake) {
  const auto result =
      h2d_test::run_h2dbench("peers --sizes 4KiB --out /tmp/h2d-never-written.json");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("not a whole number of MiB"), std::string::npos) << result.output;
}

// The whole of run --peers on a GPU (the simulated one in CI): nvbandwidth (a stand-in printing the
// recorded v0.8 output at 64 MiB, failing at any other size) beside the quick run's pinned async
// copies, its figures paired with those cases and the gap in the verdict.
TEST(PeersGpu, RunPairsNvbandwidthWithThePinnedAsyncCopiesAndPrintsTheGap) {
  H2D_REQUIRE_GPU();
  const auto folder = h2d_test::scratch_folder("peer_gpu_run");
  write_stand_in(folder, "nvbandwidth",
                 "case \"$*\" in *'-b 64 '*) cat " +
                     shell_quote(h2d::testing::source_dir() + kRecorded + "nvbw64.log") +
                     " ;; *) echo 'not recorded at this size' >&2; exit 1 ;; esac");
  const auto out = folder / "report.json";
  const auto result = h2d_test::run_h2dbench(
      "run --preset quick --filter '^h2d/memory/dir=(h2d|d2h)/kind=pinned/mode=async/' --peers "
      "--out " +
          shell_quote(out.string()),
      path_with(folder));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const nlohmann::json report = read_json(out);
  std::set<std::string> paired;
  for (const auto& figure : h2d::peer_figures_from_report(report)) {
    if (figure.peer == "nvbandwidth" && figure.bytes == (std::uint64_t{64} << 20)) {
      paired.insert(figure.pairs_with);
    }
  }
  EXPECT_EQ(paired,
            (std::set<std::string>{"h2d/memory/dir=d2h/kind=pinned/mode=async/bytes=64MiB",
                                   "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB"}))
      << result.output;
  EXPECT_NE(result.output.find("nvbandwidth 55.42 ("), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nvbandwidth 55.31 ("), std::string::npos) << result.output;
  // The 1 MiB call failed: one line, and the 64 MiB figures are kept.
  EXPECT_NE(result.output.find("not recorded at this size"), std::string::npos) << result.output;
}

}  // namespace
