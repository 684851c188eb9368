// h2d/pin_cost: what page-locking host memory costs, by size: cudaMallocHost/cudaFreeHost,
// cudaHostAlloc(WriteCombined), cudaHostRegister/Unregister of memory already touched, a fresh
// block pinned as PyTorch's allocator can (pinned_use_cuda_host_register: fresh pages, faulted in
// by N threads, then registered: op=register threads=N), and a power-of-two caching allocator's
// first request (a miss: it pins) against a reuse (a hit). The numbers behind "pin once and
// reuse" and behind the memory a caching allocator wastes.

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/page_size.hpp"
#include "harness/core/pow2_rounding.hpp"
#include "harness/core/statistics.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/host_registration.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/host/fresh_pages.hpp"
#include "harness/host/thread_team.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/strategy/pinned_cache.hpp"
#include "harness/strategy/staged_copy.hpp"
#include "harness/strategy/strategy_grids.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kPinCostSeed = 0x48324450494E4E44ull;  // "H2DPINND"

// host_register registers memory the caller already holds and touched; register_fresh is the
// whole of PyTorch's pinned_use_cuda_host_register path for a new block (its name: op=register
// with the threads that fault the pages in, pinned_num_register_threads).
enum class PinOp {
  malloc_host,
  host_alloc_wc,
  host_register,
  register_fresh,
  cache_miss,
  cache_hit
};

std::string op_name(PinOp op) {
  switch (op) {
    case PinOp::malloc_host:
      return "malloc_host";
    case PinOp::host_alloc_wc:
      return "host_alloc_wc";
    case PinOp::host_register:
    case PinOp::register_fresh:
      return "register";
    case PinOp::cache_miss:
      return "cache_miss";
    case PinOp::cache_hit:
      return "cache_hit";
  }
  return "unknown";
}

bool is_cache_op(PinOp op) {
  return op == PinOp::cache_miss || op == PinOp::cache_hit;
}

struct PinCostCase {
  int device = 0;
  PinOp op = PinOp::malloc_host;
  std::size_t bytes = 0;
  std::size_t threads = 1;  // register_fresh: the threads that fault the pages in
};

// A fresh block pinned as PyTorch's allocator can: new pages (malloc's), every one faulted in by
// one of the team's threads (a written byte a page, pinned_num_register_threads), then registered.
struct FreshRegisteredBlock {
  FreshPages pages;
  HostRegistration registration;

  FreshRegisteredBlock(ThreadTeam& team, std::size_t bytes) : pages(bytes) {
    const std::size_t page = memory_page_size();
    const std::size_t count = (bytes + page - 1) / page;
    std::byte* data = pages.data();
    team.run([&](std::size_t index) {
      const auto [first, last] = split_range(count, team.size(), index);
      for (std::size_t p = first; p < last; ++p) {
        data[p * page] = std::byte{0};
      }
    });
    registration = HostRegistration(data, bytes);
  }
};

// Proves memory is really page-locked and usable for DMA: CUDA must call it pinned, and a pattern
// copied from it must arrive intact.
void verify_page_locked(std::byte* data, std::size_t bytes, int device) {
  NvtxRange verify(NvtxCategory::verify, "page-locked and copyable");
  if (actual_kind(data) != ActualKind::pinned) {
    throw VerificationError(
        fmt::format("memory that should be page-locked is {}", to_string(actual_kind(data))));
  }
  fill_pattern(data, bytes, kPinCostSeed);
  DeviceBuffer target(device, bytes);
  Stream stream(device);
  // A fresh cudaMalloc often returns the block the previous call of this case freed, still
  // holding this very pattern: without the zeros a copy that never happened would pass.
  device_zero(target.data(), bytes, stream);
  copy_and_wait(target.data(), data, bytes, stream);
  verify_checksum(device_checksum(target.data(), bytes, stream),
                  expected_checksum(bytes, kPinCostSeed),
                  "data copied from the page-locked memory");
}

