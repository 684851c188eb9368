#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace h2d::sim {

// Fault injection, H2D_SIM_FAULTS: rules separated by commas (docs/sim.md):
//   TARGET#N=cudaErrorName   the Nth call of TARGET fails with that error (does nothing else)
//   corrupt=TARGET#N         the Nth copy lands with one byte flipped (the middle byte, XOR 0xff)
//   stall=TARGET#N:DURATION  the Nth copy or kernel takes DURATION longer (5s, 250ms, 40us)
// TARGET is a runtime function (cudaMemcpyAsync) or kernel:NAME (a kernel's launch by its name).
// Calls are counted per target from 1 over the whole process; `#N+` means the Nth call and every
// later one (a corruption that must reach a verified copy whichever copy that is).
struct FaultRule {
  enum class Action { error, corrupt, stall };
  Action action = Action::error;
  std::string target;
  std::uint64_t call = 1;
  bool and_later = false;  // #N+
  cudaError_t error = cudaSuccess;
  std::uint64_t stall_ns = 0;
};

// Throws ConfigError naming H2D_SIM_FAULTS for a rule that does not parse.
std::vector<FaultRule> parse_faults(const std::string& text);

// What an injected fault does to one call.
struct FaultEffect {
  cudaError_t error = cudaSuccess;
  bool corrupt = false;
  std::uint64_t stall_ns = 0;
};

class FaultPlan {
 public:
  explicit FaultPlan(std::vector<FaultRule> rules) : rules_(std::move(rules)) {}
  // Counts one call of `target` and says what the rules do to it.
  FaultEffect on_call(std::string_view target);

 private:
  const std::vector<FaultRule> rules_;
  std::mutex mutex_;
  std::map<std::string, std::uint64_t, std::less<>> calls_;
};

}  // namespace h2d::sim
