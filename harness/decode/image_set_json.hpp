#pragma once

#include <nlohmann/json.hpp>

#include "harness/decode/image_set.hpp"

namespace h2d {

// The report's "images" object: source, count, sizes, mean compressed bytes (and bits per pixel),
// the skipped files with their reasons, and what was not looked at.
nlohmann::json image_set_to_json(const ImageSet& set);

}  // namespace h2d
