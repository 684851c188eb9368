// End to end: the h2dbench executable as a user runs it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "harness/core/case_name.hpp"
#include "harness/cuda/device.hpp"
#include "harness/report/report_file.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

using testing::h2dbench;
using testing::run_process;
using testing::TempDir;

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

void expect_usage_error(const std::string& args, const std::string& fragment) {
  const auto result = run_process(h2dbench() + " " + args);
  EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.output;
  EXPECT_NE(result.output.find("h2dbench: error: "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find(fragment), std::string::npos) << args << "\n" << result.output;
  EXPECT_EQ(count_lines(result.output), 1u) << "one line, no stack: " << result.output;
}

TEST(Cli, BadInputGetsOneClearLineAndExitCode2) {
  TempDir dir;
  expect_usage_error("frobnicate", "unknown command 'frobnicate'");
  expect_usage_error("run --bogus", "unknown option '--bogus'");
  expect_usage_error("run --preset fast", "quick, default, full");
  expect_usage_error("run --out", "--out needs a value");
  expect_usage_error("run --out /proc/nope/r.json --filter host/", "cannot");
  expect_usage_error("run --out " + dir.path() + " --filter host/", "folder");
  expect_usage_error("run --filter '(' ", "not a valid regular expression");
  expect_usage_error("run --filter no-such-case --out " + dir.file("r.json"), "no case matches");
  expect_usage_error("run --devices 99 --out " + dir.file("r.json"), "99");
  expect_usage_error("list --out x", "for list");
  expect_usage_error("run --pinned-limit lots", "--pinned-limit");
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.json")));
}

TEST(Cli, HelpAndVersion) {
  const auto help = run_process(h2dbench() + " --help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* word : {"run", "list", "--preset", "--out", "--devices", "exit codes"}) {
    EXPECT_NE(help.output.find(word), std::string::npos) << word;
  }
  const auto version = run_process(h2dbench() + " version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.output.rfind("h2dbench ", 0), 0u) << version.output;
}

// `list --help` listed run's options (--out, ...) that list then refused; `topology --help`
// printed only its usage line.
TEST(Cli, CommandHelpShowsThatCommandsOwnOptions) {
  const auto list = run_process(h2dbench() + " list --help");
  EXPECT_EQ(list.exit_code, 0) << list.output;
  for (const char* option : {"--preset", "--filter", "--devices", "--all"}) {
    EXPECT_NE(list.output.find(option), std::string::npos) << option << "\n" << list.output;
  }
  for (const char* option : {"--out", "--pinned-limit", "--profile", "--trace", "--benchmark_"}) {
    EXPECT_EQ(list.output.find(option), std::string::npos) << option << "\n" << list.output;
  }
  EXPECT_EQ(run_process(h2dbench() + " help list").output, list.output);

  const auto run = run_process(h2dbench() + " run --help");
  for (const char* option : {"--out PATH", "--trace FILE.json", "exit codes"}) {
    EXPECT_NE(run.output.find(option), std::string::npos) << option << "\n" << run.output;
  }
  const auto topology = run_process(h2dbench() + " topology --help");
  EXPECT_EQ(topology.exit_code, 0) << topology.output;
  for (const char* option : {"--xml FILE ", "--json ", "--all ", "--export FILE "}) {
    EXPECT_NE(topology.output.find("\n  " + std::string(option)), std::string::npos)
        << option << "\n"
        << topology.output;
  }
}

// Without a GPU, `list` hid the GPU cases: nobody could preview what a GPU run would execute.
TEST(Cli, ListAllShowsTheGpuCasesMarkedWithoutAGpu) {
  const auto all = run_process(h2dbench() + " list --all --preset quick");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  const std::string gpu_case = "\nh2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB";
  EXPECT_NE(all.output.find("\nhost/memcpy/threads=1/bytes=1MiB\n"), std::string::npos)
      << all.output;
  if (discover_devices().usable()) {
    EXPECT_NE(all.output.find(gpu_case + "\n"), std::string::npos) << all.output;
    return;
  }
  EXPECT_NE(all.output.find(gpu_case + "  # needs a GPU\n"), std::string::npos) << all.output;
  EXPECT_NE(all.output.find("\npipeline/train/"), std::string::npos) << all.output;
  EXPECT_EQ(all.output.find("# not listed"), std::string::npos) << all.output;
  EXPECT_NE(all.output.find("need a GPU (no usable GPU here: "), std::string::npos) << all.output;
  // Several GPUs named: the names a run on them would use.
  const auto two = run_process(h2dbench() + " list --all --preset quick --devices 0,1");
  ASSERT_EQ(two.exit_code, 0) << two.output;
  EXPECT_NE(two.output.find("\nh2d/memory/gpu=1/"), std::string::npos) << two.output;
  EXPECT_NE(two.output.find("\nmulti/scatter/gpus=0,1/"), std::string::npos) << two.output;
  // Plain list says how to see them.
  const auto plain = run_process(h2dbench() + " list --preset quick");
  EXPECT_NE(plain.output.find("list --all shows them"), std::string::npos) << plain.output;
}

TEST(Cli, ListShowsHostCasesAndSaysWhyGpuFamiliesAreMissing) {
  const auto result = run_process(h2dbench() + " list --preset quick");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("host/memcpy/threads=1/bytes=1MiB"), std::string::npos);
  if (!discover_devices().usable()) {
    EXPECT_NE(result.output.find("# not listed: h2d/batch, h2d/decode, h2d/memory, "),
              std::string::npos)
        << result.output;
  } else {
    EXPECT_NE(result.output.find("h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB"),
              std::string::npos);
  }
}

// The quick host run writes a complete report with context, names, counters and verified data.
TEST(Cli, QuickHostRunWritesACompleteReport) {
  TempDir dir;
  const std::string out = dir.file("sub/report.json");
  const auto result =
      run_process(h2dbench() + " run --preset quick --filter '^host/' --out " + out);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  if (!discover_devices().usable()) {
    EXPECT_NE(result.output.find("h2dbench: no usable GPU: "), std::string::npos);
  }
  EXPECT_NE(result.output.find("report: " + out), std::string::npos);
  // What a run prints before its verdict fits a terminal of 120 columns, and names the cases as
  // the report does (Google Benchmark's /iterations:1/manual_time suffixes nowhere).
  const std::string before_verdict = result.output.substr(0, result.output.find("\nVerdict\n"));
  std::istringstream lines(before_verdict);
  for (std::string line; std::getline(lines, line);) {
    std::size_t columns = 0;
    for (const char c : line) {
      columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    }
    EXPECT_LE(columns, 120u) << line;
  }
  EXPECT_EQ(result.output.find("/iterations:"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("/manual_time"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("host/memcpy/threads=1/bytes="), std::string::npos) << result.output;
  EXPECT_NE(result.output.find(" GB/s \u00b1"), std::string::npos) << result.output;
  // Progress between the table's rows (a default run takes minutes).
  EXPECT_NE(result.output.find(" cases done ("), std::string::npos) << result.output;
  EXPECT_NE(result.output.find(" left at this pace"), std::string::npos) << result.output;
  // Debian's libbenchmark warns that it was built as DEBUG: our word follows on the next line.
  const std::size_t debug = result.output.find("Library was built as DEBUG");
  if (debug != std::string::npos) {
    const std::string note = "h2dbench: that warning does not apply here";
    const std::size_t next = result.output.find('\n', debug) + 1;
    EXPECT_EQ(result.output.compare(next, note.size(), note), 0) << result.output;
  }

  const Report report = read_report(out);
  const auto& doc = report.document;
  EXPECT_EQ(doc["h2dbench"]["run"]["preset"], "quick");
  EXPECT_EQ(doc["h2dbench"]["run"]["filter"], "^host/");
  EXPECT_TRUE(doc["h2dbench"]["failed_cases"].empty());
  EXPECT_FALSE(doc["h2dbench"]["host"]["hostname"].get<std::string>().empty());

  std::set<std::string> families;
  for (const auto& run : doc["benchmarks"]) {
    const std::string name = run["name"];
    EXPECT_EQ(name.find("manual_time"), std::string::npos) << name;
    EXPECT_FALSE(run.value("error_occurred", false))
        << name << ": " << run.value("error_message", "");
    const std::string family = parse_case_name(name).family;
    families.insert(family);
    // Every host family reports a rate; the copy families also their size.
    const bool has_rate = run.contains("GB_per_s") || run.contains("samples_per_s");
    ASSERT_TRUE(has_rate) << name;
    EXPECT_GT(run.value("GB_per_s", run.value("samples_per_s", 0.0)), 0) << name;
    if (family == "host/memcpy" || family == "host/first_touch") {
      EXPECT_GT(run.value("bytes", 0.0), 0) << name;
    }
  }
  EXPECT_TRUE(families.count("host/memcpy"));
  EXPECT_TRUE(families.count("host/first_touch"));
  for (const auto& entry : std::filesystem::directory_iterator(dir.file("sub"))) {
    EXPECT_EQ(entry.path().filename(), "report.json") << "left behind: " << entry.path();
  }
}

// The stopping rule measures each case once; whoever wants Google Benchmark's aggregates asks.
TEST(Cli, AskedRepetitionsAreEachKeptInTheReport) {
  TempDir dir;
  const std::string out = dir.file("r.json");
  const auto result =
      run_process(h2dbench() + " run --filter '^host/memcpy/threads=1/bytes=64KiB$' " +
                  "--benchmark_repetitions=3 --out " + out);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  int iterations = 0;
  int aggregates = 0;
  const Report report = read_report(out);
  for (const auto& run : report.document["benchmarks"]) {
    (run["run_type"] == "aggregate" ? aggregates : iterations) += 1;
  }
  EXPECT_EQ(iterations, 3);
  EXPECT_GE(aggregates, 3);  // mean, median, stddev (and cv)
  // The bound printed before the run counts every repetition (the line may wrap before it).
  EXPECT_NE(result.output.find("of measuring (3 repetitions of each case)"), std::string::npos)
      << result.output;
}

// --console full shows Google Benchmark's table with every counter, under the report's names;
// the default shows one compact row a case without the counter columns.
TEST(Cli, ConsoleFullShowsEveryCounterUnderTheReportsNames) {
  TempDir dir;
  const std::string filter = " --filter '^host/memcpy/threads=1/bytes=1MiB$' --out ";
  const auto full = run_process(h2dbench() + " run --preset quick --console full" + filter +
                                dir.file("full.json"));
  ASSERT_EQ(full.exit_code, 0) << full.output;
  EXPECT_NE(full.output.find("cv_pct"), std::string::npos) << full.output;
  EXPECT_NE(full.output.find("host/memcpy/threads=1/bytes=1MiB"), std::string::npos);
  EXPECT_EQ(full.output.find("/iterations:"), std::string::npos) << full.output;
  EXPECT_EQ(full.output.find("/manual_time"), std::string::npos) << full.output;
  const auto compact =
      run_process(h2dbench() + " run --preset quick" + filter + dir.file("compact.json"));
  ASSERT_EQ(compact.exit_code, 0) << compact.output;
  const std::string rows = compact.output.substr(0, compact.output.find("\nVerdict\n"));
  EXPECT_EQ(rows.find("cv_pct"), std::string::npos) << compact.output;
  const auto bad = run_process(h2dbench() + " run --console wide" + filter + dir.file("bad.json"));
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--console 'wide': compact or full"), std::string::npos) << bad.output;
}

}  // namespace
}  // namespace h2d
