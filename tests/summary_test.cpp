#include "harness/report/summary.hpp"
#include "harness/report/sample_record.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/core/stop_signal.hpp"
#include "harness/report/ring_reading.hpp"
#include "harness/report/sample_record.hpp"
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

TEST(Summary, PinCostIsACostWithoutLinkShare) {
  // A report annotated before h2d/pin_cost left link annotation: its GB/s is pinning speed.
  ReportBuilder b("rig", "GPU");
  b.add("h2d/pin_cost/op=malloc_host/bytes=64MiB", "pin_us", {800},
        {{"GB_per_s", 1.2}, {"link_pct", 160}});
  b.add("h2d/pin_cost/op=register/bytes=64MiB", "pin_us", {100},
        {{"GB_per_s", 9.6}, {"link_pct", 160}});
  const RunSummary summary = summarize_report(b.json());
  ASSERT_EQ(summary.families.size(), 1u);
  EXPECT_EQ(summary.families[0].metric.name, "pin_us");
  EXPECT_EQ(summary.families[0].metric.better, Better::lower);
  EXPECT_EQ(joined(summary.families[0].findings),
            "bytes=64MiB: best op=register 100 us, 8.00x less than op=malloc_host\n");
}

// The h2d/batch trap: pin=requested on a tuple batch pins nothing (PyTorch pins tensors, not
// the tuples of a custom batch), while on a single tensor it pins.
TEST(Summary, APinRequestThatDidNotPinIsWarned) {
  ReportBuilder b("rig", "GPU");
  for (const char* layout : {"single", "tuple"}) {
    for (const char* pin : {"none", "requested", "per_member"}) {
      const bool pinned = std::string(pin) == "per_member" ||
                          (std::string(pin) == "requested" && std::string(layout) == "single");
      b.add(std::string("h2d/batch/task=train/layout=") + layout + "/pin=" + pin + "/batch=16",
            "GB_per_s", {pinned ? 12.0 : 6.0}, {{"pinned_fraction", pinned ? 1.0 : 0.0}});
    }
  }
  const RunSummary summary = summarize_report(b.json());
  const FamilySummary& batch = summary.families.at(0);
  EXPECT_EQ(joined(batch.warnings),
            "pin=requested asked for page-locked memory but was 0% pinned in 1 of 2 cases "
            "(layout=tuple): a pin request that silently did not pin, so those copies ran from "
            "pageable memory\n");
  // pin=none is the declared baseline; the layout is part of the workload, never a strategy.
  EXPECT_TRUE(contains(batch.findings,
                       "task=train layout=tuple batch=16: best pin=per_member 12.0 GB/s, 2.00x "
                       "over pin=none"))
      << joined(batch.findings);
  EXPECT_TRUE(contains(batch.findings,
                       "task=train layout=single batch=16: within noise: pin=requested, "
                       "per_member 12.0 GB/s, 2.00x over pin=none"))
      << joined(batch.findings);
}

TEST(Summary, NoisyCasesAndUnpinnedKindsAreWarned) {
  ReportBuilder b("rig", "GPU");
  b.add("h2d/memory/kind=pinned/mode=async/bytes=64MiB", "GB_per_s", {20, 30, 25},
        {{"host_pinned", 0}, {"bytes", 64 << 20}});
  b.add("h2d/memory/kind=pageable/mode=sync/bytes=64MiB", "GB_per_s", {5}, {{"cv_pct", 7.5}});
  const RunSummary summary = summarize_report(b.json());
  const auto& warnings = summary.families.at(0).warnings;
  EXPECT_TRUE(contains(warnings,
                       "kind=pinned asked for page-locked memory but was 0% pinned in "
                       "1 of 1 cases"))
      << joined(warnings);
  EXPECT_TRUE(contains(warnings, "2 noisy cases (cv > 5%)"));
  EXPECT_TRUE(contains(warnings, "(cv 20%)"));
  EXPECT_TRUE(contains(warnings, "(cv 7.5%)"));
}

