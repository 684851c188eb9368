#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "harness/core/usage_error.hpp"
#include "harness/cuda/gpu_backend.hpp"
#include "harness/report/report_file.hpp"
#include "harness/suite/context.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

using testing::TempDir;

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string read_error(const std::string& path) {
  try {
    read_report(path);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(ReportFile, AtomicWriteLeavesOnlyTheFinishedFile) {
  TempDir dir;
  const std::string path = dir.file("r.json");
  write_json_atomically(path, {{"a", 1}});
  write_json_atomically(path, {{"a", 2}});  // replaces
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++files;
    EXPECT_EQ(entry.path().filename(), "r.json");
  }
  EXPECT_EQ(files, 1u);
  std::ifstream in(path);
  EXPECT_EQ(nlohmann::json::parse(in)["a"], 2);
}

TEST(ReportFile, ReadsBackAnH2dbenchReport) {
  TempDir dir;
  const std::string path = dir.file("ok.json");
  write_json_atomically(path, {{"context", nlohmann::json::object()},
                               {"benchmarks", nlohmann::json::array()},
                               {"h2dbench", {{"schema", 1}}}});
  EXPECT_EQ(read_report(path).document["h2dbench"]["schema"], 1);
}

TEST(ReportFile, BadReportsGetErrorsNamingFileAndProblem) {
  TempDir dir;
  EXPECT_NE(read_error(dir.file("missing.json")).find("cannot open"), std::string::npos);
  write_text(dir.file("empty.json"), "  \n");
  EXPECT_NE(read_error(dir.file("empty.json")).find("empty"), std::string::npos);
  write_text(dir.file("cut.json"), "{\"context\": {}, \"benchmarks\": [");
  EXPECT_NE(read_error(dir.file("cut.json")).find("not valid JSON, perhaps truncated"),
            std::string::npos);
  write_text(dir.file("other.json"), "{\"hello\": 1}");
  EXPECT_NE(read_error(dir.file("other.json")).find("not a Google Benchmark"), std::string::npos);
  write_text(dir.file("foreign.json"), "{\"context\": {}, \"benchmarks\": [], \"h2dbench\": 1}");
  const std::string foreign = read_error(dir.file("foreign.json"));
  EXPECT_NE(foreign.find("'h2dbench' entry is not an object"), std::string::npos) << foreign;
  EXPECT_NE(foreign.find("foreign.json"), std::string::npos);
}

// Issue 20: any program's --benchmark_out was refused ("not from h2dbench").
TEST(ReportFile, PlainGoogleBenchmarkReportsAreRead) {
  TempDir dir;
  write_text(dir.file("gb.json"), "{\"context\": {}, \"benchmarks\": []}");
  EXPECT_TRUE(read_report(dir.file("gb.json")).plain_google_benchmark);
  write_json_atomically(dir.file("ours.json"), {{"context", nlohmann::json::object()},
                                                {"benchmarks", nlohmann::json::array()},
                                                {"h2dbench", {{"schema", 1}}}});
  EXPECT_FALSE(read_report(dir.file("ours.json")).plain_google_benchmark);
}

// A folder read as "the file is empty"; /dev/zero was read until memory ran out; a report of
// another schema was read as if it were this one.
TEST(ReportFile, FoldersDevicesAndOtherSchemasAreNamedAsSuch) {
  TempDir dir;
  EXPECT_NE(read_error(dir.path()).find("is a folder"), std::string::npos)
      << read_error(dir.path());
  EXPECT_NE(read_error("/dev/zero").find("is a device"), std::string::npos);
  const auto with_schema = [&](const std::string& name, const nlohmann::json& h2dbench) {
    write_json_atomically(dir.file(name), {{"context", nlohmann::json::object()},
                                           {"benchmarks", nlohmann::json::array()},
                                           {"h2dbench", h2dbench}});
    return read_error(dir.file(name));
  };
  EXPECT_NE(with_schema("two.json", {{"schema", 2}}).find("schema 2; this h2dbench"),
            std::string::npos);
  EXPECT_NE(with_schema("text.json", {{"schema", "one"}}).find("schema \"one\""),
            std::string::npos);
  EXPECT_NE(with_schema("none.json", nlohmann::json::object()).find("has no schema"),
            std::string::npos);
}

// The report is renamed over its path: that replaced a pipe (or, as root, /dev/null) with a file.
TEST(ReportFile, CheckWritableRefusesDevicesAndPipes) {
  TempDir dir;
  const std::string pipe = dir.file("pipe");
  ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
  for (const std::string& path : {pipe, std::string("/dev/null")}) {
    try {
      check_writable(path);
      ADD_FAILURE() << path << " was accepted";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find("not a regular file"), std::string::npos)
          << error.what();
    }
  }
  EXPECT_TRUE(std::filesystem::is_fifo(pipe));
}

