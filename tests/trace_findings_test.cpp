// The claim checks of `run --trace`, on synthetic host ranges and CUPTI-like records.

#include "harness/trace/trace_findings.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using h2d::ActivityKind;
using h2d::ActivityRecord;
using h2d::CaseClaims;
using h2d::CopyKind;
using h2d::HostRange;
using h2d::HostTimeline;
using h2d::MemoryKind;
using h2d::NvtxCategory;

const std::string kPinnedAsync = "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB";
const std::string kPageableAsync = "h2d/memory/dir=d2h/kind=pageable/mode=async/bytes=64MiB";
const std::string kPinnedSync = "h2d/memory/dir=h2d/kind=pinned/mode=sync/bytes=64MiB";

constexpr std::uint32_t kMain = 11;
constexpr std::uint32_t kWorker = 12;
constexpr std::uint32_t kStream = 7;

HostRange range(NvtxCategory category, const std::string& name, std::uint32_t thread,
                std::uint64_t begin, std::uint64_t end, const std::string& case_name) {
  HostRange r;
  r.category = category;
  r.name = name;
  r.thread = thread;
  r.begin_ns = begin;
  r.end_ns = end;
  r.case_name = case_name;
  return r;
}

// One case on the main thread from 0 to 1000 ns: copies measured in [100, 500], verified in
// [600, 900].
HostTimeline one_case(const std::string& name) {
  HostTimeline timeline;
  timeline.ranges.push_back(range(NvtxCategory::copy, "copies", kMain, 100, 500, name));
  timeline.ranges.push_back(range(NvtxCategory::verify, "checksum", kMain, 600, 900, name));
  timeline.ranges.push_back(range(NvtxCategory::bench_case, name, kMain, 0, 1000, name));
  return timeline;
}

ActivityRecord copy(CopyKind direction, MemoryKind host, std::uint64_t start, std::uint64_t end,
                    std::uint32_t correlation, std::uint32_t stream = kStream) {
  ActivityRecord r;
  r.kind = ActivityKind::memcpy;
  r.copy = direction;
  r.source = direction == CopyKind::h2d ? host : MemoryKind::device;
  r.destination = direction == CopyKind::h2d ? MemoryKind::device : host;
  r.bytes = 64 << 20;
  r.start_ns = start;
  r.end_ns = end;
  r.stream = stream;
  r.correlation = correlation;
  return r;
}

ActivityRecord call(std::uint64_t start, std::uint64_t end, std::uint32_t correlation,
                    std::uint32_t thread = kMain) {
  ActivityRecord r;
  r.kind = ActivityKind::api_call;
  r.name = "cudaMemcpyAsync";
  r.start_ns = start;
  r.end_ns = end;
  r.correlation = correlation;
  r.thread = thread;
  return r;
}

ActivityRecord kernel(std::uint64_t start, std::uint64_t end, std::uint32_t stream) {
  ActivityRecord r;
  r.kind = ActivityKind::kernel;
  r.name = "busy";
  r.start_ns = start;
  r.end_ns = end;
  r.stream = stream;
  r.correlation = 999;
  return r;
}

std::map<std::string, CaseClaims> claims_of(const std::string& name) {
  return {{name, h2d::case_claims(name, {})}};
}

