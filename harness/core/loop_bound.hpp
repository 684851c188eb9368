#pragma once

#include <optional>
#include <string_view>

namespace h2d {

// What limits a data-loader loop, the answer the user of h2dbench needs: more workers (cpu),
// a faster link or smaller batches on the wire (bus), or nothing on the loading side (gpu step).
// Written to reports as the counter `bound_by` with these codes, and read back by the summary.
// worker=process adds the main process's receiving thread (handoff): receiving, mapping and
// touching the workers' batches, and with pin=pin_thread their pin copy too (PyTorch's pin thread
// does both).
enum class BoundBy { cpu_workers = 0, bus = 1, gpu_step = 2, handoff = 3 };

// "cpu", "bus", "gpu", "handoff": the short name.
std::string_view to_string(BoundBy bound);

// "the CPU workers", "the bus", "the GPU step", "the hand-off": for sentences.
std::string_view bound_stage_name(BoundBy bound);

// The BoundBy a report's `bound_by` counter holds; nullopt for any other number.
std::optional<BoundBy> bound_from_counter(double value);

}  // namespace h2d
