#include "harness/core/cpu_steal.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace h2d {

std::optional<CpuTimes> parse_cpu_times(std::string_view proc_stat, double ticks_per_s) {
  std::istringstream in{std::string(proc_stat.substr(0, proc_stat.find('\n')))};
  std::string label;
  if (!(in >> label) || label != "cpu" || !(ticks_per_s > 0)) {
    return std::nullopt;
  }
  // user nice system idle iowait irq softirq steal: guest time is already inside user and nice.
  constexpr int kFields = 8;
  double ticks[kFields] = {};
  for (double& field : ticks) {
    if (!(in >> field) || field < 0) {
      return std::nullopt;
    }
  }
  CpuTimes times;
  for (double field : ticks) {
    times.total_s += field / ticks_per_s;
  }
  times.steal_s = ticks[kFields - 1] / ticks_per_s;
  return times;
}

std::optional<CpuTimes> read_cpu_times() {
  std::ifstream file("/proc/stat");
  std::string line;
  if (!file || !std::getline(file, line)) {
    return std::nullopt;
  }
  const long ticks_per_s = sysconf(_SC_CLK_TCK);
  return parse_cpu_times(line, static_cast<double>(ticks_per_s));
}

double steal_pct(const CpuTimes& before, const CpuTimes& after) {
  const double total = after.total_s - before.total_s;
  if (!(total > 0)) {
    return 0;
  }
  return 100.0 * (after.steal_s - before.steal_s) / total;
}

}  // namespace h2d