// Since the stopping rule a case says how well its median is known: noisy is a median not known
// within the target at the time cap, whatever the spread of its measurements (pageable copies
// spread wide and still have a known median).
TEST(Summary, NoisyIsAMedianNotKnownWhereTheReportSays) {
  ReportBuilder b("rig", "GPU");
  b.add("h2d/memory/kind=pinned/mode=async/bytes=64MiB", "GB_per_s", {25},
        {{"cv_pct", 0.1}, {"rel_ci_pct", 4.25}, {"measurements", 12}, {"stopped_by", 2}});
  b.add("h2d/memory/kind=pageable/mode=sync/bytes=64MiB", "GB_per_s", {5},
        {{"cv_pct", 18}, {"rel_ci_pct", 0.9}, {"measurements", 900}, {"stopped_by", 1}});
  const RunSummary summary = summarize_report(b.json());
  const auto& warnings = summary.families.at(0).warnings;
  EXPECT_TRUE(
      contains(warnings,
               "1 noisy case (median not known within the stopping rule's target at the time cap): "
               "h2d/memory/kind=pinned/mode=async/bytes=64MiB (+-4.2%)"))
      << joined(warnings);
  EXPECT_FALSE(contains(warnings, "cv > 5%")) << joined(warnings);
}

// A case whose figure moved while it was measured says so, however well it knew its median.
TEST(Summary, ADriftingCaseIsNamedWithItsShift) {
  ReportBuilder b("rig", "GPU");
  b.add("h2d/memory/kind=pinned/mode=async/bytes=64MiB", "GB_per_s", {25},
        {{"rel_ci_pct", 0.8},
         {"measurements", 40},
         {"stopped_by", 1},
         {"drift_pct", 6.25},
         {"drifting", 1}});
  b.add("h2d/memory/kind=pageable/mode=sync/bytes=64MiB", "GB_per_s", {5},
        {{"rel_ci_pct", 0.9},
         {"measurements", 90},
         {"stopped_by", 1},
         {"drift_pct", -0.4},
         {"drifting", 0}});
  const RunSummary summary = summarize_report(b.json());
  const auto& warnings = summary.families.at(0).warnings;
  EXPECT_TRUE(contains(warnings,
                       "1 drifting case (the second half of the measurements disagrees with the "
                       "first: the median depends on when it stopped): "
                       "h2d/memory/kind=pinned/mode=async/bytes=64MiB (time +6.2%)"))
      << joined(warnings);
}

// The best way to move a batch, against what a user who already asks for pinned memory has
// (pin=requested, PyTorch's pin_memory=True), with the copies each makes; and the sample named.
TEST(Summary, TheBestIsSetAgainstWhatTheFrameworkDoesWhenAsked) {
  ReportBuilder b("rig", "GPU");
  b.json()["h2dbench"]["sample"] = sample_to_json(parse_sample("detection"), "detection");
  const std::string where = "h2d/batch/sample=detection/task=train/layout=list/collate=list/pin=";
  b.add(where + "none/batch=16", "GB_per_s", {5},
        {{"copies_per_batch", 110}, {"rel_ci_pct", 0.5}, {"measurements", 40}});
  b.add(where + "requested/batch=16", "GB_per_s", {8},
        {{"copies_per_batch", 110}, {"rel_ci_pct", 0.5}, {"measurements", 40}});
  b.add(where + "packed/batch=16", "GB_per_s", {20},
        {{"copies_per_batch", 1}, {"rel_ci_pct", 0.5}, {"measurements", 40}});
  const RunSummary summary = summarize_report(b.json());
  const std::string text = format_summary(summary);
  EXPECT_NE(text.find("sample=detection task=train layout=list batch=16: best collate=list "
                      "pin=packed 20.0 GB/s, 4.00x over collate=list pin=none, 2.50x over "
                      "collate=list pin=requested (1 copy a batch instead of 110)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the batch families moved the sample detection (7 members, 3763232..3766832 "
                      "bytes a sample): image:3x560x560:float32,boxes:"),
            std::string::npos)
      << text;
  ReportBuilder tile("rig", "GPU");
  tile.add("h2d/batch/task=train/layout=tuple/pin=requested/batch=16", "GB_per_s", {20});
  tile.add("h2d/batch/task=train/layout=tuple/pin=none/batch=16", "GB_per_s", {5});
  const std::string tile_text = format_summary(summarize_report(tile.json()));
  EXPECT_EQ(tile_text.find("over pin=requested"), std::string::npos)
      << "the best is what the framework does: " << tile_text;
  EXPECT_EQ(tile_text.find("moved the sample"), std::string::npos) << "the tile needs no note";
}

