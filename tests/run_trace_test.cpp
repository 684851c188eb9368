// `h2dbench run --profile` and `--trace FILE`: options, the host-only timeline every machine can
// write, and (on a GPU) CUPTI's records and the findings they produce.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <string>

#include "harness/cli/run_options.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/cupti_activity.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/trace/host_trace.hpp"
#include "harness/trace/nvtx.hpp"
#include "harness/trace/trace_findings.hpp"
#include "tests/gpu_test_support.hpp"
#include "tests/h2dbench_process.hpp"

namespace {

using h2d_test::shell_quote;

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "missing " << path;
  return nlohmann::json::parse(in);
}

TEST(RunOptions, ProfileAndTraceFlags) {
  const auto profile = h2d::parse_run_options({"--profile"}, false);
  EXPECT_TRUE(profile.profile);
  EXPECT_FALSE(profile.trace);
  const auto trace = h2d::parse_run_options({"--trace", "t.json"}, false);
  EXPECT_EQ(trace.trace.value_or(""), "t.json");
  EXPECT_TRUE(trace.profile) << "--trace runs in profile mode";
  EXPECT_EQ(h2d::parse_run_options({"--trace=x.json"}, false).trace.value_or(""), "x.json");
  EXPECT_THROW(h2d::parse_run_options({"--trace"}, false), h2d::UsageError);
  EXPECT_THROW(h2d::parse_run_options({"--profile"}, true), h2d::UsageError);
  EXPECT_THROW(h2d::parse_run_options({"--trace", "t.json"}, true), h2d::UsageError);
  try {
    h2d::parse_run_options({"--trace", "t.json", "--benchmark_repetitions=3"}, false);
    FAIL() << "repetitions contradict --trace";
  } catch (const h2d::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("contradicts --trace"), std::string::npos);
  }
  EXPECT_THROW(h2d::parse_run_options({"--profile", "--benchmark_min_time=1"}, false),
               h2d::UsageError);
}

TEST(RunTrace, WritesTheHostTimelineAndSaysWhatItRecorded) {
  const auto folder = h2d_test::scratch_folder("trace_host");
  const auto trace_path = folder / "run.trace.json";
  const auto report_path = folder / "report.json";
  const auto run = h2d_test::run_h2dbench("run --preset quick --filter '^host/memcpy/' --trace " +
                                          shell_quote(trace_path.string()) + " --out " +
                                          shell_quote(report_path.string()));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const bool gpu = h2d::discover_devices().usable();
  if (!gpu) {
    EXPECT_NE(run.output.find("CUPTI needs a usable CUDA device"), std::string::npos) << run.output;
  }
  const nlohmann::json report = read_json(report_path);
  const nlohmann::json& meta = report["h2dbench"];
  EXPECT_EQ(meta["run"]["profile"], true);
  EXPECT_EQ(meta["trace"]["file"], trace_path.string());
  EXPECT_EQ(meta["trace"]["gpu_activity"], gpu);
  EXPECT_EQ(meta["trace"]["unclosed_ranges"], 0);
  ASSERT_TRUE(meta["trace_findings"].is_array());
  EXPECT_TRUE(meta["trace_findings"].empty()) << "host copies claim nothing";

  const nlohmann::json trace = read_json(trace_path);
  std::set<std::int64_t> main_threads;
  std::set<std::string> thread_names;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "M" && event["name"] == "thread_name") {
      thread_names.insert(event["args"]["name"].get<std::string>());
      if (event["args"]["name"] == "h2dbench main") {
        main_threads.insert(event["tid"].get<std::int64_t>());
      }
    }
  }
  ASSERT_EQ(main_threads.size(), 1u);
  // Member 0 of a thread team is the calling thread; the others get rows of their own.
  EXPECT_EQ(thread_names.count("memcpy 1"), 1u) << "worker rows are named";
  std::set<std::string> cases;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "X" && event["cat"] == "case") {
      EXPECT_EQ(main_threads.count(event["tid"].get<std::int64_t>()), 1u);
      cases.insert(event["name"].get<std::string>());
    }
  }
  ASSERT_FALSE(report["benchmarks"].empty());
  for (const auto& entry : report["benchmarks"]) {
    EXPECT_EQ(cases.count(entry["run_name"].get<std::string>()), 1u) << entry["run_name"];
  }
}

