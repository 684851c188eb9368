#include "harness/core/loop_bound.hpp"

namespace h2d {

std::string_view to_string(BoundBy bound) {
  switch (bound) {
    case BoundBy::cpu_workers:
      return "cpu";
    case BoundBy::bus:
      return "bus";
    case BoundBy::gpu_step:
      return "gpu";
    case BoundBy::handoff:
      return "handoff";
  }
  return "unknown";
}

std::string_view bound_stage_name(BoundBy bound) {
  switch (bound) {
    case BoundBy::cpu_workers:
      return "the CPU workers";
    case BoundBy::bus:
      return "the bus";
    case BoundBy::gpu_step:
      return "the GPU step";
    case BoundBy::handoff:
      return "the hand-off";
  }
  return "unknown";
}

std::optional<BoundBy> bound_from_counter(double value) {
  for (const BoundBy bound :
       {BoundBy::cpu_workers, BoundBy::bus, BoundBy::gpu_step, BoundBy::handoff}) {
    if (value == static_cast<double>(bound)) {
      return bound;
    }
  }
  return std::nullopt;
}

}  // namespace h2d