// A family this h2dbench has never heard of: its report's own declarations and entry axes say
// what is workload and what is strategy, and which way its metric points.
TEST(Summary, AFamilyNeverSeenIsReadFromItsDeclaration) {
  ReportBuilder b("rig");
  for (const char* how : {"alpha", "beta", "gamma"}) {
    const std::string name = std::string("future/thing/how=") + how + "/size=3";
    b.add(name, "wait_ms",
          {std::string(how) == "alpha"  ? 50.0
           : std::string(how) == "beta" ? 100.0
                                        : 200.0});
  }
  for (auto& entry : b.json()["benchmarks"]) {
    const std::string how = parse_case_name(entry["name"]).get("how");
    entry["axes"] = {{"workload", {{"size", "3"}}}, {"strategy", {{"how", how}}}};
  }
  b.json()["h2dbench"]["declarations"] = nlohmann::json::array(
      {{{"family", "future/thing"},
        {"metric", {{"counter", "wait_ms"}, {"unit", "ms"}, {"better", "lower"}}},
        {"axes",
         {{{"key", "how"}, {"role", "strategy"}, {"baseline", "gamma"}},
          {{"key", "size"}, {"role", "workload"}}}}}});
  const RunSummary summary = summarize_report(b.json());
  ASSERT_EQ(summary.families.size(), 1u);
  EXPECT_EQ(summary.families[0].metric.name, "wait_ms");
  EXPECT_EQ(joined(summary.families[0].findings),
            "size=3: best how=alpha 50.0 ms, 4.00x less than how=gamma\n");
}

// Without any declaration, every key is part of the workload: no two cases are ranked, since
// nothing says they are two ways of doing the same thing.
TEST(Summary, UndeclaredKeysNeverCompareDifferentWorkloads) {
  ReportBuilder b("rig");
  b.add("future/thing/strategy=alpha/size=3", "real_time", {50});
  b.add("future/thing/strategy=beta/size=3", "real_time", {100});
  b.add("pipeline/train/workers=4", "samples_per_s", {1000});
  const RunSummary summary = summarize_report(b.json());
  ASSERT_EQ(summary.families.size(), 2u);
  EXPECT_EQ(summary.families[0].metric.name, "real_time");
  EXPECT_EQ(joined(summary.families[0].findings),
            "strategy=alpha size=3: 50.0 us\nstrategy=beta size=3: 100 us\n");
  // workers is declared a strategy of pipeline/train, so the lone case is the whole workload.
  EXPECT_EQ(joined(summary.families[1].findings), "all cases: 1000 samples/s (workers=4)\n");
}

TEST(Summary, StrategiesWithinNoiseAreOneTieAgainstTheBaseline) {
  ReportBuilder b("rig", "GPU");
  for (int streams : {1, 2, 4}) {
    b.add("h2d/streams/streams=" + std::to_string(streams) + "/bytes=64MiB", "GB_per_s",
          {streams == 1   ? 12.0
           : streams == 2 ? 24.0
                          : 24.1});
  }
  const RunSummary summary = summarize_report(b.json());
  EXPECT_EQ(joined(summary.families.at(0).findings),
            "bytes=64MiB: within noise: streams=2, 4 24.1 GB/s, 2.01x over streams=1\n");
}

// One repetition each: the within-run cv over the iterations decides, as the 95% intervals of
// the means (H200 figures: 55.13 +- 0.03, 55.12 +- 0.04 overlap; 54.84 +- 0.12 does not).
TEST(Summary, WithinRunIntervalsDecideATie) {
  ReportBuilder b("rig", "GPU");
  const auto add = [&](const char* kind, const char* mode, double rate, double cv) {
    b.add(std::string("h2d/memory/dir=h2d/kind=") + kind + "/mode=" + mode + "/bytes=64MiB",
          "GB_per_s", {rate}, {{"cv_pct", cv}, {"iterations", 23}});
  };
  add("pageable", "sync", 8.2, 4.5);
  add("pinned", "sync", 54.84, 0.52);
  add("pinned", "async", 55.12, 0.16);
  add("write_combined", "async", 55.13, 0.12);
  add("registered", "async", 55.11, 0.21);
  const RunSummary summary = summarize_report(b.json());
  EXPECT_EQ(joined(summary.families.at(0).findings),
            "dir=h2d bytes=64MiB: within noise: kind=pinned, write_combined, registered "
            "mode=async 55.1 GB/s, 6.72x over kind=pageable mode=sync\n");
}

