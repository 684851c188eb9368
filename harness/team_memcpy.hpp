#pragma once

#include <cstddef>

#include "harness/thread_team.hpp"

namespace h2d {

// Copies `bytes` from `source` to `destination`, split in near-equal parts over the team's threads.
void team_memcpy(ThreadTeam& team, std::byte* destination, const std::byte* source,
                 std::size_t bytes);

}  // namespace h2d