void run_pin_cost_case(const PinCostCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.device);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "prepare");
  H2D_CUDA_CHECK(cudaFree(nullptr));  // the context exists before anything is timed
  const std::size_t block = is_cache_op(c.op) ? round_up_pow2(c.bytes) : c.bytes;
  std::optional<HostBuffer> pageable;  // register: memory that exists and is touched already
  if (c.op == PinOp::host_register) {
    pageable.emplace(HostKind::pageable, c.bytes);
    fill_pattern(pageable->data(), c.bytes, kPinCostSeed);
  }
  std::optional<ThreadTeam> team;  // register_fresh: started before anything is timed
  if (c.op == PinOp::register_fresh) {
    team.emplace(c.threads, "fault pages");
  }
  PinnedCache warm_cache;  // cache_hit: holds the one block every iteration reuses
  if (c.op == PinOp::cache_hit) {
    warm_cache.give_back(warm_cache.take(c.bytes));
  }
  setup.reset();

  std::vector<double> pin_seconds;
  std::vector<double> unpin_seconds;
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    NvtxRange pin(NvtxCategory::pin, op_name(c.op), block);
    Stopwatch watch;
    switch (c.op) {
      case PinOp::malloc_host:
      case PinOp::host_alloc_wc: {
        HostBuffer buffer(c.op == PinOp::malloc_host ? HostKind::pinned : HostKind::write_combined,
                          c.bytes);
        pin_seconds.push_back(watch.seconds());
        watch.restart();
        buffer = HostBuffer();  // cudaFreeHost
        unpin_seconds.push_back(watch.seconds());
        break;
      }
      case PinOp::host_register: {
        HostRegistration registration(pageable->data(), c.bytes);
        pin_seconds.push_back(watch.seconds());
        watch.restart();
        registration.reset();  // cudaHostUnregister, checked
        unpin_seconds.push_back(watch.seconds());
        break;
      }
      case PinOp::register_fresh: {
        FreshRegisteredBlock fresh(*team, c.bytes);
        pin_seconds.push_back(watch.seconds());
        watch.restart();
        fresh.registration.reset();
        unpin_seconds.push_back(watch.seconds());
        break;  // the pages are unmapped after the clock
      }
      case PinOp::cache_miss: {
        PinnedCache cold;  // a new cache: the request must pin
        HostBuffer buffer = cold.take(c.bytes);
        pin_seconds.push_back(watch.seconds());
        break;  // freeing the block is not part of a cache's cost
      }
      case PinOp::cache_hit: {
        HostBuffer buffer = warm_cache.take(c.bytes);
        pin_seconds.push_back(watch.seconds());
        watch.restart();
        warm_cache.give_back(std::move(buffer));
        unpin_seconds.push_back(watch.seconds());
        break;
      }
    }
    loop.record(pin_seconds.back());
  }

  // Outside timing: one more of the same, checked for what it must be.
  switch (c.op) {
    case PinOp::malloc_host:
    case PinOp::host_alloc_wc: {
      HostBuffer buffer(c.op == PinOp::malloc_host ? HostKind::pinned : HostKind::write_combined,
                        c.bytes);
      verify_page_locked(buffer.data(), c.bytes, c.device);
      break;
    }
    case PinOp::host_register: {
      HostRegistration registration(pageable->data(), c.bytes);
      verify_page_locked(pageable->data(), c.bytes, c.device);
      registration.reset();
      break;
    }
    case PinOp::register_fresh: {
      FreshRegisteredBlock fresh(*team, c.bytes);
      verify_page_locked(fresh.pages.data(), c.bytes, c.device);
      fresh.registration.reset();
      break;
    }
    case PinOp::cache_miss:
    case PinOp::cache_hit: {
      HostBuffer buffer = warm_cache.take(c.bytes);  // for cache_miss: empty, so it pins
      if (buffer.size() != block) {
        throw VerificationError(fmt::format("the cache returned {} for a request of {}",
                                            format_bytes(buffer.size()), format_bytes(c.bytes)));
      }
      verify_page_locked(buffer.data(), c.bytes, c.device);
      if (c.op == PinOp::cache_hit && warm_cache.hits() != loop.measurements() + 1) {
        throw VerificationError("the warm cache pinned again instead of reusing its block");
      }
      break;
    }
  }

  if (pin_seconds.empty()) {
    return;
  }
  const SampleStats pin = summarize(pin_seconds);
  set_counter(state, "pin_us", pin.median * 1e6);
  set_counter(state, "cv_pct", pin.cv * 100);
  set_counter(state, "bytes", static_cast<double>(c.bytes));
  if (c.op != PinOp::cache_hit) {
    // Pinning throughput: how fast this way of page-locking covers memory.
    set_counter(state, "GB_per_s", gb_per_s(static_cast<double>(block), pin.median));
  }
  if (!unpin_seconds.empty()) {
    set_counter(state, "unpin_us", summarize(unpin_seconds).median * 1e6);
  }
  if (is_cache_op(c.op)) {
    set_counter(state, "rounded_bytes", static_cast<double>(block));
  }
}

std::vector<BenchmarkCase> pin_cost_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (const DeviceInfo& gpu : plan.devices) {
    for (PinOp op : {PinOp::malloc_host, PinOp::host_alloc_wc, PinOp::host_register,
                     PinOp::register_fresh, PinOp::cache_miss, PinOp::cache_hit}) {
      const std::vector<std::size_t> sizes =
          is_cache_op(op) ? cached_request_sizes(plan.preset) : pin_cost_sizes(plan.preset);
      // Only register_fresh has threads: 1 and the usable cores in quick, powers of two between.
      const std::vector<std::size_t> thread_counts =
          op == PinOp::register_fresh ? host_thread_counts(plan.preset, usable_cores())
                                      : std::vector<std::size_t>{1};
      for (std::size_t threads : thread_counts) {
        for (std::size_t bytes : sizes) {
          CaseName name = case_name_on("h2d/pin_cost", plan, gpu);
          name.add("op", op_name(op));
          std::map<std::string, double> params = {{"gpu", gpu.ordinal}};
          if (op == PinOp::register_fresh) {
            name.add("threads", static_cast<long long>(threads));
            params["threads"] = static_cast<double>(threads);
          }
          name.add_bytes("bytes", bytes);
          if (is_cache_op(op)) {
            params["rounding_waste_pct"] = rounding_waste_pct(bytes);
          }
          cases.push_back(make_case(name, std::move(params), run_pin_cost_case,
                                    PinCostCase{gpu.ordinal, op, bytes, threads}));
        }
      }
    }
  }
  return cases;
}

[[maybe_unused]] const bool pin_cost_registered = register_family({
    "h2d/pin_cost",
    "cost of page-locking by size: cudaMallocHost, write-combined, register (touched memory, or "
    "fresh pages faulted in by N threads first), caching allocator",
    /*needs_gpu=*/true,
    pin_cost_cases,
});

}  // namespace
}  // namespace h2d
