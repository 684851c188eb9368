#include "harness/cli/run_progress.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/cli/capturing_reporter.hpp"

namespace h2d {
namespace {

// A default run was silent between table rows for minutes: no "N of M", no estimate.
TEST(RunProgress, ALineAtEveryTenthOfTheCasesWithThePaceEstimate) {
  RunProgress progress(40);
  std::vector<std::string> lines;
  for (int i = 1; i <= 40; ++i) {
    if (const auto line = progress.case_done(i * 0.5)) {
      lines.push_back(*line);
    }
  }
  ASSERT_EQ(lines.size(), 9u);  // 4, 8, ..., 36; none after the last case: the verdict follows
  EXPECT_EQ(lines[0], "h2dbench: 4 of 40 cases done (10%) in 2 s; about 18 s left at this pace\n");
  EXPECT_EQ(lines[8], "h2dbench: 36 of 40 cases done (90%) in 18 s; about 2 s left at this pace\n");
}

TEST(RunProgress, ALongCaseStillGetsALineAfterAMinute) {
  RunProgress progress(100);
  EXPECT_FALSE(progress.case_done(1));
  EXPECT_FALSE(progress.case_done(30));
  const auto line = progress.case_done(61);
  ASSERT_TRUE(line);
  EXPECT_EQ(*line,
            "h2dbench: 3 of 100 cases done (3%) in 1 min 1 s; about 32 min 52 s left at "
            "this pace\n");
  EXPECT_FALSE(progress.case_done(62));
}

TEST(RunProgress, FewCasesNeedNoLinesAndNoEstimateBeforeThreeCases) {
  RunProgress few(5);
  for (int i = 0; i < 5; ++i) {
    EXPECT_FALSE(few.case_done(100.0 * i));
  }
  EXPECT_EQ(progress_line(2, 10, 5), "2 of 10 cases done (20%) in 5 s");
  EXPECT_EQ(rough_duration(3725), "1 h 2 min");
  EXPECT_EQ(rough_duration(-1), "0 s");
  EXPECT_EQ(rough_duration(0.4), "under 1 s");
}

// Debian's libbenchmark prints "***WARNING*** Library was built as DEBUG. Timings may be
// affected." on every run, unexplained.
TEST(CapturingReporter, DebugLibraryWarningIsFollowedByOurWord) {
  const std::string header =
      "Run on (2 X 2445 MHz CPU s)\n***WARNING*** Library was built as DEBUG. Timings may be "
      "affected.\n";
  const std::string explained = explain_benchmark_context(header);
  EXPECT_EQ(explained.rfind(header, 0), 0u) << "the library's own words stay";
  EXPECT_NE(explained.find("\nh2dbench: that warning does not apply here"), std::string::npos)
      << explained;
  EXPECT_NE(explained.find("manual time"), std::string::npos);
  EXPECT_EQ(explain_benchmark_context("Run on (2 X 2445 MHz CPU s)\n"),
            "Run on (2 X 2445 MHz CPU s)\n");
}

}  // namespace
}  // namespace h2d
