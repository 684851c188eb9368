#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "harness/decode/image_set.hpp"

namespace h2d {

// The image set of one run: the --images folder (loaded when this is made, so a bad folder stops
// the run before any measurement), else the generated tiles, made on first use and kept for the
// rest of the run. The plan decides its tile groups from it, the cases decode it, the report
// describes it; a loader worker process makes the same set again from dir(). Thread-safe.
class RunImages {
 public:
  RunImages() = default;                       // the generated tiles
  explicit RunImages(const std::string& dir);  // --images DIR: loaded now, throws on a bad folder
  RunImages(const RunImages&) = delete;
  RunImages& operator=(const RunImages&) = delete;

  std::shared_ptr<const ImageSet> set() const;  // made on first use when generated
  // The set if --images loaded it or a case asked for it (for the report); null otherwise.
  std::shared_ptr<const ImageSet> used() const;
  const std::string& dir() const { return dir_; }  // "" for the generated set

 private:
  std::string dir_;
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const ImageSet> set_;
};

}  // namespace h2d
