#include "harness/peers/nvbandwidth_output.hpp"

#include <cmath>
#include <sstream>

namespace h2d {

std::optional<NvbandwidthOutput> parse_nvbandwidth_output(const std::string& text,
                                                          std::string& why) {
  constexpr const char* kVersionMark = "nvbandwidth Version:";
  NvbandwidthOutput parsed;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (parsed.version.empty() && line.rfind(kVersionMark, 0) == 0) {
      std::istringstream rest(line.substr(std::string(kVersionMark).size()));
      rest >> parsed.version;
      continue;
    }
    std::istringstream words(line);
    std::string mark;
    NvbandwidthOutput::Sum sum;
    std::string extra;
    if (words >> mark && mark == "SUM" && words >> sum.test >> sum.gb_per_s && !(words >> extra) &&
        std::isfinite(sum.gb_per_s) && sum.gb_per_s >= 0) {
      parsed.sums.push_back(std::move(sum));
    }
  }
  if (parsed.sums.empty()) {
    why = parsed.version.empty()
              ? "its output has no version line and no 'SUM <test> <GB/s>' line: not nvbandwidth's"
              : "its output has no 'SUM <test> <GB/s>' line";
    return std::nullopt;
  }
  return parsed;
}

}  // namespace h2d
