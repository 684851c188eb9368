#include "harness/report/peer_figures.hpp"

#include "harness/report/json_fields.hpp"

namespace h2d {

nlohmann::json peers_to_json(const std::vector<PeerRun>& runs, double time_limit_s) {
  nlohmann::json out = {{"time_limit_s", time_limit_s},
                        {"runs", nlohmann::json::array()},
                        {"figures", nlohmann::json::array()}};
  for (const PeerRun& run : runs) {
    out["runs"].push_back({{"peer", run.peer},
                           {"command", run.command},
                           {"status", run.status},
                           {"reason", run.reason},
                           {"elapsed_s", run.elapsed_s},
                           {"figures", run.figures.size()}});
    for (const PeerFigure& f : run.figures) {
      out["figures"].push_back({{"peer", f.peer},
                                {"version", f.version},
                                {"command", f.command},
                                {"test", f.test},
                                {"bytes", f.bytes},
                                {"value", f.value},
                                {"unit", f.unit},
                                {"pairs_with", f.pairs_with}});
      if (!f.pairs_counter.empty()) {
        out["figures"].back()["pairs_counter"] = f.pairs_counter;
      }
    }
  }
  return out;
}

std::vector<PeerFigure> peer_figures_from_report(const nlohmann::json& report) {
  std::vector<PeerFigure> figures;
  const nlohmann::json& peers = member_or_empty(member_or_empty(report, "h2dbench"), "peers");
  const nlohmann::json* listed = find_member(peers, "figures");
  if (listed == nullptr || !listed->is_array()) {
    return figures;
  }
  for (const nlohmann::json& entry : *listed) {
    const nlohmann::json* value = find_member(entry, "value");
    if (value == nullptr || !value->is_number() || string_or(entry, "unit", "").empty()) {
      continue;
    }
    PeerFigure f;
    f.peer = string_or(entry, "peer", "");
    f.version = string_or(entry, "version", "");
    f.command = string_or(entry, "command", "");
    f.test = string_or(entry, "test", "");
    const double bytes = number_or(entry, "bytes", 0);
    // A hand-edited report's number stays in range: beyond it the cast is undefined.
    f.bytes = bytes > 0 && bytes < 1.8e19 ? static_cast<std::uint64_t>(bytes) : 0;
    f.value = value->get<double>();
    f.unit = string_or(entry, "unit", "");
    f.pairs_with = string_or(entry, "pairs_with", "");
    f.pairs_counter = string_or(entry, "pairs_counter", "");
    figures.push_back(std::move(f));
  }
  return figures;
}

}  // namespace h2d
