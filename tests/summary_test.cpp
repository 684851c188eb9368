#include "harness/report/summary.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/core/stop_signal.hpp"
#include "report_builder.hpp"

namespace h2d {
namespace {

using testing::ReportBuilder;

bool contains(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) {
    out += line + "\n";
  }
  return out;
}

// An h2d/memory-shaped report: pinned async best, pageable async blocking, link_pct counters.
ReportBuilder memory_report() {
  ReportBuilder b("rig", "NVIDIA A100");
  for (const char* bytes : {"4KiB", "1MiB", "64MiB"}) {
    const double size = std::string(bytes) == "4KiB"   ? 4096
                        : std::string(bytes) == "1MiB" ? 1 << 20
                                                       : 64 << 20;
    const auto name = [&](const char* kind, const char* mode) {
      return std::string("h2d/memory/dir=h2d/kind=") + kind + "/mode=" + mode + "/bytes=" + bytes;
    };
    b.add(name("pageable", "sync"), "GB_per_s", {5},
          {{"bytes", size}, {"latency_us", 100}, {"host_block_us", 100}, {"link_pct", 20}});
    b.add(name("pageable", "async"), "GB_per_s", {5.2},
          {{"bytes", size}, {"latency_us", 100}, {"host_block_us", 98}, {"link_pct", 21}});
    b.add(name("pinned", "async"), "GB_per_s", {22},
          {{"bytes", size},
           {"latency_us", 20},
           {"host_block_us", 2},
           {"link_pct", 88},
           {"host_pinned", 1}});
  }
  return b;
}

TEST(Summary, BestStrategyAgainstPageableSyncWithLinkShare) {
  const RunSummary summary = summarize_report(memory_report().json());
  ASSERT_EQ(summary.families.size(), 1u);
  const FamilySummary& memory = summary.families[0];
  EXPECT_EQ(memory.family, "h2d/memory");
  EXPECT_EQ(memory.metric.name, "GB_per_s");
  // Three sizes: the smallest and largest are shown, plus who wins across sizes.
  ASSERT_EQ(memory.findings.size(), 3u) << joined(memory.findings);
  EXPECT_EQ(memory.findings[0],
            "dir=h2d bytes=4KiB: best kind=pinned mode=async 22.0 GB/s, 4.40x over kind=pageable "
            "mode=sync, 88% of link");
  EXPECT_NE(memory.findings[1].find("bytes=64MiB"), std::string::npos);
  EXPECT_EQ(memory.findings[2],
            "dir=h2d across 3 sizes: kind=pinned mode=async is best at 3 of them");
  EXPECT_TRUE(contains(memory.warnings, "pageable async did not overlap"));
  EXPECT_TRUE(contains(memory.warnings, "98% of the copy time (3 of 3 cases)"));
  EXPECT_FALSE(contains(memory.warnings, "noisy"));
}

// h2d/batch cases with more than 64 copies run unlatched: their copy time is enqueue-bound.
TEST(Summary, UnlatchedBatchesWithManyCopiesAreEnqueueBound) {
  ReportBuilder b("rig", "GPU");
  const auto add = [&](const char* layout, double copies, double latched, double pinned) {
    b.add(std::string("h2d/batch/task=train/layout=") + layout + "/pin=per_member/batch=64",
          "GB_per_s", {10},
          {{"copies_per_batch", copies}, {"latched", latched}, {"pinned_fraction", pinned}});
  };
  add("list", 192, 0, 1);    // enqueue-bound
  add("tuple", 3, 1, 1);     // latched
  add("single", 192, 0, 0);  // pageable: unlatched for another reason, warned elsewhere
  const RunSummary summary = summarize_report(b.json());
  const std::string warnings = joined(summary.families.at(0).warnings);
  EXPECT_NE(warnings.find("1 page-locked case with more than 64 copies per batch (from 192) ran "
                          "without a latch"),
            std::string::npos)
      << warnings;
}

TEST(Summary, PinCostHasNoLinkShare) {
  // A report annotated before h2d/pin_cost left link annotation: its GB/s is pinning speed.
  ReportBuilder b("rig", "GPU");
  b.add("h2d/pin_cost/how=malloc_host/bytes=64MiB", "GB_per_s", {40}, {{"link_pct", 160}});
  const RunSummary summary = summarize_report(b.json());
  ASSERT_EQ(summary.families.size(), 1u);
  EXPECT_FALSE(contains(summary.families[0].findings, "of link"))
      << joined(summary.families[0].findings);
}

TEST(Summary, PinPolicyThatDidNotPinIsWarned) {
  ReportBuilder b("rig", "GPU");
  for (const char* policy : {"none", "requested", "per_member"}) {
    const double pinned = std::string(policy) == "per_member" ? 1.0 : 0.0;
    b.add(std::string("batch/transfer/layout=tuple/policy=") + policy + "/batch=32", "GB_per_s",
          {std::string(policy) == "per_member" ? 12.0 : 6.0}, {{"pinned_fraction", pinned}});
  }
  const RunSummary summary = summarize_report(b.json());
  const FamilySummary& batch = summary.families.at(0);
  EXPECT_EQ(joined(batch.warnings), "tuple batches with pin policy 'requested' were 0% pinned\n");
  // policy=none is the naive strategy of this workload.
  EXPECT_TRUE(contains(batch.findings,
                       "best layout=tuple policy=per_member 12.0 GB/s, 2.00x over "
                       "layout=tuple policy=none"));
}

TEST(Summary, NoisyCasesAndUnpinnedKindsAreWarned) {
  ReportBuilder b("rig", "GPU");
  b.add("h2d/memory/kind=pinned/mode=async/bytes=64MiB", "GB_per_s", {20, 30, 25},
        {{"host_pinned", 0}, {"bytes", 64 << 20}});
  b.add("h2d/memory/kind=pageable/mode=sync/bytes=64MiB", "GB_per_s", {5}, {{"cv_pct", 7.5}});
  const RunSummary summary = summarize_report(b.json());
  const auto& warnings = summary.families.at(0).warnings;
  EXPECT_TRUE(
      contains(warnings, "kind=pinned memory was not page-locked according to CUDA (1 case)"));
  EXPECT_TRUE(contains(warnings, "2 noisy cases (cv > 5%)"));
  EXPECT_TRUE(contains(warnings, "(cv 20%)"));
  EXPECT_TRUE(contains(warnings, "(cv 7.5%)"));
}

TEST(Summary, UnknownFamiliesGetGenericVerdicts) {
  ReportBuilder b("rig");
  // No naive marker: compared with the slowest. Time-only: lower is better.
  b.add("future/thing/strategy=alpha/size=3", "real_time", {50});
  b.add("future/thing/strategy=beta/size=3", "real_time", {100});
  b.add("pipeline/train/workers=4", "samples_per_s", {1000});
  const RunSummary summary = summarize_report(b.json());
  ASSERT_EQ(summary.families.size(), 2u);
  EXPECT_EQ(summary.families[0].metric.name, "real_time");
  EXPECT_EQ(joined(summary.families[0].findings),
            "size=3: best strategy=alpha 50.0 us, 2.00x over the slowest (strategy=beta)\n");
  // workers is how the loader is built (a strategy), so the lone case is the whole workload.
  EXPECT_EQ(joined(summary.families[1].findings), "all cases: 1000 samples/s (workers=4)\n");
}

TEST(Summary, SweepsOverUnlistedKeysCompareTheirValues) {
  ReportBuilder b("rig", "GPU");
  for (int streams : {1, 2, 4}) {
    b.add("h2d/streams/streams=" + std::to_string(streams) + "/bytes=64MiB", "GB_per_s",
          {streams == 1 ? 12.0 : 24.0});
  }
  const RunSummary summary = summarize_report(b.json());
  EXPECT_EQ(joined(summary.families.at(0).findings),
            "bytes=64MiB: best streams=2 24.0 GB/s, 2.00x over the slowest (streams=1)\n");
}

TEST(Summary, RunNotesAndFormatting) {
  ReportBuilder b = memory_report();
  b.skip_family("pipeline/train", "no usable GPU: no driver");
  b.json()["h2dbench"]["failed_cases"].push_back({{"name", "h2d/x"}, {"reason", "wrong data"}});
  b.add_error("h2d/memory/dir=h2d/kind=registered/mode=async/bytes=64MiB", "cudaErrorX");
  const RunSummary summary = summarize_report(b.json());
  EXPECT_TRUE(contains(summary.notes, "1 failed case: h2d/x (wrong data)"));
  EXPECT_TRUE(contains(summary.notes, "not run: pipeline/train (no usable GPU: no driver)"));
  const std::string text = format_summary(summary);
  EXPECT_NE(text.find("Verdict\nh2d/memory (GB/s, higher is better)\n  dir=h2d bytes=4KiB"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  warning: pageable async"), std::string::npos);
}

// After Ctrl-C, the families left showed "(us, lower is better) no case has a real_time value".
TEST(Summary, FamiliesThatNeverRanBecauseOfCtrlCSaySo) {
  ReportBuilder b = memory_report();
  b.add_error("h2d/streams/streams=1/bytes=64MiB", kInterruptedBeforeCase);
  b.add_error("h2d/streams/streams=4/bytes=64MiB", kInterruptedBeforeCase);
  b.add_error("h2d/zero_copy/path=mapped/bytes=4KiB", "not enough host memory");
  const std::string text = format_summary(summarize_report(b.json()));
  EXPECT_NE(text.find("\nh2d/streams: not run (interrupted)\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("h2d/streams ("), std::string::npos) << text;
  // Measured nothing for another reason: still said as before.
  EXPECT_NE(text.find("no case has a"), std::string::npos) << text;
  EXPECT_NE(text.find("h2d/memory (GB/s, higher is better)"), std::string::npos) << text;
}

TEST(Summary, EmptyReport) {
  const RunSummary summary = summarize_report(ReportBuilder("x").json());
  EXPECT_TRUE(summary.families.empty());
  EXPECT_NE(format_summary(summary).find("no measured case"), std::string::npos);
}

TEST(Summary, StrategyKeysAndNaiveScore) {
  for (const char* key : {"kind", "mode", "policy", "strategy", "layout", "dest", "threads"}) {
    EXPECT_TRUE(is_strategy_key(key)) << key;
  }
  EXPECT_FALSE(is_strategy_key("bytes"));
  EXPECT_FALSE(is_strategy_key("dir"));
  EXPECT_EQ(naive_score(parse_case_name("h2d/memory/kind=pageable/mode=sync/bytes=1MiB")), 2);
  EXPECT_EQ(naive_score(parse_case_name("h2d/memory/kind=pinned/mode=async/bytes=1MiB")), 0);
}

}  // namespace
}  // namespace h2d
