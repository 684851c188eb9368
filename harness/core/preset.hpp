#pragma once

#include <string_view>

namespace h2d {

// How much a run sweeps: `quick` a handful of points per family (a smoke run, well under two
// minutes on one GPU), `standard` the default suite, `full` dense sweeps. Spelled "default" on the
// command line and in reports.
enum class Preset { quick, standard, full };

std::string_view to_string(Preset preset);
// Throws UsageError naming the valid presets.
Preset parse_preset(std::string_view name);

}  // namespace h2d
