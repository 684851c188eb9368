#include "harness/pipeline/loader_fault.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string_view>

namespace h2d {

LoaderFault parse_loader_fault(const char* text) {
  const std::string_view name = text != nullptr ? text : "";
  if (name.empty()) {
    return LoaderFault::none;
  }
  if (name == "slot_out_of_range") {
    return LoaderFault::slot_out_of_range;
  }
  if (name == "short_segment") {
    return LoaderFault::short_segment;
  }
  if (name == "shared_memory_full") {
    return LoaderFault::shared_memory_full;
  }
  if (name == "swapped_segments") {
    return LoaderFault::swapped_segments;
  }
  throw std::invalid_argument(
      fmt::format("{}={}: valid are slot_out_of_range, short_segment, shared_memory_full and "
                  "swapped_segments (or unset)",
                  kLoaderFaultVariable, name));
}

}  // namespace h2d
