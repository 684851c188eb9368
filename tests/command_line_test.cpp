// The option reading every subcommand shares, and the checks of Google Benchmark's flags.

#include "harness/cli/command_line.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "harness/cli/benchmark_flags.hpp"
#include "harness/core/filter_regex.hpp"
#include "harness/core/number_text.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/suite/context.hpp"

namespace h2d {
namespace {

const CommandSyntax kSyntax{
    "demo", {{"--out", "a file path"}, {"--json", ""}}, "REPORT.json", "--benchmark_"};

std::string error_of(const CommandSyntax& syntax, const std::vector<std::string>& args) {
  try {
    parse_command_line(syntax, args);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(CommandLine, ReadsValuesSwitchesOperandsAndPassthrough) {
  const ParsedArgs parsed = parse_command_line(
      kSyntax, {"a.json", "--out=r.json", "--json", "--benchmark_x=1", "b.json", "--", "--c"});
  EXPECT_EQ(parsed.get("--out"), "r.json");
  EXPECT_TRUE(parsed.has("--json"));
  EXPECT_EQ(parsed.operands, (std::vector<std::string>{"a.json", "b.json", "--c"}));
  EXPECT_EQ(parsed.passthrough, std::vector<std::string>{"--benchmark_x=1"});
  EXPECT_EQ(parse_command_line(kSyntax, {"--out", "-"}).get("--out"), "-");
  // Issue 20: a repeated switch was accepted although an option given twice is an error.
  EXPECT_EQ(error_of(kSyntax, {"--json", "--json"}), "--json is given twice; give it once");
}

// Each subcommand had its own loop: `topology --export --json` wrote a file named "--json",
// `compare --filter --format` took "--format" as the regex, `--xml=` looked for a file named "",
// and a repeated option silently replaced the first.
TEST(CommandLine, ValuesAreNeverEmptyNorTheNextFlagAndOptionsComeOnce) {
  EXPECT_EQ(error_of(kSyntax, {"--out", "--json"}), "--out needs a value (a file path)");
  EXPECT_EQ(error_of(kSyntax, {"--out="}), "--out needs a value (a file path)");
  EXPECT_EQ(error_of(kSyntax, {"--out", ""}), "--out needs a value (a file path)");
  EXPECT_EQ(error_of(kSyntax, {"--out"}), "--out needs a value (a file path)");
  EXPECT_EQ(error_of(kSyntax, {"--out", "a", "--out=b"}),
            "--out is given twice ('a' and 'b'); give it once");
  EXPECT_EQ(error_of(kSyntax, {"--json=yes"}), "--json takes no value (write just --json)");
  EXPECT_NE(error_of(kSyntax, {"--bogus"})
                .find("unknown option '--bogus' for demo (valid: --out, "
                      "--json, --benchmark_*"),
            std::string::npos);
}

TEST(CommandLine, BareWordsAreRefusedWhereNoneAreTaken) {
  const CommandSyntax options_only{"run", {{"--out", "a file path"}}, "", "--benchmark_"};
  EXPECT_NE(error_of(options_only, {"extra"}).find("unexpected argument 'extra' for run"),
            std::string::npos);
  EXPECT_EQ(error_of(options_only, {"--benchmark_repetitions", "5"}),
            "unexpected argument '5' for run: give it as --benchmark_repetitions=5");
}

std::string flag_error(const std::string& flag) {
  try {
    check_benchmark_flags({flag});
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

// Either spelling of --benchmark_min_time is the least time a case measures (its stopping rule).
TEST(BenchmarkFlags, MinTimeIsReadInSecondsWithOrWithoutTheSuffix) {
  EXPECT_DOUBLE_EQ(min_time_seconds("0.02"), 0.02);
  EXPECT_DOUBLE_EQ(min_time_seconds("2s"), 2.0);
  EXPECT_THROW(min_time_seconds("0"), UsageError);
  EXPECT_THROW(min_time_seconds("abc"), UsageError);
}

// Google Benchmark answered these late and badly: an empty report with exit 0 (repetitions=0),
// "fatal: vector::reserve" (repetitions=-3), its usage text and exit 0 (time_unit=xx), exit 1
// (out=/proc/x), a misleading "matched none" (list_tests), nothing at all (format=csv).
TEST(BenchmarkFlags, BadValuesAndFlagsThatFightOurOutputAreRefusedUpFront) {
  for (const char* good :
       {"--benchmark_repetitions=5", "--benchmark_min_time=0.5", "--benchmark_min_time=0.5s",
        "--benchmark_min_warmup_time=0", "--benchmark_filter=-threads=2", "--benchmark_color=auto",
        "--benchmark_counters_tabular", "--benchmark_report_aggregates_only=false",
        "--benchmark_context=rig=a,run=3"}) {
    EXPECT_EQ(flag_error(good), "") << good;
  }
  const std::vector<std::pair<std::string, std::string>> bad{
      {"--benchmark_repetitions=0", "at least 1"},
      {"--benchmark_repetitions=-3", "at least 1"},
      {"--benchmark_repetitions=abc", "at least 1"},
      {"--benchmark_repetitions", "needs its value after '='"},
      {"--benchmark_min_time=abc", "above 0"},
      {"--benchmark_min_time=-1", "above 0"},
      {"--benchmark_min_time=0.5ss", "above 0"},
      {"--benchmark_min_time=s", "above 0"},
      {"--benchmark_min_time=", "empty"},
      {"--benchmark_filter=(", "not a valid regular expression"},
      {"--benchmark_color=maybe", "auto, true or false"},
      {"--benchmark_context=x", "key=value"},
      {"--benchmark_time_unit=xx", "microseconds"},
      {"--benchmark_list_tests=true", "h2dbench list"},
      {"--benchmark_format=csv", "not supported"},
      {"--benchmark_out=/proc/x", "--out PATH"},
      {"--benchmark_out_format=csv", "--out PATH"},
      {"--benchmark_help", "not a Google Benchmark flag"},
      // Our JSON is captured through the display reporter: this dropped every repetition from
      // the report, not just from the table.
      {"--benchmark_display_aggregates_only=true", "keeps every repetition"},
  };
  for (const auto& [flag, fragment] : bad) {
    EXPECT_NE(flag_error(flag).find(fragment), std::string::npos)
        << flag << ": " << flag_error(flag);
  }
  EXPECT_THROW(check_benchmark_flags({"--benchmark_repetitions=2", "--benchmark_repetitions=3"}),
               UsageError);
}

// A filter of 100k characters overflowed the stack inside std::regex: a segfault.
TEST(FilterRegex, HugePatternsAreRefusedNotCompiled) {
  EXPECT_TRUE(std::regex_search("host/memcpy", compile_filter("--filter", "memcpy")));
  EXPECT_TRUE(std::regex_search("anything", compile_filter("--filter", "")));
  const std::string huge(100000, 'a');
  for (const char* flag : {"--filter", "--benchmark_filter"}) {
    try {
      if (std::string(flag) == "--filter") {
        compile_filter(flag, huge);
      } else {
        check_benchmark_flags({"--benchmark_filter=" + huge});
      }
      ADD_FAILURE() << flag << " took a 100000-character pattern";
    } catch (const UsageError& error) {
      EXPECT_EQ(std::string(error.what()),
                std::string(flag) +
                    " is 100000 characters long; give a regular expression of at most 4096");
    }
  }
}

TEST(BenchmarkFlags, ValuesAndFilter) {
  const std::vector<std::string> flags{"--benchmark_color=false", "--benchmark_counters_tabular"};
  EXPECT_EQ(benchmark_flag(flags, "color"), "false");
  EXPECT_EQ(benchmark_flag(flags, "counters_tabular"), "true");
  EXPECT_FALSE(benchmark_flag(flags, "colo"));
  EXPECT_TRUE(parse_benchmark_bool("YES"));
  EXPECT_FALSE(parse_benchmark_bool("off"));
  EXPECT_THROW(parse_benchmark_bool("maybe"), std::invalid_argument);
  EXPECT_TRUE(benchmark_filter_matches("", "host/memcpy/threads=2"));
  EXPECT_TRUE(benchmark_filter_matches("all", "host/memcpy/threads=2"));
  EXPECT_TRUE(benchmark_filter_matches("threads=2", "host/memcpy/threads=2"));
  EXPECT_FALSE(benchmark_filter_matches("-threads=2", "host/memcpy/threads=2"));
  EXPECT_TRUE(benchmark_filter_matches("-threads=2", "host/memcpy/threads=1"));
}

// "no case matches" listed the same no-GPU reason once per family: a 2300-character line.
TEST(SkippedFamilies, OneLinePerReason) {
  const std::vector<std::string> lines = group_skipped_families(
      {{"h2d/memory", "no usable GPU: x"}, {"h2d/batch", "no usable GPU: x"}, {"m", "one GPU"}});
  EXPECT_EQ(lines,
            (std::vector<std::string>{"h2d/memory, h2d/batch (no usable GPU: x)", "m (one GPU)"}));
}

// A ratio of absurd values filled a table column with 300 digits.
TEST(NumberText, HugeAndTinyRatiosStayShort) {
  EXPECT_EQ(times_text(1.234), "1.23x");
  EXPECT_EQ(times_text(12.34), "12.3x");
  EXPECT_EQ(times_text(6.78e306), "6.78e+306x");
  EXPECT_EQ(times_text(1.5e-5), "1.5e-05x");
}

// Issue 20: summary printed "infx over threads=2" and "cv inf%" when extreme values overflowed.
TEST(NumberText, OverflowedRatiosAndPercentagesPrintABound) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(times_text(inf), ">1.8e+308x");
  EXPECT_EQ(times_text(std::nan("")), "n/a");
  EXPECT_EQ(percent_text(inf, 0), ">1.8e+308%");
  EXPECT_EQ(percent_text(12.345, 1), "12.3%");
  EXPECT_EQ(percent_text(1.5e5, 0), "1.5e+05%");
  EXPECT_EQ(percent_text(std::nan(""), 0), "n/a");
}

}  // namespace
}  // namespace h2d
