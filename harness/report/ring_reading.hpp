#pragma once

#include <optional>
#include <string>

#include "harness/report/report_cases.hpp"

namespace h2d {

// What limited a staging ring, from the shares of its timed run: its threads filling slots
// (fill_pct), the host waiting for a slot's copy to land (wait_pct), and the rest, handing chunks
// over (waking the threads, enqueueing each copy). The largest share names the limit.
enum class RingLimit { host_copy, bus, handoff };

RingLimit ring_limit(double fill_pct, double wait_pct);

// "the ring was bound by the bus (the host waited for slots 61% of the time)"; nullopt for a case
// without fill_pct and wait_pct (not a ring, or an old report). A tuned ring adds its choice:
// "tuned in 640 ms to threads=8 chunk=4MiB depth=3".
std::optional<std::string> ring_reading(const ReportCase& c);

}  // namespace h2d
