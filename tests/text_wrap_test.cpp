#include "harness/core/text_wrap.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace {

TEST(TextWrap, AShortLineComesBackWithItsNewline) {
  EXPECT_EQ(h2d::wrap_line("h2dbench: 56 cases"), "h2dbench: 56 cases\n");
  EXPECT_EQ(h2d::wrap_line("h2dbench: 56 cases\n"), "h2dbench: 56 cases\n");
}

TEST(TextWrap, ALongLineBreaksAtSpacesIntoIndentedLinesAndKeepsEveryWord) {
  std::string text = "h2dbench: no usable GPU:";
  for (int i = 0; i < 40; ++i) {
    text += " word" + std::to_string(i);
  }
  const std::string wrapped = h2d::wrap_line(text, 50, 2);
  std::istringstream lines(wrapped);
  std::string joined;
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_LE(h2d::display_columns(line), 50u) << line;
    if (count > 0) {
      EXPECT_EQ(line.rfind("  ", 0), 0u) << line;
      line = line.substr(2);
    }
    joined += (count > 0 ? " " : "") + line;
  }
  EXPECT_GT(count, 2);
  EXPECT_EQ(joined, text);
}

TEST(TextWrap, AWordLongerThanTheLineIsCutHardNotLost) {
  const std::string word(30, 'x');
  const auto pieces = h2d::break_at(word, 12, ' ');
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0] + pieces[1] + pieces[2], word);
}

TEST(TextWrap, ColumnsCountCodePointsNotBytes) {
  EXPECT_EQ(h2d::display_columns("\u00b11.0%"), 5u);
  EXPECT_EQ(h2d::prefix_of_columns("\u00b1\u00b1\u00b1", 2), "\u00b1\u00b1");
}

}  // namespace