// The interval of the median (rel_ci_pct), where the report has it, decides before the cv does.
TEST(Summary, TheMediansIntervalDecidesATieWhereTheReportHasIt) {
  const auto findings = [](double rel_ci_a, double rel_ci_b) {
    ReportBuilder b("rig", "GPU");
    b.add("h2d/memory/dir=h2d/kind=pageable/mode=sync/bytes=64MiB", "GB_per_s", {8},
          {{"cv_pct", 1}, {"iterations", 50}, {"rel_ci_pct", 1}, {"measurements", 50}});
    // 2% apart; a cv of 20% over 50 iterations alone would call that a tie.
    b.add("h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB", "GB_per_s", {50},
          {{"cv_pct", 20}, {"iterations", 50}, {"rel_ci_pct", rel_ci_a}, {"measurements", 50}});
    b.add("h2d/memory/dir=h2d/kind=registered/mode=async/bytes=64MiB", "GB_per_s", {51},
          {{"cv_pct", 20}, {"iterations", 50}, {"rel_ci_pct", rel_ci_b}, {"measurements", 50}});
    return joined(summarize_report(b.json()).families.at(0).findings);
  };
  EXPECT_NE(findings(0.5, 0.5).find("best kind=registered mode=async 51.0 GB/s"), std::string::npos)
      << findings(0.5, 0.5);
  EXPECT_NE(findings(1.5, 1.5).find("within noise: kind=pinned, registered"), std::string::npos)
      << findings(1.5, 1.5);
}

// h2d/staging: the best ring of each size says what bound it, and a tuned ring what it chose.
TEST(Summary, TheBestRingNamesWhatBoundItAndWhatItWasTunedTo) {
  // The verdict shows the smallest and the largest size: two limits a report.
  const auto findings_of = [](std::map<std::string, double> small,
                              std::map<std::string, double> large) {
    ReportBuilder b("rig", "GPU");
    for (const auto& [bytes, ring] : {std::pair{"16MiB", small}, std::pair{"256MiB", large}}) {
      const std::string size = std::string("/bytes=") + bytes;
      b.add("h2d/staging/strategy=driver" + size, "GB_per_s", {7}, {{"vs_pinned", 0.13}});
      b.add("h2d/staging/strategy=tuned_ring" + size, "GB_per_s", {40}, ring);
    }
    return joined(summarize_report(b.json()).families.at(0).findings);
  };
  const std::string host_and_bus =
      findings_of({{"fill_pct", 81}, {"wait_pct", 4}}, {{"fill_pct", 30},
                                                        {"wait_pct", 61},
                                                        {"threads", 8},
                                                        {"chunk_bytes", 4 << 20},
                                                        {"depth", 3},
                                                        {"calibration_ms", 640}});
  EXPECT_NE(host_and_bus.find("bytes=16MiB: best strategy=tuned_ring 40.0 GB/s, 5.71x over "
                              "strategy=driver; the ring was bound by its host copy (threads "
                              "filling slots 81% of the time)\n"),
            std::string::npos)
      << host_and_bus;
  EXPECT_NE(host_and_bus.find("; the ring was bound by the bus (the host waited for slots 61% of "
                              "the time), tuned in 640 ms to threads=8 chunk=4MiB depth=3\n"),
            std::string::npos)
      << host_and_bus;
  const std::string handoff = findings_of({}, {{"fill_pct", 20}, {"wait_pct", 10}});
  EXPECT_NE(handoff.find("bytes=16MiB: best strategy=tuned_ring 40.0 GB/s, 5.71x over "
                         "strategy=driver\n"),
            std::string::npos)
      << "no ring counters, no ring reading: " << handoff;
  EXPECT_NE(handoff.find("; the ring was bound by hand-off (70% of its time between fills and "
                         "copies: larger chunks would help)"),
            std::string::npos)
      << handoff;
  EXPECT_EQ(ring_limit(50, 50), RingLimit::host_copy) << "a tie goes to the host copy";
  EXPECT_EQ(ring_limit(0, 0), RingLimit::handoff);
  EXPECT_EQ(ring_limit(120, 0), RingLimit::host_copy) << "shares past 100% from clock skew";
}

