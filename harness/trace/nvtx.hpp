#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace h2d {

// NVTX categories of the `h2dbench` domain: one colour each, so Nsight Systems timelines read
// the same in every run. `bench_case` is the outer range named exactly as the benchmark case.
enum class NvtxCategory : std::uint32_t {
  bench_case = 1,
  setup,
  collate,
  pin,
  stage,
  copy,
  compute,
  verify,
};

std::string_view to_string(NvtxCategory category);
std::uint32_t nvtx_color(NvtxCategory category);  // ARGB

// A push/pop range in the `h2dbench` domain, with its category, colour and (for copies) the
// number of bytes as payload. NVTX costs nothing measurable when no tool is attached. While
// `run --trace` records (harness/trace/host_trace.hpp), ranges also land in the built-in timeline.
class NvtxRange {
 public:
  NvtxRange(NvtxCategory category, const std::string& name, std::uint64_t bytes = 0);
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
  ~NvtxRange();
};

// Sets up the `h2dbench` domain and NVTX's tool hook-up. Called before starting threads that use
// NVTX, since NVTX's own lazy set-up is not safe when several threads make their first call at
// once.
void nvtx_initialize();

// Names the calling OS thread in timelines ("worker 3", "pin", "copy").
void nvtx_name_this_thread(const std::string& name);

}  // namespace h2d
