#pragma once

#include <cstddef>

#include "harness/host/thread_team.hpp"

namespace h2d {

// Copies `bytes` from `source` to `destination` with every thread of `team`, each taking one
// contiguous part (split_range). Returns when all parts are done.
void team_memcpy(ThreadTeam& team, std::byte* destination, const std::byte* source,
                 std::size_t bytes);

}  // namespace h2d
