#include "harness/decode/run_images.hpp"

namespace h2d {

RunImages::RunImages(const std::string& dir)
    : dir_(dir), set_(std::make_shared<const ImageSet>(load_image_dir(dir))) {}

std::shared_ptr<const ImageSet> RunImages::set() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!set_) {
    set_ = std::make_shared<const ImageSet>(generate_image_set());
  }
  return set_;
}

std::shared_ptr<const ImageSet> RunImages::used() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return set_;
}

}  // namespace h2d
