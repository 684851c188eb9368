#include "harness/core/case_name.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/suite/case_builder.hpp"

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

namespace h2d {
namespace {

TEST(DeclaredCaseName, RefusesAKeyItsFamilyDoesNotDeclare) {
  CaseName name(declared_family("h2d/memory"));
  EXPECT_EQ(name.add("dir", "h2d").add("kind", "pinned").str(), "h2d/memory/dir=h2d/kind=pinned");
  try {
    name.add("policy", "none");
    FAIL() << "an undeclared key was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("h2d/memory declares no axis 'policy' (declared: gpu, "
                                         "dir, kind, mode, engine, pages, bytes)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(declared_family("h2d/nothing"), std::logic_error);
}

// A family that built a name without its declaration fails when its cases are listed, not after
// a run whose report could not then say what its cases mean.
TEST(DeclaredCaseName, ACaseWithoutItsDeclarationIsRefusedWhenBuilt) {
  const auto run = [](benchmark::State&, const CaseContext&) {};
  EXPECT_THROW(make_case(CaseName("h2d/memory").add("dir", "h2d"), {}, run), std::logic_error);
  const BenchmarkCase built =
      make_case(CaseName(declared_family("h2d/memory")).add("dir", "h2d"), {}, run);
  ASSERT_TRUE(built.declared_name.has_value());
  EXPECT_EQ(built.name, "h2d/memory/dir=h2d");
}

}  // namespace
}  // namespace h2d
