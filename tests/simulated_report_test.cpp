// Nothing simulated passes for real: reports of the simulated GPU are recognised, compare refuses
// to mix them with real ones unless asked, summary says so, and this build labels its own backend.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/core/usage_error.hpp"
#include "harness/cuda/gpu_backend.hpp"
#include "harness/report/comparison.hpp"
#include "harness/report/simulated_report.hpp"
#include "harness/report/summary.hpp"
#include "report_builder.hpp"

namespace h2d {
namespace {

const std::string kCase = "host/memcpy/threads=1/bytes=64MiB";

Report real_report(const std::string& path) {
  testing::ReportBuilder builder("rig", "NVIDIA H200");
  builder.add(kCase, "GB_per_s", {8});
  return builder.report(path);
}

Report simulated_by_name(const std::string& path) {
  testing::ReportBuilder builder("laptop", "Simulated GPU 0 (h2dbench sim)");
  builder.add(kCase, "GB_per_s", {4});
  return builder.report(path);
}

Report simulated_by_backend(const std::string& path) {
  Report report = real_report(path);
  report.document["h2dbench"]["backend"] = "simulated";
  return report;
}

TEST(SimulatedReport, RecognisedByBackendOrByDeviceName) {
  EXPECT_FALSE(is_simulated_report(real_report("a.json").document));
  EXPECT_TRUE(is_simulated_report(simulated_by_name("b.json").document));
  EXPECT_TRUE(is_simulated_report(simulated_by_backend("c.json").document));
  EXPECT_FALSE(is_simulated_report(nlohmann::json::array()));
  nlohmann::json odd = real_report("d.json").document;
  odd["h2dbench"]["gpus"] = "not a list";
  EXPECT_FALSE(is_simulated_report(odd));
}

TEST(SimulatedReport, CompareRefusesAMixUnlessAllowed) {
  const std::vector<Report> mixed{real_report("real.json"), simulated_by_name("sim.json")};
  CompareOptions options;
  try {
    compare_reports(mixed, options);
    FAIL() << "a simulated report was compared with a real one";
  } catch (const UsageError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("sim.json"), std::string::npos) << message;
    EXPECT_EQ(message.find("real.json"), std::string::npos) << message;
    EXPECT_NE(message.find("--allow-simulated"), std::string::npos) << message;
  }
  options.allow_simulated = true;
  EXPECT_EQ(compare_reports(mixed, options).reports.size(), 2u);
}

TEST(SimulatedReport, AllSimulatedOrAllRealCompareAsUsual) {
  const CompareOptions options;
  EXPECT_NO_THROW(
      compare_reports({simulated_by_name("a.json"), simulated_by_backend("b.json")}, options));
  EXPECT_NO_THROW(compare_reports({real_report("a.json"), real_report("b.json")}, options));
}

TEST(SimulatedReport, SummarySaysItIsSimulated) {
  const std::string text = format_summary(summarize_report(simulated_by_name("s.json").document));
  EXPECT_NE(text.find("SIMULATED GPU"), std::string::npos) << text;
  const std::string real = format_summary(summarize_report(real_report("r.json").document));
  EXPECT_EQ(real.find("SIMULATED"), std::string::npos) << real;
}

TEST(SimulatedReport, ThisBuildLabelsItsBackendAndKeepsSimulatedReportsOutOfResults) {
  if (gpu_backend_is_simulated()) {
    EXPECT_EQ(default_report_folder(), "simulated-results");
  } else {
    EXPECT_EQ(kGpuBackend, "cuda");
    EXPECT_EQ(default_report_folder(), "results");
  }
}

}  // namespace
}  // namespace h2d