TEST(ReportFile, CheckWritableCreatesFoldersAndRefusesTheImpossible) {
  TempDir dir;
  EXPECT_NO_THROW(check_writable(dir.file("new/sub/r.json")));
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("new/sub")));
  EXPECT_TRUE(std::filesystem::is_empty(dir.file("new/sub")));  // the probe is gone
  EXPECT_THROW(check_writable(dir.path()), UsageError);         // a folder
  EXPECT_THROW(check_writable("/proc/h2dbench/r.json"), UsageError);
  write_text(dir.file("plain"), "x");
  EXPECT_THROW(check_writable(dir.file("plain/r.json")), UsageError);  // parent is a file
}

TEST(Context, FileSafeNamesAndDefaultReportPath) {
  EXPECT_EQ(file_safe("NVIDIA H200"), "nvidia-h200");
  EXPECT_EQ(file_safe("GeForce GTX 1080 Ti"), "geforce-gtx-1080-ti");
  EXPECT_EQ(file_safe("--"), "unknown");
  // simulated-results/ in the sim backend (the asan preset runs this test there).
  const std::string folder = std::string(default_report_folder()) + "/";
  EXPECT_EQ(default_report_path("Node-7", {}, "20261202T101500Z"),
            folder + "node-7_nogpu_20261202T101500Z.json");
  DeviceInfo gpu;
  gpu.name = "NVIDIA H200";
  EXPECT_EQ(default_report_path("n", {gpu}, "T"), folder + "n_nvidia-h200_T.json");
  EXPECT_EQ(default_report_path("n", {gpu, gpu}, "T"), folder + "n_2x-nvidia-h200_T.json");
  EXPECT_EQ(utc_timestamp_compact().size(), 16u);
}

TEST(Context, JsonCarriesMachineRunAndOutcomes) {
  RunContext context;
  context.options.preset = Preset::quick;
  context.options.filter = "host/";
  context.discovery.unavailable_reason = "no driver";
  context.discovery.runtime_version = 12040;
  DeviceInfo gpu;
  gpu.name = "NVIDIA H200";
  gpu.cc_major = 9;
  gpu.pci_bus_id = "0000:17:00.0";
  context.discovery.devices = {gpu};
  context.host.hostname = "box";
  context.device_max_connections = "32";
  context.latches = decide_latches(/*profile=*/false, /*launch_returned_while_spinning=*/false);
  context.outcomes.skipped.push_back({"h2d/x", "too big"});
  context.skipped_families.push_back({"h2d/memory", "no GPU"});
  const nlohmann::json json = context_to_json(context);
  EXPECT_EQ(json["schema"], 1);
  EXPECT_EQ(json["cuda"]["runtime_version"], "12.4");
  EXPECT_EQ(json["cuda"]["driver_version"], "none");
  EXPECT_EQ(json["cuda"]["device_max_connections"], "32");
  EXPECT_EQ(json["gpus"][0]["compute_capability"], "9.0");
  EXPECT_EQ(json["gpus"][0]["pci_bus_id"], "0000:17:00.0");
  EXPECT_EQ(json["host"]["hostname"], "box");
  EXPECT_EQ(json["run"]["preset"], "quick");
  EXPECT_EQ(json["run"]["filter"], "host/");
  EXPECT_EQ(json["run"]["latches"]["enabled"], false);
  EXPECT_NE(json["run"]["latches"]["reason"].get<std::string>().find("CUDA_LAUNCH_BLOCKING"),
            std::string::npos);
  EXPECT_EQ(json["skipped_cases"][0]["reason"], "too big");
  EXPECT_EQ(json["skipped_cases"][0]["kind"], "cannot_run");
  EXPECT_EQ(json["skipped_families"][0]["family"], "h2d/memory");
  EXPECT_TRUE(json["failed_cases"].empty());
}

}  // namespace
}  // namespace h2d
