#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "harness/core/sample_spec.hpp"

namespace h2d {

// The report's h2dbench.sample: the sample the batch families moved, as given (`given`: a name,
// members or @FILE), as the grammar writes it (`text`), and member by member (name, dtype, shape
// with "A..B" for what varies, bytes at the low and high ends), with the bytes per sample.
nlohmann::json sample_to_json(const SampleSpec& spec, const std::string& given);

// The sample's name in a report: "tile" for a report without h2dbench.sample (every report from
// before --sample measured the tile) or one whose record is damaged.
std::string report_sample_name(const nlohmann::json& report);

// The sample's members as the grammar writes them (h2dbench.sample.text), or the sample's name
// where the report has no text: what tells two "custom" samples apart.
std::string report_sample_text(const nlohmann::json& report);

}  // namespace h2d