TEST(CaseClaims, ComeFromTheFamilysDeclarationAndCUDA) {
  EXPECT_TRUE(h2d::case_claims(kPinnedAsync, {}).pinned);
  EXPECT_TRUE(h2d::case_claims(kPinnedAsync, {}).async);
  EXPECT_FALSE(h2d::case_claims(kPageableAsync, {}).pinned);
  EXPECT_FALSE(h2d::case_claims(kPinnedSync, {}).async);
  EXPECT_TRUE(h2d::case_claims("h2d/memory/kind=registered/bytes=4KiB", {}).pinned);
  EXPECT_TRUE(h2d::case_claims("h2d/memory/kind=write_combined", {}).pinned);
  // The batch and loader families claim through their own keys, declared once.
  const CaseClaims requested =
      h2d::case_claims("h2d/batch/task=train/layout=tuple/pin=requested/batch=16", {});
  EXPECT_TRUE(requested.pinned);
  EXPECT_EQ(requested.pinned_by, "pin=requested");
  EXPECT_FALSE(h2d::case_claims("h2d/batch/task=train/layout=tuple/pin=none/batch=16", {}).pinned);
  const std::string loop =
      "pipeline/train/workers=4/prefetch=2/pin=pinned_ring/copy=async/"
      "batch=32/compute_us=1000/sample_us=100";
  EXPECT_TRUE(h2d::case_claims(loop, {}).pinned);
  EXPECT_TRUE(h2d::case_claims(loop, {}).async);
  // A value that names a page-locked kind claims nothing outside a key declared to ask for it.
  EXPECT_FALSE(h2d::case_claims("host/collate/layout=pinned/into=slot/batch=1", {}).pinned);
  EXPECT_FALSE(h2d::case_claims("future/x/kind=pinned/mode=async", {}).pinned);
  // CUDA's word: host_pinned=1 is page-locked whatever the name says.
  EXPECT_TRUE(h2d::case_claims("future/x/layout=tuple", {{"host_pinned", 1}}).pinned);
  EXPECT_FALSE(h2d::case_claims("future/x/layout=tuple", {{"host_pinned", 0}}).pinned);
}

TEST(CaseClaims, ReadFromAReportByRunName) {
  const nlohmann::json report = {
      {"benchmarks",
       {{{"name", kPageableAsync}, {"run_name", kPageableAsync}, {"host_pinned", 1.0}},
        {{"name", "host/memcpy/threads=1"}, {"run_name", "host/memcpy/threads=1"}}}}};
  const auto claims = h2d::report_claims(report);
  ASSERT_EQ(claims.size(), 2u);
  EXPECT_TRUE(claims.at(kPageableAsync).pinned) << "the counter says CUDA saw pinned memory";
  EXPECT_TRUE(claims.at(kPageableAsync).async);
  EXPECT_FALSE(claims.at("host/memcpy/threads=1").pinned);
}

TEST(TraceFindings, FlagsPinnedClaimWhoseCopiesWerePageable) {
  const std::vector<ActivityRecord> activity = {
      call(150, 155, 1), copy(CopyKind::h2d, MemoryKind::pageable, 200, 300, 1), call(310, 315, 2),
      copy(CopyKind::h2d, MemoryKind::pinned, 320, 420, 2)};
  const auto findings = h2d::check_trace(one_case(kPinnedAsync), activity, claims_of(kPinnedAsync));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].name, kPinnedAsync);
  EXPECT_EQ(findings[0].check, "pinned_claim_pageable_copies");
  EXPECT_EQ(findings[0].details["pageable_copies"], 1);
  EXPECT_EQ(findings[0].details["copies"], 2);
  EXPECT_NE(findings[0].message.find("1 of its 2 host copies"), std::string::npos);
}

TEST(TraceFindings, TrustsPinnedCopiesThatRanAfterTheirCalls) {
  const std::vector<ActivityRecord> activity = {
      call(150, 155, 1), copy(CopyKind::h2d, MemoryKind::pinned, 200, 300, 1), call(156, 160, 2),
      copy(CopyKind::h2d, MemoryKind::pinned, 300, 400, 2)};
  EXPECT_TRUE(h2d::check_trace(one_case(kPinnedAsync), activity, claims_of(kPinnedAsync)).empty());
}

TEST(TraceFindings, IgnoresCopiesOutsideCopyRanges) {
  // The checksum read back into a pageable variable while verifying is not a measured copy.
  const std::vector<ActivityRecord> activity = {
      call(150, 155, 1), copy(CopyKind::h2d, MemoryKind::pinned, 200, 300, 1), call(700, 800, 2),
      copy(CopyKind::d2h, MemoryKind::pageable, 710, 720, 2)};
  EXPECT_TRUE(h2d::check_trace(one_case(kPinnedAsync), activity, claims_of(kPinnedAsync)).empty());
}

