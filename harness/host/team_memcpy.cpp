#include "harness/host/team_memcpy.hpp"

#include <cstring>

#include "harness/trace/nvtx.hpp"

namespace h2d {

void team_memcpy(ThreadTeam& team, std::byte* destination, const std::byte* source,
                 std::size_t bytes) {
  // The caller is member 0 of the team, so a team of one copies inline with no hand-off.
  team.run([&](std::size_t index) {
    const auto [begin, end] = split_range(bytes, team.size(), index);
    NvtxRange part(NvtxCategory::stage, "memcpy part", end - begin);  // on each thread's own row
    std::memcpy(destination + begin, source + begin, end - begin);
  });
}

}  // namespace h2d
