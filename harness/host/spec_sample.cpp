#include "harness/host/spec_sample.hpp"

#include <algorithm>
#include <cstring>

#include "harness/core/pattern.hpp"
#include "harness/host/tile_sample.hpp"

namespace h2d {
namespace {

void fill_member(std::byte* out, std::size_t bytes, std::size_t room, std::uint64_t member_seed) {
  for (std::size_t first = 0; first < bytes; first += 8) {
    const std::uint64_t word = pattern_word(member_seed, first / 8);
    std::memcpy(out + first, &word, std::min<std::size_t>(8, bytes - first));
  }
  std::memset(out + bytes, 0, room - bytes);
}

}  // namespace

bool produce_spec_sample(const std::vector<MemberSpec>& members,
                         const std::vector<std::byte*>& places,
                         const std::vector<std::size_t>& rooms, std::uint64_t seed,
                         std::uint64_t id, double cpu_us, const Cancellation& cancel) {
  const double deadline = thread_cpu_seconds() + cpu_us * 1e-6;
  const std::uint64_t sample_seed = pattern_word(seed, id);
  do {
    for (std::size_t m = 0; m < members.size(); ++m) {
      const std::size_t bytes = drawn_bytes(members[m], m, seed, static_cast<std::size_t>(id));
      fill_member(places[m], std::min(bytes, rooms[m]), rooms[m], pattern_word(sample_seed, m));
    }
    if (cancel.cancelled()) {
      return false;
    }
  } while (thread_cpu_seconds() < deadline);
  return true;
}

}  // namespace h2d
