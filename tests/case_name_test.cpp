#include "harness/core/case_name.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace h2d {
namespace {

TEST(CaseName, BuildsFamilyKeyValueNames) {
  const std::string name = CaseName("h2d/memory")
                               .add("dir", "h2d")
                               .add("kind", "pinned")
                               .add("mode", "async")
                               .add_bytes("bytes", 64u << 20)
                               .str();
  EXPECT_EQ(name, "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB");
}

TEST(CaseName, ParsesBackFamilyAndParameters) {
  const ParsedCaseName parsed =
      parse_case_name("h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB");
  EXPECT_EQ(parsed.family, "h2d/memory");
  ASSERT_EQ(parsed.params.size(), 4u);
  EXPECT_EQ(parsed.get("kind"), "pinned");
  EXPECT_EQ(parsed.get("bytes"), "64MiB");
  EXPECT_EQ(parsed.get("absent"), "");
}

TEST(CaseName, IgnoresGoogleBenchmarkSuffixes) {
  const ParsedCaseName parsed = parse_case_name("host/memcpy/threads=2/bytes=1MiB/manual_time");
  EXPECT_EQ(parsed.family, "host/memcpy");
  EXPECT_EQ(parsed.params.size(), 2u);
}

TEST(CaseName, RejectsTokensThatWouldBreakParsing) {
  EXPECT_THROW(CaseName("h2d/memory").add("a/b", "x"), std::invalid_argument);
  EXPECT_THROW(CaseName("h2d/memory").add("k", "x=y"), std::invalid_argument);
  EXPECT_THROW(CaseName("h2d/memory").add("k", ""), std::invalid_argument);
  EXPECT_THROW(CaseName(""), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