TEST(TraceFindings, FlagsAsyncCopiesThatWereDoneBeforeTheirCallsReturned) {
  // Pageable: the call holds the host until (nearly) all of the copy has run.
  const std::vector<ActivityRecord> activity = {
      call(150, 400, 1), copy(CopyKind::d2h, MemoryKind::pageable, 160, 390, 1), call(401, 490, 2),
      copy(CopyKind::d2h, MemoryKind::pageable, 410, 492, 2)};
  const auto findings =
      h2d::check_trace(one_case(kPageableAsync), activity, claims_of(kPageableAsync));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "async_without_overlap");
  EXPECT_NEAR(findings[0].details["overlap_pct"].get<double>(), 100.0 * 2 / 312, 1e-9);
}

TEST(TraceFindings, TrustsAsyncCopiesThatRanWhileTheHostWasFree) {
  const std::vector<ActivityRecord> activity = {
      call(150, 160, 1), copy(CopyKind::d2h, MemoryKind::pageable, 170, 400, 1)};
  EXPECT_TRUE(
      h2d::check_trace(one_case(kPageableAsync), activity, claims_of(kPageableAsync)).empty());
}

TEST(TraceFindings, CountsOverlapWithWorkOnOtherStreamsOnly) {
  const std::vector<ActivityRecord> blocking = {
      call(150, 400, 1), copy(CopyKind::d2h, MemoryKind::pageable, 160, 390, 1)};
  std::vector<ActivityRecord> other_stream = blocking;
  other_stream.push_back(kernel(100, 380, kStream + 1));
  EXPECT_TRUE(
      h2d::check_trace(one_case(kPageableAsync), other_stream, claims_of(kPageableAsync)).empty());
  std::vector<ActivityRecord> same_stream = blocking;
  same_stream.push_back(kernel(100, 150, kStream));
  EXPECT_EQ(
      h2d::check_trace(one_case(kPageableAsync), same_stream, claims_of(kPageableAsync)).size(),
      1u);
}

TEST(TraceFindings, LeavesSyncCasesAndCopiesWithoutCallsUnjudged) {
  const std::vector<ActivityRecord> sync = {call(150, 400, 1),
                                            copy(CopyKind::h2d, MemoryKind::pinned, 160, 390, 1)};
  EXPECT_TRUE(h2d::check_trace(one_case(kPinnedSync), sync, claims_of(kPinnedSync)).empty());
  // Without the call, a latched copy could not be told from a blocking one.
  const std::vector<ActivityRecord> no_call = {
      copy(CopyKind::d2h, MemoryKind::pageable, 160, 390, 1)};
  EXPECT_TRUE(
      h2d::check_trace(one_case(kPageableAsync), no_call, claims_of(kPageableAsync)).empty());
}

TEST(TraceFindings, AttributesWorkerThreadCopiesToTheCaseOfTheirTime) {
  HostTimeline timeline;
  timeline.ranges.push_back(range(NvtxCategory::copy, "copy thread", kWorker, 100, 500, ""));
  timeline.ranges.push_back(
      range(NvtxCategory::bench_case, kPinnedAsync, kMain, 0, 1000, kPinnedAsync));
  const std::vector<ActivityRecord> activity = {
      call(150, 155, 1, kWorker), copy(CopyKind::h2d, MemoryKind::pageable, 200, 300, 1)};
  const auto findings = h2d::check_trace(timeline, activity, claims_of(kPinnedAsync));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].name, kPinnedAsync);
}