// Both directions at once: the verdict line of dir=both gives each direction under the other, the
// two alone and how much of them together is left; with one copy engine it says they take turns.
// The figures are nvbandwidth's bidirectional and unidirectional ones of the H200 run.
TEST(Summary, BothDirectionsAtOnceSayHowMuchOfTheTwoAloneIsLeft) {
  const auto findings_of = [](double copy_engines) {
    ReportBuilder b("rig", "GPU");
    const std::map<std::string, double> counters{
        {"h2d_both_GB_per_s", 49.31},  {"d2h_both_GB_per_s", 51.06},
        {"h2d_alone_GB_per_s", 55.49}, {"d2h_alone_GB_per_s", 55.38},
        {"duplex_pct", 90.5},          {"copy_engines", copy_engines}};
    b.add("h2d/memory/dir=both/kind=pinned/mode=async/bytes=512MiB", "GB_per_s", {100.37},
          counters);
    b.add("h2d/memory/dir=both/kind=registered/mode=async/bytes=512MiB", "GB_per_s", {80},
          counters);
    return joined(summarize_report(b.json()).families.at(0).findings);
  };
  const std::string two = findings_of(2);
  EXPECT_NE(two.find("dir=both bytes=512MiB: best kind=pinned mode=async 100 GB/s, 1.25x over "
                     "the slowest (kind=registered mode=async); H2D 49.3 + D2H 51.1 GB/s at once, "
                     "90% of the two alone (55.5 + 55.4)\n"),
            std::string::npos)
      << two;
  const std::string one = findings_of(1);
  EXPECT_NE(one.find("(55.5 + 55.4): this GPU has one copy engine, so the two directions take "
                     "turns on it"),
            std::string::npos)
      << one;
}

