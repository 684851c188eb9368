#pragma once

#include <optional>
#include <string>
#include <vector>

namespace h2d {

// What nvbandwidth's text output says (v0.8: "nvbandwidth Version: v0.8", then per test a
// matrix and one "SUM <test> <GB/s>" line): its version and each test's sum.
struct NvbandwidthOutput {
  struct Sum {
    std::string test;
    double gb_per_s = 0;
  };
  std::string version;  // empty when the output had no version line
  std::vector<Sum> sums;
};

// The sums and version found; nullopt (with `why` set) when the text holds no SUM line, the
// mark of output that is not nvbandwidth's.
std::optional<NvbandwidthOutput> parse_nvbandwidth_output(const std::string& text,
                                                          std::string& why);

}  // namespace h2d
