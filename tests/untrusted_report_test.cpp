// Reports from other machines are untrusted input (issue 17): what a mutation fuzz of a real
// report found, each as a regression test. Every refusal is a UsageError (exit 2) naming the
// file, the place in it and the limit; nothing crashes, and 100k cases take seconds.

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "harness/core/usage_error.hpp"
#include "harness/report/comparison.hpp"
#include "harness/report/comparison_format.hpp"
#include "harness/report/machine_info.hpp"
#include "harness/report/report_file.hpp"
#include "harness/report/summary.hpp"
#include "report_builder.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

using testing::TempDir;

std::string write_text(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

std::string read_error(const std::string& path) {
  try {
    read_report(path);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

// A real-shaped report with `inner` spliced in as the value of h2dbench.schema.
std::string report_with_schema(const std::string& inner) {
  return R"({"context": {}, "benchmarks": [], "h2dbench": {"schema": )" + inner + "}}";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

long max_resident_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// compare and summary segfaulted (exit 139) on a value nested ~60k deep.
TEST(UntrustedReport, DeepNestingIsRefusedWhileParsing) {
  TempDir dir;
  const std::string deep = std::string(60000, '[') + std::string(60000, ']');
  for (const auto& [name, text] :
       {std::pair<std::string, std::string>{"schema.json", report_with_schema(deep)},
        {"entry.json", R"({"context": {}, "benchmarks": [{"name": "a/b", "x": )" + deep + "}]}"}}) {
    const std::string error = read_error(write_text(dir, name, text));
    EXPECT_NE(error.find("report '" + dir.file(name) + "': byte "), std::string::npos) << error;
    EXPECT_NE(error.find("nested deeper than 64 levels"), std::string::npos) << error;
  }
  // Just inside the limit is a report like any other.
  const std::string inside = std::string(60, '[') + std::string(60, ']');
  EXPECT_NE(read_error(write_text(dir, "inside.json", report_with_schema(inside))).find("schema"),
            std::string::npos);
}

// "fatal: [json.exception.out_of_range.406] number overflow parsing '1e400'", exit 1.
TEST(UntrustedReport, NumbersBeyondDoubleAreAUsageError) {
  TempDir dir;
  const std::string path = write_text(
      dir, "big.json", R"({"context": {}, "benchmarks": [{"name": "a/b", "real_time": 1e400}]})");
  const std::string error = read_error(path);
  EXPECT_NE(error.find("report '" + path + "': byte "), std::string::npos) << error;
  EXPECT_NE(error.find("'1e400' is beyond the range of a double"), std::string::npos) << error;
}

// compare segfaulted on a 30k-character benchmark name (std::regex recurses per character), and
// both ran past 20 s on a 1 MB one.
TEST(UntrustedReport, LongNamesAndStringsAreRefusedBeforeAnyRegex) {
  TempDir dir;
  const std::string name(30000, 'n');
  const std::string path =
      write_text(dir, "name.json",
                 R"({"context": {}, "benchmarks": [{"name": "ok"}, {"name": ")" + name + R"("}]})");
  const std::string error = read_error(path);
  EXPECT_NE(error.find("benchmarks[1].name is 30000 characters; a case name has at most 1024"),
            std::string::npos)
      << error;
  const std::string huge(std::size_t{1} << 20, 's');
  const std::string text = R"({"context": {"host_name": ")" + huge + R"("}, "benchmarks": []})";
  const std::string long_string = read_error(write_text(dir, "string.json", text));
  EXPECT_NE(long_string.find("a string of 1048576 characters (at most 65536)"), std::string::npos)
      << long_string;
}

// A report over the cap was read whole (2 GB resident) before it was refused; a FIFO would
// wait for a writer forever.
TEST(UntrustedReport, SizeAndFileTypeAreCheckedBeforeReading) {
  TempDir dir;
  const std::string huge = dir.file("huge.json");
  { std::ofstream create(huge); }
  std::filesystem::resize_file(huge, std::uintmax_t{2} << 30);  // sparse: costs no disk
  const long before_kib = max_resident_kib();
  const auto start = std::chrono::steady_clock::now();
  const std::string error = read_error(huge);
  EXPECT_LT(seconds_since(start), 1.0);
  EXPECT_LT(max_resident_kib() - before_kib, 64 * 1024) << "KiB grown while refusing";
  EXPECT_NE(error.find("report '" + huge + "' is larger than 64 MiB"), std::string::npos) << error;

  const std::string fifo = dir.file("fifo.json");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(read_error(fifo).find("is a device, pipe or socket"), std::string::npos);
  EXPECT_NE(read_error(dir.path()).find("is a folder"), std::string::npos);
}

TEST(UntrustedReport, TooManyEntriesAreRefused) {
  TempDir dir;
  std::string text = R"({"context": {}, "benchmarks": [)";
  for (std::size_t i = 0; i <= kMaxReportEntries; ++i) {
    text += i == 0 ? "0" : ",0";
  }
  const std::string error = read_error(write_text(dir, "many.json", text + "]}"));
  EXPECT_NE(error.find("'benchmarks' has 250001 entries; a report has at most 250000"),
            std::string::npos)
      << error;
}

// The parser callback of nlohmann 3.11 scans the enclosing array at every object's end: a report
// of 100k GPUs took 5 s to read (found by scripts/ci/fuzz-reports.sh), one at the entry limit
// would have taken well over a minute.
TEST(UntrustedReport, ReadingIsLinearInTheEntries) {
  TempDir dir;
  std::string text = R"({"context": {}, "benchmarks": [)";
  for (std::size_t i = 0; i < kMaxReportEntries; ++i) {
    text += i == 0 ? "" : ",";
    text += R"({"name": "host/memcpy/bytes=1MiB", "real_time": 1.5})";
  }
  const std::string path = write_text(dir, "many.json", text + "]}");
  const auto start = std::chrono::steady_clock::now();
  const Report report = read_report(path);
  EXPECT_LT(seconds_since(start), 10.0);  // ~0.5 s; quadratic took ~100 s
  EXPECT_EQ(report.document["benchmarks"].size(), kMaxReportEntries);
}

// summary and compare ran past 20 s on 100k unique entries and 100k distinct GPUs (quadratic
// grouping by family, by workload, by GPU name).
TEST(UntrustedReport, HundredThousandCasesCompareAndSummarizeInSeconds) {
  testing::ReportBuilder builder("rig");
  nlohmann::json& doc = builder.json();
  for (int i = 0; i < 100000; ++i) {
    doc["benchmarks"].push_back({{"name", "f" + std::to_string(i) + "/kind=pinned/bytes=1MiB"},
                                 {"run_type", "iteration"},
                                 {"GB_per_s", 1.0 + i}});
    doc["h2dbench"]["gpus"].push_back({{"name", "GPU " + std::to_string(i)}});
  }
  const Report report = builder.report();
  const auto start = std::chrono::steady_clock::now();
  const Comparison comparison = compare_reports({report, report}, {});
  EXPECT_EQ(comparison.families.size(), 100000u);
  EXPECT_LT(format_comparison(comparison, CompareFormat::table, false).size(), 100u << 20);
  const RunSummary summary = summarize_report(report.document);
  EXPECT_EQ(summary.families.size(), 100000u);
  // Quadratic grouping took minutes here; linear takes ~2 s alone (allow for a loaded machine).
  EXPECT_LT(seconds_since(start), 60.0);
  const std::string gpus = describe_machine(report.document).gpus;
  EXPECT_LT(gpus.size(), 300u) << "a header cell names a few GPU kinds";
  EXPECT_NE(gpus.find("and 99992 more kinds"), std::string::npos) << gpus;
}

// Issue 20: plain Google Benchmark JSON (any program's --benchmark_out) is compared by its times
// and counters, with the machine marked unknown.
TEST(UntrustedReport, PlainGoogleBenchmarkReportsCompare) {
  nlohmann::json plain{{"context", {{"host_name", "laptop"}, {"num_cpus", 4}}},
                       {"benchmarks",
                        {{{"name", "BM_copy/64"},
                          {"run_type", "iteration"},
                          {"real_time", 10.0},
                          {"time_unit", "ns"},
                          {"bytes_per_second", 1e9}}}}};
  nlohmann::json faster = plain;
  faster["benchmarks"][0]["real_time"] = 5.0;
  const Report a{"a.json", plain, true};
  const Report b{"b.json", faster, true};
  const Comparison comparison = compare_reports({a, b}, {});
  ASSERT_EQ(comparison.families.size(), 1u);
  EXPECT_EQ(comparison.families[0].metric.name, "real_time");
  const auto& cell = comparison.families[0].cases.at(0).cells.at(1);
  ASSERT_TRUE(cell.vs_baseline);
  EXPECT_DOUBLE_EQ(cell.vs_baseline->speedup, 2.0);
  const MachineInfo machine = describe_machine(plain);
  EXPECT_EQ(machine.hostname, "laptop");
  EXPECT_EQ(machine.gpus, "unknown (not an h2dbench report)");
  EXPECT_EQ(machine.driver, "unknown");
  EXPECT_EQ(summarize_report(plain).families.size(), 1u);
}

// Issue 20: summary printed "infx over threads=2" and "cv inf%" for extreme but finite values.
TEST(UntrustedReport, SummaryOfExtremeValuesPrintsBounds) {
  testing::ReportBuilder builder("rig");
  builder.add("host/memcpy/threads=1/bytes=1MiB", "GB_per_s", {1e-300});
  builder.add("host/memcpy/threads=2/bytes=1MiB", "GB_per_s", {1e300});
  builder.add("host/memcpy/threads=4/bytes=1MiB", "GB_per_s", {1.7e308, -1.7e308});
  const std::string text = format_summary(summarize_report(builder.json()));
  EXPECT_EQ(text.find("inf"), std::string::npos) << text;
  EXPECT_NE(text.find(">1.8e+308x"), std::string::npos) << text;
}

}  // namespace
}  // namespace h2d
