// The in-process timeline of NvtxRange (run --trace without Nsight Systems), and its Chrome trace.

#include "harness/trace/host_trace.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <thread>

#include "harness/trace/chrome_trace.hpp"
#include "harness/trace/nvtx.hpp"

namespace {

using h2d::HostTimeline;
using h2d::HostTraceSession;
using h2d::NvtxCategory;
using h2d::NvtxRange;

std::uint64_t counting_clock() {
  static std::uint64_t now = 1000;
  return now += 10;
}

const h2d::HostRange* find(const HostTimeline& timeline, const std::string& name) {
  for (const auto& range : timeline.ranges) {
    if (range.name == name) {
      return &range;
    }
  }
  return nullptr;
}

TEST(HostTrace, RecordsNestedRangesWithDepthCaseAndBytes) {
  HostTraceSession session;
  {
    NvtxRange bench_case(NvtxCategory::bench_case, "fam/a=1");
    NvtxRange copy(NvtxCategory::copy, "copies", 4096);
  }
  const HostTimeline timeline = session.stop();
  ASSERT_EQ(timeline.ranges.size(), 2u);
  const auto* bench_case = find(timeline, "fam/a=1");
  const auto* copy = find(timeline, "copies");
  ASSERT_TRUE(bench_case && copy);
  EXPECT_EQ(bench_case->depth, 0);
  EXPECT_EQ(bench_case->case_name, "fam/a=1");
  EXPECT_EQ(copy->depth, 1);
  EXPECT_EQ(copy->case_name, "fam/a=1");
  EXPECT_EQ(copy->bytes, 4096u);
  EXPECT_EQ(copy->category, NvtxCategory::copy);
  EXPECT_EQ(copy->thread, h2d::current_thread_id());
  EXPECT_LE(bench_case->begin_ns, copy->begin_ns);
  EXPECT_LE(copy->end_ns, bench_case->end_ns);
  EXPECT_EQ(timeline.unclosed, 0u);
}

TEST(HostTrace, RecordsWorkerThreadsWithTheirNames) {
  HostTraceSession session;
  std::uint32_t worker_id = 0;
  std::thread worker([&] {
    worker_id = h2d::current_thread_id();
    h2d::nvtx_name_this_thread("copy 0");
    NvtxRange part(NvtxCategory::stage, "part", 10);
  });
  worker.join();
  const HostTimeline timeline = session.stop();
  const auto* part = find(timeline, "part");
  ASSERT_NE(part, nullptr);
  EXPECT_EQ(part->thread, worker_id);
  EXPECT_TRUE(part->case_name.empty());
  EXPECT_EQ(timeline.thread_names.at(worker_id), "copy 0");
}

TEST(HostTrace, KeepsOnlyWhatTheSessionSaw) {
  NvtxRange before(NvtxCategory::setup, "before");  // not recorded, its pop is ignored
  std::optional<NvtxRange> open;
  HostTimeline timeline;
  {
    HostTraceSession session;
    open.emplace(NvtxCategory::verify, "still open");
    timeline = session.stop();
  }
  open.reset();
  EXPECT_TRUE(timeline.ranges.empty());
  EXPECT_EQ(timeline.unclosed, 1u);
  HostTraceSession next;
  { NvtxRange after(NvtxCategory::setup, "after"); }
  const HostTimeline later = next.stop();
  ASSERT_EQ(later.ranges.size(), 1u) << "a stale stack of an earlier session must not leak";
  EXPECT_EQ(later.ranges[0].name, "after");
  EXPECT_EQ(later.ranges[0].depth, 0);
}

TEST(HostTrace, OneSessionAtATimeOnTheGivenClock) {
  HostTraceSession session(&counting_clock);
  EXPECT_THROW(HostTraceSession second, std::logic_error);
  { NvtxRange r(NvtxCategory::compute, "step"); }
  const HostTimeline timeline = session.stop();
  ASSERT_EQ(timeline.ranges.size(), 1u);
  EXPECT_EQ(timeline.ranges[0].end_ns - timeline.ranges[0].begin_ns, 10u);
}

TEST(ChromeTrace, RowsForHostThreadsAndGpuStreamsWithArrows) {
  HostTimeline host;
  host.ranges.push_back({"fam/a=1", NvtxCategory::bench_case, 0, 5, 1000, 9000, 0, "fam/a=1"});
  host.ranges.push_back({"part", NvtxCategory::stage, 64, 6, 2000, 3000, 0, ""});
  host.thread_names[5] = "h2dbench main";

  h2d::ActivityRecord call;
  call.kind = h2d::ActivityKind::api_call;
  call.name = "cudaMemcpyAsync";
  call.start_ns = 1500;
  call.end_ns = 1600;
  call.thread = 5;
  call.correlation = 42;
  h2d::ActivityRecord copy;
  copy.kind = h2d::ActivityKind::memcpy;
  copy.copy = h2d::CopyKind::h2d;
  copy.source = h2d::MemoryKind::pinned;
  copy.destination = h2d::MemoryKind::device;
  copy.bytes = 1 << 20;
  copy.start_ns = 4000;
  copy.end_ns = 5000;
  copy.stream = 13;
  copy.correlation = 42;

  const nlohmann::json trace =
      h2d::chrome_trace(host, {call, copy}, {{0, "Test GPU"}}, {{"note", "synthetic"}});
  EXPECT_EQ(trace["otherData"]["note"], "synthetic");
  bool saw_case = false, saw_copy = false, saw_call = false, saw_flow_start = false,
       saw_flow_end = false, saw_gpu_name = false, saw_stream = false, saw_main = false,
       saw_unnamed = false;
  for (const auto& event : trace["traceEvents"]) {
    const std::string ph = event["ph"];
    if (ph == "X" && event["name"] == "fam/a=1") {
      saw_case = true;
      EXPECT_EQ(event["cat"], "case");
      EXPECT_EQ(event["pid"], h2d::kTraceHostPid);
      EXPECT_EQ(event["tid"], 5);
      EXPECT_DOUBLE_EQ(event["ts"].get<double>(), 0.0);  // the earliest record
      EXPECT_DOUBLE_EQ(event["dur"].get<double>(), 8.0);
    } else if (ph == "X" && event["cat"] == "memcpy") {
      saw_copy = true;
      EXPECT_EQ(event["name"], "HtoD 1MiB");
      EXPECT_EQ(event["pid"], h2d::kTraceGpuPidBase);
      EXPECT_EQ(event["tid"], 13);
      EXPECT_EQ(event["args"]["source"], "pinned");
      EXPECT_EQ(event["args"]["destination"], "device");
      EXPECT_NEAR(event["args"]["GB_per_s"].get<double>(), 1048.576, 1e-6);
      EXPECT_DOUBLE_EQ(event["ts"].get<double>(), 3.0);
    } else if (ph == "X" && event["cat"] == "cuda_api") {
      saw_call = true;
      EXPECT_EQ(event["tid"], 5);
    } else if (ph == "s") {
      saw_flow_start = event["id"] == 42 && event["tid"] == 5;
    } else if (ph == "f") {
      saw_flow_end = event["id"] == 42 && event["tid"] == 13;
    } else if (ph == "M" && event["name"] == "process_name" &&
               event["pid"] == h2d::kTraceGpuPidBase) {
      saw_gpu_name = event["args"]["name"] == "GPU 0: Test GPU";
    } else if (ph == "M" && event["name"] == "thread_name") {
      saw_stream = saw_stream || event["args"]["name"] == "stream 13";
      saw_main = saw_main || (event["tid"] == 5 && event["args"]["name"] == "h2dbench main");
      saw_unnamed = saw_unnamed || (event["tid"] == 6 && event["args"]["name"] == "thread 6");
    }
  }
  EXPECT_TRUE(saw_case && saw_copy && saw_call);
  EXPECT_TRUE(saw_flow_start && saw_flow_end) << "an arrow from the call to its copy";
  EXPECT_TRUE(saw_gpu_name && saw_stream && saw_main && saw_unnamed);
}

}  // namespace
