#include "harness/report/peer_gaps.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "harness/report/peer_figures.hpp"
#include "harness/report/report_cases.hpp"

namespace h2d {
namespace {

// The counter of a case that holds a figure in the peer's unit.
std::optional<std::string> counter_for_unit(const std::string& unit) {
  if (unit == "GB/s") {
    return "GB_per_s";
  }
  if (unit == "samples/s") {
    return "samples_per_s";
  }
  return std::nullopt;
}

// "64MiB" as "64 MiB".
std::string spaced_size(const std::string& size) {
  const auto unit = std::find_if(
      size.begin(), size.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
  return unit == size.begin() || unit == size.end()
             ? size
             : std::string(size.begin(), unit) + " " + std::string(unit, size.end());
}

// "pinned H2D 64 MiB" for a copy case (its mode said when it is not the async one; of dir=both,
// the direction `counter` holds: "pinned H2D with D2H 64 MiB"; engine=sm: "... by the SMs"),
// else the name.
std::string case_label(const ReportCase& c, const std::string& counter) {
  if (c.parsed.family != "h2d/memory") {
    return c.name;
  }
  std::string dir = c.parsed.get("dir");
  if (dir == "both") {
    dir = counter.rfind("d2h", 0) == 0 ? "d2h with h2d" : "h2d with d2h";
  }
  for (const char* word : {"h2d", "d2h"}) {  // the directions upper-cased, "with" kept
    for (auto at = dir.find(word); at != std::string::npos; at = dir.find(word, at + 3)) {
      dir.replace(at, 3, word[0] == 'h' ? "H2D" : "D2H");
    }
  }
  const std::string mode = c.parsed.get("mode");
  const std::string engine = c.parsed.get("engine") == "sm" ? " by the SMs" : "";
  return fmt::format("{} {} {}{}{}", c.parsed.get("kind"), dir, spaced_size(c.parsed.get("bytes")),
                     engine, mode == "async" ? "" : " (" + mode + ")");
}

std::string figure_text(double value) {
  return value >= 1000 ? fmt::format("{:.0f}", value) : fmt::format("{:.2f}", value);
}

}  // namespace

std::vector<std::string> peer_gap_lines(const nlohmann::json& report) {
  std::vector<std::string> lines;
  const std::vector<PeerFigure> figures = peer_figures_from_report(report);
  if (figures.empty()) {
    return lines;
  }
  const std::vector<ReportCase> cases = collect_cases(report);
  std::map<std::string, const ReportCase*> by_name;
  for (const ReportCase& c : cases) {
    by_name.emplace(c.name, &c);
  }
  for (const PeerFigure& figure : figures) {
    const auto found = by_name.find(figure.pairs_with);
    const auto counter = figure.pairs_counter.empty() ? counter_for_unit(figure.unit)
                                                      : std::optional(figure.pairs_counter);
    if (found == by_name.end() || !counter || !(figure.value > 0)) {
      continue;
    }
    const std::optional<double> ours = found->second->find_median(*counter);
    if (!ours) {
      continue;
    }
    lines.push_back(fmt::format("{}: {} {}, {} {} ({:+.1f}%)", case_label(*found->second, *counter),
                                figure_text(*ours), figure.unit, figure.peer,
                                figure_text(figure.value),
                                (*ours - figure.value) / figure.value * 100.0));
  }
  return lines;
}

}  // namespace h2d
