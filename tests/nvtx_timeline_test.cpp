// The NVTX timeline a Nsight Systems user sees, proven without a GPU: h2dbench runs every
// host-only family under tests/nvtx_recorder (an NVTX injection library) and the recording is
// checked against the report. The checker itself is tested on crafted bad recordings.

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "benchmarks/commands/suite.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"
#include "tests/h2dbench_process.hpp"
#include "tests/nvtx_recording.hpp"
#include "tests/process_runner.hpp"

namespace {

using h2d::NvtxCategory;
using h2d_test::check_nvtx_recording;

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "missing " << path;
  return nlohmann::json::parse(in);
}

std::string regex_escape(const std::string& text) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(text, special, R"(\$&)");
}

// Every family that needs no GPU, whatever families exist when this runs.
std::string host_family_filter() {
  std::string alternatives;
  for (const h2d::Family& family : h2d::registered_families()) {
    if (!family.needs_gpu) {
      alternatives += (alternatives.empty() ? "" : "|") + regex_escape(family.name);
    }
  }
  return "^(" + alternatives + ")/";
}

struct RecordedRun {
  h2d_test::ProcessResult process;
  nlohmann::json recording;
  nlohmann::json report;
};

RecordedRun run_under_recorder(const std::string& name, const std::string& extra) {
  const auto folder = h2d_test::scratch_folder(name);
  const auto recording = folder / "nvtx.json";
  const auto report = folder / "report.json";
  RecordedRun run;
  run.process = h2d_test::run_h2dbench(
      "run --preset quick --filter " + h2d_test::shell_quote(host_family_filter()) + " --out " +
          h2d_test::shell_quote(report.string()) + " " + extra,
      "NVTX_INJECTION64_PATH=" + h2d_test::shell_quote(h2d::testing::nvtx_recorder_path()) +
          " H2D_NVTX_RECORD=" + h2d_test::shell_quote(recording.string()));
  if (run.process.exit_code == 0) {
    run.recording = read_json(recording);
    run.report = read_json(report);
  }
  return run;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) {
    text += "  " + line + "\n";
  }
  return text;
}

TEST(NvtxTimeline, EveryHostCaseHasBalancedRangesNamedAsTheReport) {
  const RecordedRun run = run_under_recorder("nvtx_quick", "");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  ASSERT_FALSE(run.report["benchmarks"].empty());
  const std::vector<std::string> problems = check_nvtx_recording(run.recording, run.report);
  EXPECT_TRUE(problems.empty()) << joined(problems);
}

TEST(NvtxTimeline, ProfileModeRunsEveryCaseOnceWithFixedIterations) {
  const RecordedRun run = run_under_recorder("nvtx_profile", "--profile");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  EXPECT_TRUE(check_nvtx_recording(run.recording, run.report).empty());
  EXPECT_EQ(run.report["h2dbench"]["run"]["profile"], true);

  std::map<std::string, int> case_ranges;
  for (const auto& event : run.recording["events"]) {
    if (event["type"] == "push" && event["domain"] == "h2dbench" &&
        event["category"] == static_cast<std::uint32_t>(NvtxCategory::bench_case)) {
      ++case_ranges[event["message"].get<std::string>()];
    }
  }
  for (const auto& entry : run.report["benchmarks"]) {
    EXPECT_EQ(entry["run_type"], "iteration") << "profile mode has no repetitions";
    EXPECT_EQ(entry["measurements"], h2d::kProfileIterations) << entry["run_name"];
    EXPECT_EQ(case_ranges[entry["run_name"].get<std::string>()], 1)
        << entry["run_name"] << ": one body call, so one case range";
  }
}

// ---- the checker on crafted recordings: each must fail for the reason it was built with ----

class Recording {
 public:
  Recording() {
    events_.push_back({{"type", "domain_create"}, {"domain", "h2dbench"}, {"tid", 1}});
    for (std::uint32_t c = 1; c <= 8; ++c) {
      events_.push_back({{"type", "name_category"},
                         {"domain", "h2dbench"},
                         {"category", c},
                         {"name", std::string(h2d::to_string(static_cast<NvtxCategory>(c)))}});
    }
  }
  Recording& name_thread(std::uint32_t tid, const std::string& name) {
    events_.push_back({{"type", "name_thread"}, {"thread", tid}, {"name", name}, {"tid", tid}});
    return *this;
  }
  Recording& push(std::uint32_t tid, NvtxCategory category, const std::string& name,
                  std::uint64_t bytes = 0) {
    nlohmann::json event = {{"type", "push"},
                            {"domain", "h2dbench"},
                            {"tid", tid},
                            {"t_ns", ++clock_},
                            {"message", name},
                            {"category", static_cast<std::uint32_t>(category)},
                            {"color_type", 1},
                            {"color", h2d::nvtx_color(category)},
                            {"payload_type", bytes != 0 ? 1 : 0},
                            {"payload", bytes != 0 ? nlohmann::json(bytes) : nlohmann::json()}};
    events_.push_back(std::move(event));
    return *this;
  }
  Recording& pop(std::uint32_t tid) {
    events_.push_back({{"type", "pop"}, {"domain", "h2dbench"}, {"tid", tid}, {"t_ns", ++clock_}});
    return *this;
  }
  nlohmann::json& last() { return events_.back(); }
  nlohmann::json json() const { return {{"schema", 1}, {"events", events_}}; }

 private:
  std::vector<nlohmann::json> events_;
  std::uint64_t clock_ = 0;
};

