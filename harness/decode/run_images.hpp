#pragma once

#include <memory>
#include <string>

#include "harness/decode/image_set.hpp"

namespace h2d {

// The one image set of a process: the --images folder (set_image_dir, loaded at once so a bad
// folder stops the run before any measurement), else the generated tiles, made on first use and
// kept in memory for the rest of the run. Thread-safe.
void set_image_dir(const std::string& dir);
std::shared_ptr<const ImageSet> run_image_set();
// The folder set_image_dir loaded, empty while the set is the generated one (another process
// makes the same set from this: a loader worker process).
std::string image_dir();
// The set if a case asked for it (or --images loaded it), for the report; null otherwise.
std::shared_ptr<const ImageSet> used_image_set();

}  // namespace h2d