// Copies by the SMs against the copy engine, each engine=sm case beside its twin: the sizes where
// the SMs win beyond noise, by how much and how many SMs they hold; a kind where they never win
// says so. (512 MiB: nvbandwidth's H200 figures, SM 51.34 against CE 55.49 GB/s.)
TEST(Summary, SmCopiesNameTheSizesWhereTheyBeatTheCopyEngine) {
  ReportBuilder b("rig", "GPU");
  const auto add = [&](const std::string& kind, const std::string& bytes, double ce, double sm) {
    const std::string prefix = "h2d/memory/dir=h2d/kind=" + kind + "/mode=async/";
    b.add(prefix + "bytes=" + bytes, "GB_per_s", {ce, ce, ce});
    b.add(prefix + "engine=sm/bytes=" + bytes, "GB_per_s", {sm, sm, sm}, {{"sm_copy_blocks", 132}});
  };
  add("pinned", "4KiB", 1.0, 1.4);
  add("pinned", "64KiB", 8.0, 9.0);
  add("pinned", "512MiB", 55.49, 51.34);
  add("write_combined", "512MiB", 55.0, 50.0);
  const std::string findings = joined(summarize_report(b.json()).families.at(0).findings);
  EXPECT_NE(findings.find("engine=sm dir=h2d kind=pinned: faster than the copy engine at 4KiB, "
                          "64KiB (up to 1.40x), holding 132 SMs while it copies; the copy engine "
                          "at the other 1 size\n"),
            std::string::npos)
      << findings;
  EXPECT_NE(findings.find("engine=sm dir=h2d kind=write_combined: the copy engine is as fast or "
                          "faster at its size"),
            std::string::npos)
      << findings;
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

// Cases that stopped at their time cap are listed with how well they know their median; a run
// whose steady cases lent their time says how far a noisy case could go.
TEST(Summary, NoisyCasesAreListedWithTheirCap) {
  ReportBuilder b("rig", "GPU");
  b.add("h2d/memory/dir=h2d/kind=pageable/mode=sync/bytes=64MiB", "GB_per_s", {8},
        {{"rel_ci_pct", 3.25}, {"measurements", 12}, {"stopped_by", 2}});
  b.add("h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB", "GB_per_s", {50},
        {{"rel_ci_pct", 0.5}, {"measurements", 10}, {"stopped_by", 1}});
  b.json()["h2dbench"]["run"]["stopping_rule"] = {{"target_rel_ci_pct", 1}, {"max_seconds", 0.3}};
  const auto notes = [&] { return joined(summarize_report(b.json()).notes); };
  EXPECT_NE(notes().find("1 of 2 cases stopped at their 0.3 s cap before their median was known "
                         "within 1% (noisy: each family's warning names its own, rel_ci_pct says "
                         "how well)"),
            std::string::npos)
      << notes();
  EXPECT_TRUE(contains(summarize_report(b.json()).families.at(0).warnings,
                       "h2d/memory/dir=h2d/kind=pageable/mode=sync/bytes=64MiB (+-3.2%)"));
  b.json()["h2dbench"]["run"]["stopping_rule"]["most_seconds_with_lent_time"] = 3;
  EXPECT_NE(notes().find("0.3 s cap (up to 3 s with time steady cases left)"), std::string::npos)
      << notes();
}

// A shared VM's hypervisor took CPU time while the cases ran: the summary says so (a run that
// says nothing, or a little, gets no note).
TEST(Summary, CpuStealWorthSayingIsANote) {
  ReportBuilder b = memory_report();
  const auto notes_text = [&] {
    const RunSummary summary = summarize_report(b.json());
    return joined(summary.notes);
  };
  EXPECT_EQ(notes_text().find("hypervisor"), std::string::npos) << "older reports: no field";
  b.json()["h2dbench"]["run"]["cpu_steal_pct"] = 0.4;
  EXPECT_EQ(notes_text().find("hypervisor"), std::string::npos);
  b.json()["h2dbench"]["run"]["cpu_steal_pct"] = 5.5;
  EXPECT_NE(notes_text().find("the hypervisor took 5.5% of the CPU time"), std::string::npos)
      << notes_text();
  b.json()["h2dbench"]["run"]["cpu_steal_pct"] = nullptr;  // a host that did not say
  EXPECT_EQ(notes_text().find("hypervisor"), std::string::npos);
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
  // Measured nothing for another reason: that reason.
  EXPECT_NE(text.find("\nh2d/zero_copy: not run (not enough host memory)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("h2d/memory (GB/s, higher is better)"), std::string::npos) << text;
}

TEST(Summary, EmptyReport) {
  const RunSummary summary = summarize_report(ReportBuilder("x").json());
  EXPECT_TRUE(summary.families.empty());
  EXPECT_NE(format_summary(summary).find("no measured case"), std::string::npos);
}

// The trace's "claims pinned, CUPTI saw pageable" is the same silent no-pin, seen by the driver:
// its family's verdict warns it.
TEST(Summary, TraceFindingsOfUnpinnedCopiesAreWarned) {
  ReportBuilder b = memory_report();
  const std::string name = "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB";
  b.json()["h2dbench"]["trace_findings"] = nlohmann::json::array(
      {{{"name", name},
        {"check", "pinned_claim_pageable_copies"},
        {"message", "claims page-locked host memory, but CUPTI saw 3 of its 3 host copies"}},
       {{"name", name}, {"check", "async_without_overlap"}, {"message", "is async, but"}}});
  const RunSummary summary = summarize_report(b.json());
  EXPECT_TRUE(contains(summary.families.at(0).warnings,
                       "a pin request that did not pin (trace): " + name +
                           " claims page-locked host memory, but CUPTI saw 3 of its 3"))
      << joined(summary.families.at(0).warnings);
  EXPECT_FALSE(contains(summary.families.at(0).warnings, "is async, but"));
}

TEST(Summary, FamiliesWithNothingMeasuredGiveTheirSkipReasons) {
  ReportBuilder b = memory_report();
  b.add_error("multi/numa/node=remote", "1 NUMA node with memory here: no remote memory");
  const std::string text = format_summary(summarize_report(b.json()));
  EXPECT_NE(text.find("\nmulti/numa: not run (1 NUMA node with memory here: no remote memory)\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace h2d