nlohmann::json report_of(const std::vector<std::string>& run_names) {
  nlohmann::json report = {{"benchmarks", nlohmann::json::array()}};
  for (const std::string& name : run_names) {
    report["benchmarks"].push_back({{"name", name}, {"run_name", name}});
  }
  return report;
}

// A main thread with a case holding setup and a copy, and a named worker with a stage inside it.
Recording good_recording() {
  Recording r;
  r.name_thread(1, "h2dbench main").name_thread(2, "memcpy 0");
  r.push(1, NvtxCategory::bench_case, "fam/a=1")
      .push(1, NvtxCategory::setup, "allocate")
      .pop(1)
      .push(1, NvtxCategory::copy, "copies", 4096)
      .push(2, NvtxCategory::stage, "part", 2048)
      .pop(2)
      .pop(1)
      .pop(1);
  return r;
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  for (const std::string& problem : problems) {
    if (problem.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

TEST(NvtxRecordingCheck, AcceptsAGoodRecording) {
  const auto problems = check_nvtx_recording(good_recording().json(), report_of({"fam/a=1"}));
  EXPECT_TRUE(problems.empty()) << joined(problems);
}

TEST(NvtxRecordingCheck, FailsWhenACaseHasNoRange) {
  const auto problems =
      check_nvtx_recording(good_recording().json(), report_of({"fam/a=1", "fam/a=2"}));
  EXPECT_TRUE(mentions(problems, "case 'fam/a=2' of the report has no NVTX range"))
      << joined(problems);
}

TEST(NvtxRecordingCheck, FailsWhenARangeIsNeverPopped) {
  Recording r = good_recording();
  r.push(1, NvtxCategory::bench_case, "fam/a=1").push(1, NvtxCategory::verify, "checksum").pop(1);
  const auto problems = check_nvtx_recording(r.json(), report_of({"fam/a=1"}));
  EXPECT_TRUE(mentions(problems, "1 range(s) never popped in domain 'h2dbench': 'fam/a=1'"))
      << joined(problems);
}

TEST(NvtxRecordingCheck, FailsOnAPopWithoutPush) {
  Recording r = good_recording();
  r.pop(2);
  const auto problems = check_nvtx_recording(r.json(), report_of({"fam/a=1"}));
  EXPECT_TRUE(mentions(problems, "thread 2: a pop without a push")) << joined(problems);
}

TEST(NvtxRecordingCheck, FailsWhenAPhaseIsOutsideEveryCase) {
  Recording r = good_recording();
  r.push(1, NvtxCategory::verify, "late checksum").pop(1);
  const auto problems = check_nvtx_recording(r.json(), report_of({"fam/a=1"}));
  EXPECT_TRUE(mentions(problems, "phase 'late checksum' (verify) on thread 1 is outside"))
      << joined(problems);
}

TEST(NvtxRecordingCheck, FailsWhenNamesDifferFromTheReport) {
  Recording r;
  r.name_thread(1, "main").push(1, NvtxCategory::bench_case, "fam/a=1/manual_time").pop(1);
  const auto problems = check_nvtx_recording(r.json(), report_of({"fam/a=1"}));
  EXPECT_TRUE(mentions(problems, "case 'fam/a=1' of the report has no NVTX range"));
  EXPECT_TRUE(mentions(problems, "NVTX case range 'fam/a=1/manual_time' is no case of the report"))
      << joined(problems);
}

TEST(NvtxRecordingCheck, FailsWhenAThreadWithRangesIsUnnamed) {
  Recording r = good_recording();
  r.push(1, NvtxCategory::bench_case, "fam/a=1")
      .push(7, NvtxCategory::stage, "anonymous work")
      .pop(7)
      .pop(1);
  const auto problems = check_nvtx_recording(r.json(), report_of({"fam/a=1"}));
  EXPECT_TRUE(mentions(problems, "thread 7 pushed 1 h2dbench range(s) but was never named"))
      << joined(problems);
}

TEST(NvtxRecordingCheck, FailsWhenACopyHasNoBytes) {
  Recording r = good_recording();
  r.push(1, NvtxCategory::bench_case, "fam/a=1")
      .push(1, NvtxCategory::copy, "copies")
      .pop(1)
      .pop(1);
  const auto problems = check_nvtx_recording(r.json(), report_of({"fam/a=1"}));
  EXPECT_TRUE(mentions(problems, "copy range 'copies' does not carry its byte count"))
      << joined(problems);
}

TEST(NvtxRecordingCheck, FailsOnAWrongColourOrNestedCase) {
  Recording r = good_recording();
  r.push(1, NvtxCategory::bench_case, "fam/a=1");
  r.push(1, NvtxCategory::setup, "odd colour");
  r.last()["color"] = 0xFF123456u;
  r.pop(1).push(1, NvtxCategory::bench_case, "fam/a=1").pop(1).pop(1);
  const auto problems = check_nvtx_recording(r.json(), report_of({"fam/a=1"}));
  EXPECT_TRUE(mentions(problems, "'odd colour' (setup) does not carry its category's colour"));
  EXPECT_TRUE(mentions(problems, "case range 'fam/a=1' is nested")) << joined(problems);
}

TEST(NvtxRecordingCheck, FailsWhenTheRecorderDidNotAttach) {
  const nlohmann::json empty = {{"schema", 1}, {"events", nlohmann::json::array()}};
  const auto problems = check_nvtx_recording(empty, report_of({"fam/a=1"}));
  EXPECT_TRUE(mentions(problems, "never created")) << joined(problems);
  EXPECT_TRUE(mentions(problems, "has no NVTX range"));
}

}  // namespace