TEST(TraceFindings, PrefersTheCopyRangeOfTheCallingThread) {
  // Two cases' copy ranges overlap in time on different threads: the call's thread decides.
  const std::string other = "h2d/memory/dir=h2d/kind=pageable/mode=sync/bytes=64MiB";
  HostTimeline timeline = one_case(kPinnedAsync);
  timeline.ranges.push_back(range(NvtxCategory::copy, "copies", kWorker, 90, 510, other));
  const std::vector<ActivityRecord> activity = {
      call(150, 155, 1, kWorker), copy(CopyKind::h2d, MemoryKind::pageable, 200, 300, 1)};
  std::map<std::string, CaseClaims> claims = claims_of(kPinnedAsync);
  claims[other] = h2d::case_claims(other, {});
  EXPECT_TRUE(h2d::check_trace(timeline, activity, claims).empty());
}

TEST(CallIndex, PrefersTheRuntimeCallOverTheDriverCall) {
  ActivityRecord runtime = call(100, 400, 5);
  ActivityRecord driver = call(120, 380, 6);
  driver.name = "cuMemcpyDtoHAsync";
  ActivityRecord work = copy(CopyKind::d2h, MemoryKind::pageable, 130, 370, 6);
  const std::vector<ActivityRecord> only_driver = {driver, work};
  EXPECT_EQ(h2d::CallIndex(only_driver).queued_by(only_driver[1])->name, "cuMemcpyDtoHAsync");
  work.runtime_correlation = 5;
  const std::vector<ActivityRecord> both = {runtime, driver, work};
  EXPECT_EQ(h2d::CallIndex(both).queued_by(both[2])->name, "cudaMemcpyAsync");
  ActivityRecord orphan = work;
  orphan.correlation = 77;
  orphan.runtime_correlation = 0;
  EXPECT_EQ(h2d::CallIndex(both).queued_by(orphan), nullptr);
}

// The pipeline's threads poll cudaEventQuery (the step thread in a tight loop) and set the device
// around each wait: under --trace those records must be dropped at once, while every call that
// queues work or waits for it stays.
TEST(BookkeepingCalls, AreThePollsNotTheCallsThatQueueOrWait) {
  for (const char* polling :
       {"cudaEventQuery", "cuEventQuery", "cudaStreamQuery", "cudaStreamQuery_ptsz",
        "cuStreamQuery", "cudaGetLastError", "cudaPeekAtLastError", "cudaGetDevice",
        "cudaGetDeviceCount", "cudaSetDevice", "cuCtxGetCurrent", "cuCtxSetCurrent",
        "cuCtxGetDevice", "cudaEventElapsedTime", "cuEventElapsedTime", "cudaPointerGetAttributes",
        "cuPointerGetAttributes"}) {
    EXPECT_TRUE(h2d::is_bookkeeping_call(polling)) << polling;
  }
  for (const char* work :
       {"cudaMemcpyAsync", "cudaMemcpy", "cuMemcpyHtoDAsync", "cudaMemcpyPeerAsync",
        "cudaMemsetAsync", "cudaLaunchKernel", "cuLaunchKernel", "cudaEventRecord",
        "cudaStreamWaitEvent", "cudaStreamSynchronize", "cudaEventSynchronize",
        "cuEventSynchronize", "cudaDeviceSynchronize", "cuCtxSynchronize", "cudaHostRegister",
        "cudaMallocHost", "cudaFree", ""}) {
    EXPECT_FALSE(h2d::is_bookkeeping_call(work)) << work;
  }
}

TEST(TraceFindings, WriteAsAJsonList) {
  h2d::TraceFinding finding{kPinnedAsync, "pinned_claim_pageable_copies", "says why", {}};
  const nlohmann::json list = h2d::findings_to_json({finding});
  ASSERT_TRUE(list.is_array());
  EXPECT_EQ(list[0]["name"], kPinnedAsync);
  EXPECT_EQ(list[0]["check"], "pinned_claim_pageable_copies");
  EXPECT_EQ(list[0]["message"], "says why");
  EXPECT_TRUE(h2d::findings_to_json({}).empty());
}

}  // namespace
