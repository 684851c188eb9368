// The verdict on the first real-GPU report (results/2026-12-04_h200-pcie5/quick.json, an H200 on
// PCIe Gen5 x16, written before reports carried `axes`): what issue 31 found wrong in it, held
// right. A verdict is a claim; these hold it against figures a real machine measured.

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "harness/report/report_file.hpp"
#include "harness/report/summary.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

const FamilySummary& family_of(const RunSummary& summary, const std::string& name) {
  const auto found = std::find_if(summary.families.begin(), summary.families.end(),
                                  [&](const FamilySummary& f) { return f.family == name; });
  if (found == summary.families.end()) {
    throw std::runtime_error("no family " + name + " in the verdict");
  }
  return *found;
}

std::string lines(const std::vector<std::string>& all) {
  std::string text;
  for (const std::string& line : all) {
    text += line + "\n";
  }
  return text;
}

class H200QuickReport : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Report report =
        read_report(h2d::testing::source_dir() + "/results/2026-12-04_h200-pcie5/quick.json");
    ASSERT_FALSE(report.document["benchmarks"][0].contains("axes")) << "no longer an old report";
    summary_ = summarize_report(report.document);
  }
  static std::optional<RunSummary> summary_;  // read once for the suite
};

std::optional<RunSummary> H200QuickReport::summary_;

TEST_F(H200QuickReport, ThePinnedKindsAt64MiBAreATie) {
  const std::string memory = lines(family_of(*summary_, "h2d/memory").findings);
  EXPECT_NE(memory.find("dir=h2d bytes=64MiB: within noise: kind=pinned, write_combined, "
                        "registered mode=async"),
            std::string::npos)
      << memory;
  // Against the declared naive start, pageable sync: 55.1 / 8.2.
  EXPECT_NE(memory.find("55.1 GB/s, 6.72x over kind=pageable mode=sync"), std::string::npos)
      << memory;
}

TEST_F(H200QuickReport, DecodeComparesRoutesWithinOneTileSize) {
  const FamilySummary& decode = family_of(*summary_, "h2d/decode");
  EXPECT_EQ(decode.metric.name, "samples_per_s");
  ASSERT_FALSE(decode.findings.empty());
  for (const std::string& line : decode.findings) {
    // The workload names the tiles; the strategies compared after it never do.
    EXPECT_EQ(line.rfind("tiles=", 0), 0u) << line;
    EXPECT_EQ(line.find("tiles=", 1), std::string::npos) << line;
  }
  EXPECT_NE(lines(decode.findings).find("over decode=cpu normalize=cpu"), std::string::npos)
      << lines(decode.findings);
}

TEST_F(H200QuickReport, TuplePinRequestsThatDidNotPinAreWarned) {
  const std::string warnings = lines(family_of(*summary_, "h2d/batch").warnings);
  EXPECT_NE(warnings.find("pin=requested asked for page-locked memory but was 0% pinned in 8 of "
                          "12 cases (layout=tuple, list)"),
            std::string::npos)
      << warnings;
}

// What packing buys a user who already asks for pinned memory, on the H200: in that build's tuple
// cases pin=requested did not pin, so one packed copy ran 3x faster than the three pageable ones.
TEST_F(H200QuickReport, TheBestIsSetAgainstPinRequestedWithItsCopies) {
  const std::string findings = lines(family_of(*summary_, "h2d/batch").findings);
  EXPECT_NE(findings.find("task=train layout=tuple batch=1: best pin=packed 42.8 GB/s, 3.21x over "
                          "pin=none, 3.17x over pin=requested (1 copy a batch instead of 3)"),
            std::string::npos)
      << findings;
}

TEST_F(H200QuickReport, PinCostReadsAsACost) {
  const FamilySummary& pin = family_of(*summary_, "h2d/pin_cost");
  EXPECT_EQ(pin.metric.name, "pin_us");
  EXPECT_EQ(pin.metric.better, Better::lower);
  EXPECT_NE(lines(pin.findings).find("bytes=1MiB: best op=register"), std::string::npos)
      << lines(pin.findings);
  EXPECT_NE(lines(pin.findings).find("less than op=malloc_host"), std::string::npos)
      << lines(pin.findings);
}

TEST_F(H200QuickReport, OneGpuMultiFamiliesGiveTheirSkipReasons) {
  EXPECT_NE(family_of(*summary_, "multi/numa").not_run.find("1 NUMA node with memory here"),
            std::string::npos);
  EXPECT_NE(family_of(*summary_, "multi/scatter").not_run.find("2 or more GPUs"),
            std::string::npos);
  EXPECT_EQ(format_summary(*summary_).find("no case has a"), std::string::npos);
}

// A loop's verdict says what holds its best setting back (the report's bound_by counter): here the
// GPU step of 1 ms a batch, for the copies and for nvJPEG alike.
TEST_F(H200QuickReport, TheLoopsVerdictNamesWhatBoundsItsBest) {
  const std::string train = lines(family_of(*summary_, "pipeline/train").findings);
  EXPECT_NE(train.find("pin=none copy=sync 27450 samples/s"), std::string::npos) << train;
  EXPECT_NE(train.find("; bound by the GPU step"), std::string::npos) << train;
  const std::string host = lines(family_of(*summary_, "host/pipeline").findings);
  EXPECT_NE(host.find("decode=cpu); bound by the CPU workers"), std::string::npos) << host;
}

}  // namespace
}  // namespace h2d
