// ctest gives GPU tests the `gpu` resource lock by name (suites matching *Gpu*, CMakeLists.txt), so
// that `ctest -j` never runs two of them on one device at once. A GPU test outside such a suite
// would run beside the others and its thresholds would flake: this finds it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "tests/process_runner.hpp"

namespace h2d {
namespace {

// "file: Suite.Name" for each test in tests/*.cpp that calls H2D_REQUIRE_GPU() outside a *Gpu*
// suite.
std::vector<std::string> gpu_tests_outside_gpu_suites(const std::filesystem::path& folder) {
  static const std::regex test_start(R"(^\s*TEST(_F|_P)?\((\w+),\s*(\w+)\))");
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".cpp") {
      continue;
    }
    std::ifstream in(entry.path());
    std::string line;
    std::string suite;
    std::string test;
    while (std::getline(in, line)) {
      std::smatch match;
      if (std::regex_search(line, match, test_start)) {
        suite = match[2].str();
        test = match[3].str();
      } else if (line.find("H2D_REQUIRE_GPU();") != std::string::npos && !suite.empty() &&
                 suite.find("Gpu") == std::string::npos) {
        found.push_back(entry.path().filename().string() + ": " + suite + "." + test);
      }
    }
  }
  return found;
}

TEST(GpuTestNaming, EveryGpuTestIsInAGpuSuite) {
  const std::vector<std::string> outside =
      gpu_tests_outside_gpu_suites(std::filesystem::path(h2d::testing::source_dir()) / "tests");
  std::string list;
  for (const std::string& test : outside) {
    list += "\n  " + test;
  }
  EXPECT_TRUE(outside.empty()) << "GPU tests (H2D_REQUIRE_GPU) belong in a suite named *Gpu*, so "
                                  "ctest gives them the gpu resource lock:"
                               << list;
}

}  // namespace
}  // namespace h2d
