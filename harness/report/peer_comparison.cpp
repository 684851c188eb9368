#include "harness/report/peer_comparison.hpp"

#include <tuple>

#include "harness/core/statistics.hpp"
#include "harness/report/peer_figures.hpp"

namespace h2d {

std::vector<ComparedPeerFigure> compare_peer_figures(
    const std::vector<std::vector<Report>>& sides) {
  std::vector<ComparedPeerFigure> compared;
  std::vector<std::vector<std::vector<double>>> values;  // per figure, per side: each run's value
  for (std::size_t s = 0; s < sides.size(); ++s) {
    for (const Report& run : sides[s]) {
      for (const PeerFigure& figure : peer_figures_from_report(run.document)) {
        const auto same = [&](const ComparedPeerFigure& c) {
          return std::tie(c.peer, c.test, c.bytes, c.unit) ==
                 std::tie(figure.peer, figure.test, figure.bytes, figure.unit);
        };
        std::size_t at = 0;
        while (at < compared.size() && !same(compared[at])) {
          ++at;
        }
        if (at == compared.size()) {
          compared.push_back({figure.peer, figure.test, figure.bytes, figure.unit, {}});
          values.emplace_back(sides.size());
        }
        values[at][s].push_back(figure.value);
      }
    }
  }
  for (std::size_t f = 0; f < compared.size(); ++f) {
    for (const std::vector<double>& runs : values[f]) {
      compared[f].sides.push_back(runs.empty() ? std::nullopt
                                               : std::optional<double>(summarize(runs).median));
    }
  }
  return compared;
}

}  // namespace h2d
