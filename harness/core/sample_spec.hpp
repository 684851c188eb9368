#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace h2d {

// What one sample of a data set carries, as the user's loader returns it: named members, each a
// tensor of one dtype whose dimensions may vary from sample to sample. One grammar everywhere
// (`--sample` on run and list, the report's h2dbench.sample, scripts/describe-batch):
//
//   name:shape:dtype[,name:shape:dtype...]      shape: DIMxDIMx...; DIM: N or A..B; "" a scalar
//   image:3x224x224:uint8,boxes:0..100x4:float32,labels:0..100:int64
//
// A dimension A..B is drawn per sample, uniformly and seeded (draw_shape), so a run is
// repeatable. `@FILE` reads a JSON file {"members": [{"name", "shape", "dtype"}, ...]} whose
// shape is a list of numbers and "A..B" strings. A named sample stands for a spec (tile, imagenet,
// detection, tokens: named_samples()).

enum class DType { boolean, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64 };
std::string_view to_string(DType dtype);
std::size_t dtype_bytes(DType dtype);
std::optional<DType> dtype_from_string(std::string_view text);
// "bool, uint8, ..., float64": what a message says is valid.
std::string valid_dtypes();

// One dimension: `low` when it does not vary, else drawn in [low, high] per sample.
struct Dimension {
  std::size_t low = 1;
  std::size_t high = 1;
  bool varies() const { return low != high; }
};

struct MemberSpec {
  std::string name;
  std::vector<Dimension> shape;  // empty: one value (a scalar)
  DType dtype = DType::float32;

  bool varies() const;
  std::size_t min_bytes() const;  // every dimension at its low end
  std::size_t max_bytes() const;  // every dimension at its high end
  std::string text() const;       // name:shape:dtype, as the grammar writes it
};

struct SampleSpec {
  // The named sample ("tile", "imagenet", ...), or "custom" for a spec given by its members.
  std::string name = "tile";
  std::vector<MemberSpec> members;

  bool varies() const;
  std::size_t min_bytes() const;
  std::size_t max_bytes() const;
  // The members in the grammar, which parse_sample reads back to the same members.
  std::string text() const;
};

// The sample's image: its first member of three fixed dimensions with 3 channels first (C x H x
// W, as a normalized image tensor is laid out), whatever its dtype (a loader may hold it as uint8
// or already as float32). nullopt where it has none (tokens).
std::optional<std::size_t> image_member(const SampleSpec& spec);

// "detection (7 members, 3763232..3779264 bytes per sample): image:3x560x560:float32,...": what
// `list` and `run` print of the sample (one number where nothing varies). scripts/describe-batch's
// test reads the bytes from it.
std::string describe_sample(const SampleSpec& spec);

// The limits parse_sample enforces (a sample a host can hold and a loader can hand over).
inline constexpr std::size_t kMostSampleBytes = std::size_t{1} << 30;  // at the high ends
inline constexpr std::size_t kMostMembers = 4096;

// The named samples, in the order `list` prints them: tile (the default: the origin story's
// segmentation tile, image 3x512x512 float32, mask 512x512 uint8, ids 3 int64), imagenet,
// detection, tokens.
const std::vector<SampleSpec>& named_samples();

// A named sample, a spec in the grammar, or @FILE. Throws UsageError with one line that begins
// with `flag` ("--sample") and names the member (by position and name), what was wrong and what
// is valid: an unknown dtype or name, a dimension that is zero, negative or not a number, A..B
// with B < A, a name given twice or empty, an empty member, a sample over kMostSampleBytes, more
// than kMostMembers members, a missing, unreadable or malformed file.
SampleSpec parse_sample(const std::string& text, std::string_view flag = "--sample");

// The shape of `member` for one sample: fixed dimensions as they are, varying ones drawn
// uniformly from [low, high] by (seed, sample, member index, dimension): the same sample always
// gets the same shape, whichever thread or process asks.
std::vector<std::size_t> draw_shape(const MemberSpec& member, std::size_t member_index,
                                    std::uint64_t seed, std::size_t sample);
// Its bytes: dtype_bytes times the product of draw_shape.
std::size_t drawn_bytes(const MemberSpec& member, std::size_t member_index, std::uint64_t seed,
                        std::size_t sample);

}  // namespace h2d
