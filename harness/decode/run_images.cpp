#include "harness/decode/run_images.hpp"

#include <mutex>

namespace h2d {
namespace {

std::mutex mutex;
std::shared_ptr<const ImageSet> current;
std::string current_dir;

}  // namespace

void set_image_dir(const std::string& dir) {
  auto loaded = std::make_shared<const ImageSet>(load_image_dir(dir));
  const std::lock_guard<std::mutex> lock(mutex);
  current = std::move(loaded);
  current_dir = dir;
}

std::string image_dir() {
  const std::lock_guard<std::mutex> lock(mutex);
  return current_dir;
}

std::shared_ptr<const ImageSet> run_image_set() {
  const std::lock_guard<std::mutex> lock(mutex);
  if (!current) {
    current = std::make_shared<const ImageSet>(generate_image_set());
  }
  return current;
}

std::shared_ptr<const ImageSet> used_image_set() {
  const std::lock_guard<std::mutex> lock(mutex);
  return current;
}

}  // namespace h2d
