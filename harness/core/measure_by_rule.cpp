#include "harness/core/measure_by_rule.hpp"

#include "harness/core/stopping_check.hpp"

namespace h2d {

std::vector<double> measure_by_rule(const StoppingRule& rule,
                                    const std::function<double()>& measure_once) {
  std::vector<double> seconds;
  StoppingCheck check(rule);
  do {
    seconds.push_back(measure_once());
  } while (check.after(seconds) == StopReason::measuring);
  return seconds;
}

}  // namespace h2d
