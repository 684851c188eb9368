#include "harness/cli/case_row.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using h2d::CaseRow;
using h2d::format_case_row;

// Columns as a terminal counts them: "±" is one.
std::size_t columns(const std::string& line) {
  std::size_t count = 0;
  for (const char c : line) {
    count += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  }
  return count;
}

CaseRow measured(const std::string& name) {
  CaseRow row;
  row.name = name;
  row.value = 55.123;
  row.unit = "GB/s";
  row.rel_ci_pct = 0.42;
  return row;
}

TEST(CaseRow, NameAndFigureShareALineWithTheFiguresInOneColumn) {
  const auto short_name = format_case_row(measured("h2d/memory/dir=h2d/kind=pinned/mode=async"));
  const auto longer =
      format_case_row(measured("h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=1GiB"));
  ASSERT_EQ(short_name.size(), 1u);
  ASSERT_EQ(longer.size(), 1u);
  EXPECT_EQ(short_name[0].find("55.1 GB/s \u00b10.4%"), longer[0].find("55.1 GB/s \u00b10.4%"));
  EXPECT_EQ(short_name[0].rfind("h2d/memory/dir=h2d/kind=pinned/mode=async", 0), 0u);
}

TEST(CaseRow, ALongNoteIsCutToTheWidthAndTheNameNever) {
  CaseRow row = measured("host/pipeline/mode=train/worker=process/shm=fresh/pin=none/copy=sync");
  row.note = "noisy: stopped at its time cap; bound by the CPU workers: " + std::string(200, 'x');
  for (const std::size_t width : {80u, 100u, 120u}) {
    const auto lines = format_case_row(row, width);
    ASSERT_FALSE(lines.empty());
    for (const auto& line : lines) {
      EXPECT_LE(columns(line), width) << line;
    }
    EXPECT_NE(lines[0].find(row.name), std::string::npos);
    EXPECT_NE(lines.back().find("..."), std::string::npos) << lines.back();
    EXPECT_NE(lines.back().find("noisy"), std::string::npos) << lines.back();
  }
}

TEST(CaseRow, ANameWiderThanTheLineBreaksAfterASlashAndLosesNoCharacter) {
  std::string name = "pipeline/train";
  for (int i = 0; i < 12; ++i) {
    name += "/key" + std::to_string(i) + "=value" + std::to_string(i);
  }
  ASSERT_GT(name.size(), 120u);
  const auto lines = format_case_row(measured(name), 120);
  ASSERT_GE(lines.size(), 3u);
  std::string joined;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    EXPECT_LE(columns(lines[i]), 120u);
    if (i + 2 < lines.size()) {
      EXPECT_EQ(lines[i].back(), '/') << lines[i];
    }
    joined += lines[i];
  }
  EXPECT_EQ(joined, name);
  // The lines before the figure are the name, whole; the figure is indented under it.
  EXPECT_EQ(lines.back().rfind("    55.1 GB/s", 0), 0u) << lines.back();
}

TEST(CaseRow, AProblemIsWrappedWholeAndSaysSkippedOrFailed) {
  CaseRow row;
  row.name = "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=1GiB";
  row.outcome = CaseRow::Outcome::skipped;
  row.problem = "needs 1 GiB of pinned memory, over the cap of 512 MiB (--pinned-limit); " +
                std::string("the rest of a long reason that goes on and on ") +
                "until it passes the width twice over, and then some more words to be sure";
  const auto lines = format_case_row(row, 120);
  std::string text;
  for (const auto& line : lines) {
    EXPECT_LE(columns(line), 120u) << line;
    text += line + " ";
  }
  EXPECT_NE(text.find("skipped: needs 1 GiB"), std::string::npos) << text;
  EXPECT_NE(text.find("and then some more words to be sure"), std::string::npos) << text;
  row.outcome = CaseRow::Outcome::failed;
  row.problem = "checksum mismatch";
  const auto failed = format_case_row(row, 120);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_NE(failed[0].find("FAILED: checksum mismatch"), std::string::npos);
}

TEST(CaseRow, ACaseWithoutItsFigureSaysSo) {
  CaseRow row;
  row.name = "host/memcpy/threads=1/bytes=1MiB";
  const auto lines = format_case_row(row, 120);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("no figure"), std::string::npos);
}

}  // namespace
