#include "harness/decode/image_set_json.hpp"

namespace h2d {

nlohmann::json image_set_to_json(const ImageSet& set) {
  nlohmann::json sizes = nlohmann::json::array();
  double pixels = 0;
  for (const ImageSize& size : set.sizes()) {
    sizes.push_back({{"width", size.width}, {"height", size.height}, {"count", size.count}});
    pixels += static_cast<double>(size.width * size.height * size.count);
  }
  nlohmann::json skipped = nlohmann::json::array();
  for (const SkippedImage& skip : set.skipped) {
    skipped.push_back({{"path", skip.path}, {"reason", skip.reason}});
  }
  const double count = static_cast<double>(set.images.size());
  const double mean_bytes = set.mean_compressed_bytes();
  return {
      {"source", set.generated ? "generated" : "folder"},
      {"description", set.source},
      {"count", set.images.size()},
      {"sizes", sizes},
      {"mean_compressed_bytes", mean_bytes},
      {"bits_per_pixel", pixels > 0 ? mean_bytes * count * 8 / pixels : 0.0},
      {"skipped_count", set.skipped_count},
      {"skipped", skipped},
      {"ignored_files", set.ignored_files},
      {"unread_files", set.unread_files},
  };
}

}  // namespace h2d