TEST(RunTrace, RefusesTheReportOrAFolderAsTheTrace) {
  const auto folder = h2d_test::scratch_folder("trace_paths");
  const std::string report = shell_quote((folder / "r.json").string());
  const auto same = h2d_test::run_h2dbench("run --preset quick --filter '^host/memcpy/' --out " +
                                           report + " --trace " + report);
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.output.find("give the trace its own file"), std::string::npos) << same.output;
  const auto into_folder =
      h2d_test::run_h2dbench("run --preset quick --filter '^host/memcpy/' --out " + report +
                             " --trace " + shell_quote(folder.string()));
  EXPECT_EQ(into_folder.exit_code, 2);
  EXPECT_NE(into_folder.output.find("--trace '"), std::string::npos) << into_folder.output;
}

// ---- GPU: CUPTI itself, then the whole path through h2dbench ----

TEST(CuptiActivityGpu, RecordsMemoryKindsKernelsAndTheCallingThread) {
  H2D_REQUIRE_GPU();
  constexpr std::size_t kBytes = std::size_t{8} << 20;
  const std::string kCase = "test/kind=pinned/mode=async/bytes=8MiB";
  const int device = 0;
  h2d::ScopedDevice on(device);
  h2d::HostBuffer pinned(h2d::HostKind::pinned, kBytes);
  h2d::HostBuffer pageable(h2d::HostKind::pageable, kBytes);
  h2d::fill_pattern(pinned.data(), kBytes, 1);
  h2d::fill_pattern(pageable.data(), kBytes, 2);
  h2d::DeviceBuffer target(device, kBytes);
  h2d::Stream stream(device);

  h2d::CuptiActivity cupti;
  h2d::HostTimeline host;
  {
    h2d::HostTraceSession session(&h2d::CuptiActivity::now_ns);
    {
      h2d::NvtxRange bench_case(h2d::NvtxCategory::bench_case, kCase);
      {
        h2d::NvtxRange copies(h2d::NvtxCategory::copy, "copies", 2 * kBytes);
        H2D_CUDA_CHECK(cudaMemcpyAsync(target.data(), pinned.data(), kBytes, cudaMemcpyHostToDevice,
                                       stream.get()));
        H2D_CUDA_CHECK(cudaMemcpyAsync(target.data(), pageable.data(), kBytes,
                                       cudaMemcpyHostToDevice, stream.get()));
        stream.synchronize();
      }
      h2d::device_fill_pattern(target.data(), kBytes, 3, stream);  // a kernel
    }
    host = session.stop();
  }
  const h2d::CuptiActivity::Result result = cupti.stop();
  EXPECT_EQ(result.dropped, 0u);

  std::map<h2d::MemoryKind, const h2d::ActivityRecord*> copies_by_source;
  const h2d::CallIndex calls(result.records);
  bool kernel = false;
  for (const auto& record : result.records) {
    EXPECT_LE(record.start_ns, record.end_ns);
    if (record.kind == h2d::ActivityKind::memcpy && record.copy == h2d::CopyKind::h2d &&
        record.bytes == kBytes) {
      copies_by_source[record.source] = &record;
      EXPECT_EQ(record.destination, h2d::MemoryKind::device);
      EXPECT_EQ(record.device, 0u);
    } else if (record.kind == h2d::ActivityKind::kernel) {
      kernel = true;
    }
  }
  ASSERT_EQ(copies_by_source.count(h2d::MemoryKind::pinned), 1u) << "CUPTI saw the pinned copy";
  ASSERT_EQ(copies_by_source.count(h2d::MemoryKind::pageable), 1u) << "and the pageable one";
  EXPECT_TRUE(kernel);
  const h2d::HostRange* copy_range = nullptr;
  for (const auto& range : host.ranges) {
    if (range.name == "copies") {
      copy_range = &range;
    }
  }
  ASSERT_NE(copy_range, nullptr);
  for (const auto& [source, copy] : copies_by_source) {
    const h2d::ActivityRecord* queued_by = calls.queued_by(*copy);
    ASSERT_NE(queued_by, nullptr) << "the call that queued the copy";
    const h2d::ActivityRecord& call = *queued_by;
    std::cout << "copy from " << h2d::to_string(source) << " queued by " << call.name << "\n";
    EXPECT_TRUE(call.name == "cudaMemcpyAsync" || call.name.rfind("cuMemcpy", 0) == 0) << call.name;
    EXPECT_EQ(call.thread, h2d::current_thread_id()) << "CUPTI thread ids are gettid's";
    EXPECT_LE(copy_range->begin_ns, call.start_ns) << "host ranges and CUPTI share a clock";
    EXPECT_LE(call.end_ns, copy_range->end_ns);
  }

  const auto findings =
      h2d::check_trace(host, result.records, {{kCase, {true, true, "kind=pinned"}}});
  bool pageable_flagged = false;
  for (const auto& finding : findings) {
    std::cout << "finding: " << finding.check << ": " << finding.message << "\n";
    pageable_flagged = pageable_flagged || finding.check == "pinned_claim_pageable_copies";
  }
  EXPECT_TRUE(pageable_flagged) << "the pageable copy inside a 'pinned' case is caught";
}

