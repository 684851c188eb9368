#include "harness/team_memcpy.hpp"

#include <cstring>

namespace h2d {

void team_memcpy(ThreadTeam& team, std::byte* destination, const std::byte* source,
                 std::size_t bytes) {
  if (team.size() == 1) {
    std::memcpy(destination, source, bytes);  // no hand-off to a worker for a single thread
    return;
  }
  team.run([&](std::size_t index) {
    const auto [begin, end] = split_range(bytes, team.size(), index);
    std::memcpy(destination + begin, source + begin, end - begin);
  });
}

}  // namespace h2d
