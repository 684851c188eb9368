#include "harness/decode/decoded_pixels.hpp"

#include <cstring>
#include <new>

namespace h2d {
namespace {

constexpr std::align_val_t page_alignment{4096};

}  // namespace

std::string_view to_string(OutputPlacement placement) {
  return placement == OutputPlacement::aligned64 ? "aligned64" : "malloc";
}

std::size_t page_offset(OutputPlacement placement) {
  return placement == OutputPlacement::aligned64 ? 64 : 16;
}

void DecodedPixels::PageAlignedDelete::operator()(std::uint8_t* pointer) const {
  ::operator delete[](pointer, page_alignment);
}

DecodedPixels::DecodedPixels(std::size_t bytes, OutputPlacement placement)
    : storage_(static_cast<std::uint8_t*>(
          ::operator new[](bytes + page_offset(placement), page_alignment))),
      offset_(page_offset(placement)),
      bytes_(bytes) {
  std::memset(storage_.get(), 0, bytes + offset_);
}

}  // namespace h2d