TEST(RunTraceGpu, FlagsPageableAsyncCopiesAndTrustsPinnedOnes) {
  H2D_REQUIRE_GPU();
  const auto folder = h2d_test::scratch_folder("trace_gpu");
  const auto trace_path = folder / "gpu.trace.json";
  const auto report_path = folder / "report.json";
  const std::string filter =
      "^h2d/memory/dir=(h2d|d2h)/kind=(pinned|pageable)/mode=async/bytes=64MiB$";
  const auto run = h2d_test::run_h2dbench("run --preset quick --filter " + shell_quote(filter) +
                                          " --trace " + shell_quote(trace_path.string()) +
                                          " --out " + shell_quote(report_path.string()));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::size_t findings_at = run.output.find("trace");
  std::cout << (findings_at == std::string::npos ? run.output : run.output.substr(findings_at));
  const nlohmann::json report = read_json(report_path);
  EXPECT_EQ(report["h2dbench"]["trace"]["gpu_activity"], true);
  EXPECT_EQ(report["h2dbench"]["trace"]["dropped_records"], 0);
  std::map<std::string, std::set<std::string>> checks;
  for (const auto& finding : report["h2dbench"]["trace_findings"]) {
    checks[finding["name"].get<std::string>()].insert(finding["check"].get<std::string>());
  }
  // A pageable D2H copy ends before cudaMemcpyAsync returns: "async" that overlapped nothing.
  EXPECT_EQ(checks["h2d/memory/dir=d2h/kind=pageable/mode=async/bytes=64MiB"].count(
                "async_without_overlap"),
            1u);
  EXPECT_TRUE(checks["h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB"].empty());
  EXPECT_TRUE(checks["h2d/memory/dir=d2h/kind=pinned/mode=async/bytes=64MiB"].empty());

  const nlohmann::json trace = read_json(trace_path);
  std::set<std::string> sources;
  std::size_t flows = 0;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "X" && event["cat"] == "memcpy" && event["args"]["direction"] == "HtoD") {
      sources.insert(event["args"]["source"].get<std::string>());
    }
    flows += event["ph"] == "f" ? 1 : 0;
  }
  EXPECT_EQ(sources.count("pinned"), 1u);
  EXPECT_EQ(sources.count("pageable"), 1u);
  EXPECT_GT(flows, 0u) << "arrows from calls to the copies they queued";
}

}  // namespace
