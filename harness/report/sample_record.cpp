#include "harness/report/sample_record.hpp"

namespace h2d {

nlohmann::json sample_to_json(const SampleSpec& spec, const std::string& given) {
  nlohmann::json members = nlohmann::json::array();
  for (const MemberSpec& member : spec.members) {
    nlohmann::json shape = nlohmann::json::array();
    for (const Dimension& dimension : member.shape) {
      shape.push_back(dimension.varies() ? nlohmann::json(std::to_string(dimension.low) + ".." +
                                                          std::to_string(dimension.high))
                                         : nlohmann::json(dimension.low));
    }
    members.push_back({{"name", member.name},
                       {"dtype", std::string(to_string(member.dtype))},
                       {"shape", shape},
                       {"min_bytes", member.min_bytes()},
                       {"max_bytes", member.max_bytes()}});
  }
  return {{"name", spec.name},
          {"given", given},
          {"text", spec.text()},
          {"members", members},
          {"min_bytes_per_sample", spec.min_bytes()},
          {"max_bytes_per_sample", spec.max_bytes()}};
}

std::string report_sample_name(const nlohmann::json& report) {
  if (!report.is_object() || !report.contains("h2dbench") || !report["h2dbench"].is_object()) {
    return "tile";
  }
  const nlohmann::json& h2dbench = report["h2dbench"];
  if (!h2dbench.contains("sample") || !h2dbench["sample"].is_object()) {
    return "tile";
  }
  const nlohmann::json& sample = h2dbench["sample"];
  if (!sample.contains("name") || !sample["name"].is_string()) {
    return "tile";
  }
  return sample["name"].get<std::string>();
}

std::string report_sample_text(const nlohmann::json& report) {
  const std::string name = report_sample_name(report);
  if (name == "tile") {
    return name;  // older reports: the tile, whatever they say
  }
  const nlohmann::json& sample = report["h2dbench"]["sample"];
  return sample.contains("text") && sample["text"].is_string() ? sample["text"].get<std::string>()
                                                               : name;
}

}  // namespace h2d
