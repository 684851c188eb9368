#include "harness/core/counter_catalog.hpp"

#include <algorithm>
#include <cctype>

namespace h2d {
namespace {

constexpr std::optional<Better> kHigher = Better::higher;
constexpr std::optional<Better> kLower = Better::lower;
constexpr std::optional<Better> kNeither = std::nullopt;

std::vector<CounterDeclaration> catalog() {
  std::vector<CounterDeclaration> counters = {
      // --- how well a case knows its figure (MeasurementLoop) ---
      {"measurements", "", kNeither,
       "measurements the case took before its stopping rule ended it"},
      {"rel_ci_pct", "%", kLower,
       "half the distribution-free 95% interval of the median (widened for correlated "
       "measurements), in % of the median"},
      {"GB_per_s_rel_ci_pct", "%", kLower,
       "rel_ci_pct of GB_per_s where the stopping rule timed a larger whole (h2d/batch: the "
       "batch, while GB_per_s is the copy segment's median rate)"},
      {"stopped_by", "", kNeither,
       "why measuring stopped: 1 median known, 2 time cap (noisy), 3 count cap, 4 exact count"},
      {"drift_pct", "%", kNeither,
       "the measured time's second-half median minus its first-half median, in % of the median "
       "(12 or more measurements)"},
      {"drifting", "", kNeither,
       "1 when the halves' intervals do not overlap and differ by more than the stopping rule's "
       "target: the figure moved while it was measured"},
      {"cv_pct", "%", kLower, "coefficient of variation of the measured figure, in %"},
      // --- rates ---
      {"GB_per_s", "GB/s", kHigher, "bytes moved per second (decimal GB, as PCIe counts)"},
      {"copy_GB_per_s", "GB/s", kHigher, "rate of the host-to-device copy alone"},
      {"d2h_GB_per_s", "GB/s", kHigher, "rate of the device-to-host copy back"},
      {"h2d_both_GB_per_s", "GB/s", kHigher, "host-to-device rate while device-to-host runs"},
      {"d2h_both_GB_per_s", "GB/s", kHigher, "device-to-host rate while host-to-device runs"},
      {"h2d_alone_GB_per_s", "GB/s", kHigher, "host-to-device rate alone, in the same case"},
      {"d2h_alone_GB_per_s", "GB/s", kHigher, "device-to-host rate alone, in the same case"},
      {"duplex_pct", "%", kHigher,
       "both directions together over the sum of each alone (100: full duplex)"},
      {"input_GB_per_s", "GB/s", kHigher, "input bytes delivered per second of the whole loop"},
      {"pinned_GB_per_s", "GB/s", kHigher,
       "a plain async copy from pinned memory of the same size: the yardstick of vs_pinned"},
      {"gpu<N>_GB_per_s", "GB/s", kHigher, "GPU N's own rate while every GPU of the set copies"},
      {"gpu<N>_d2h_GB_per_s", "GB/s", kHigher,
       "GPU N's own rate back to the host while every GPU of the set copies both ways (dir=both)"},
      {"sum_gpu_GB_per_s", "GB/s", kHigher, "the GPUs' own rates added up"},
      {"samples_per_s", "samples/s", kHigher, "samples delivered per second"},
      {"tiles_per_s", "tiles/s", kHigher, "JPEG tiles decoded per second"},
      {"Mpixels_per_s", "Mpixels/s", kHigher, "decoded pixels per second, in millions"},
      {"decoded_MB_per_s", "MB/s", kHigher, "decoded RGB bytes per second"},
      {"jpeg_MB_per_s", "MB/s", kHigher, "JPEG bytes consumed per second"},
      {"vs_pinned", "x", kHigher, "the strategy's rate over the pinned yardstick's"},
      // --- times ---
      {"latency_us", "us", kLower, "median time of one copy"},
      {"host_block_us", "us", kLower, "median time the host thread was held per copy"},
      {"batch_ms", "ms", kLower, "median time of one whole batch"},
      {"host_prep_ms", "ms", kLower, "median host preparation time of a batch"},
      {"decode_ms", "ms", kLower, "median decode time of a batch"},
      {"gpu_normalize_ms", "ms", kLower, "median time of the GPU normalize kernel per batch"},
      {"decode_us_per_tile", "us", kLower, "decode time per tile, on the decoding threads"},
      {"total_ms", "ms", kLower, "median time of the overlapped pass over all streams"},
      {"serial_ms", "ms", kLower, "the same phases one after another (copy + compute + copy back)"},
      {"copy_ms", "ms", kLower, "median time of the copy phase alone"},
      {"compute_ms", "ms", kLower, "median time of the compute phase alone"},
      {"d2h_ms", "ms", kLower, "median time of the copy-back phase alone"},
      {"window_us", "us", kLower, "median time of one window in which every GPU copies"},
      {"pin_us", "us", kLower, "median time to page-lock the buffer"},
      {"unpin_us", "us", kLower, "median time to release the page lock"},
      {"calibration_ms", "ms", kLower, "time the tuned ring spent choosing its shape"},
      {"handoff_ms_p50", "ms", kLower, "median time a batch spent in the worker-to-loop hand-off"},
      {"handoff_ms_p99", "ms", kLower, "99th percentile of the hand-off time"},
      {"host_wait_ms_p50", "ms", kLower, "median time the training loop waited for a batch"},
      {"host_wait_ms_p99", "ms", kLower, "99th percentile of the loop's wait for a batch"},
      // --- shares of time ---
      {"overlap_pct", "%", kHigher, "how much of the serial time the overlapped pass hid"},
      {"gpu_busy_pct", "%", kNeither, "share of the loop's time the GPU step was busy"},
      {"bus_busy_pct", "%", kNeither, "share of the loop's time a copy was on the bus"},
      {"worker_busy_pct", "%", kNeither, "share of the loop's time the loader workers were busy"},
      {"pin_busy_pct", "%", kNeither, "share of the loop's time the pin thread was busy"},
      {"handoff_busy_pct", "%", kNeither, "share of the loop's time spent handing batches over"},
      {"fill_pct", "%", kNeither, "share of the ring's time spent copying into its slots"},
      {"wait_pct", "%", kNeither, "share of the ring's time spent waiting for a slot's DMA"},
      {"handoff_pct", "%", kNeither, "share of the ring's time spent handing chunks over"},
      {"pinned_fraction", "", kNeither, "share of the batch's bytes in memory CUDA sees as pinned"},
      {"rounding_waste_pct", "%", kLower,
       "bytes a power-of-two caching allocator would add to the request, in % of it"},
      {"link_pct", "%", kNeither, "the rate in % of the link ceiling the topology gives the case"},
      // --- sizes ---
      {"bytes", "bytes", kNeither, "bytes of one copy"},
      {"batch_bytes", "bytes", kNeither, "bytes of one batch in host memory"},
      {"payload_bytes", "bytes", kNeither, "bytes of the batch's members, without padding"},
      {"bus_bytes", "bytes", kNeither, "bytes that cross the bus per batch"},
      {"bus_bytes_per_sample", "bytes", kNeither, "bytes that cross the bus per sample"},
      {"d2h_bytes", "bytes", kNeither, "bytes copied back per batch"},
      {"host_copy_bytes", "bytes", kNeither, "bytes copied on the host per batch before the bus"},
      {"pinned_bytes", "bytes", kNeither, "page-locked bytes the strategy holds"},
      {"rounded_bytes", "bytes", kNeither, "the request rounded up to a power of two"},
      {"chunk_bytes", "bytes", kNeither, "bytes of one staging chunk"},
      {"mean_jpeg_bytes", "bytes", kNeither, "mean size of one JPEG file"},
      {"page_faults_per_MiB", "", kLower, "page faults taken per MiB copied"},
      // --- counts ---
      {"copies_per_measurement", "", kNeither, "copies timed together in one measurement"},
      {"copies_per_batch", "", kNeither, "separate copies a batch takes to cross the bus"},
      {"calls_per_batch", "", kNeither,
       "copy calls a batch takes: one a copy, or 1 batched (copy=batched)"},
      {"chunks", "", kNeither, "chunks the copy is split into"},
      {"calibration_trials", "", kNeither, "ring shapes the tuned ring tried"},
      {"slot_waits_per_chunk", "", kLower, "times a chunk waited for a free slot, per chunk"},
      {"verified_batches", "", kNeither, "batches whose contents were checked on arrival"},
      {"warmup_windows", "", kNeither, "windows measured before the first timed one"},
      {"workers_to_keep_up", "", kNeither, "loader workers the loop would need to never wait"},
      {"tiles", "", kNeither, "JPEG tiles in the measured set"},
      {"copy_engines", "", kNeither, "the GPU's copy engines (asyncEngineCount)"},
      {"sm_copy_blocks", "", kNeither,
       "blocks of the SM copy (engine=sm), one an SM: the SMs it takes from the step"},
      {"busy_us_per_chunk", "us", kNeither, "length of the compute kernel per chunk"},
      // --- facts and codes ---
      {"latched", "", kNeither, "1 where the copies waited behind a stream latch (GPU-timed)"},
      {"host_pinned", "", kNeither, "1 where CUDA sees the host buffer as pinned"},
      {"huge_page_pct", "%", kNeither, "share of the host buffer huge pages back (pages=huge)"},
      {"hugetlb", "", kNeither,
       "1 where the huge pages are hugetlbfs pages, 0 transparent huge pages (pages=huge)"},
      {"numa_local", "", kNeither, "1 where the host memory is on the GPU's NUMA node"},
      {"p2p", "", kNeither, "1 where the GPUs have peer access in every direction used"},
      {"bound_by", "", kNeither, "what limits the loop: the pipeline verdict's code"},
      {"error_bound", "", kNeither, "largest difference the normalize check allows"},
      {"max_abs_error", "", kLower, "largest difference from the reference normalize"},
      {"max_level_diff_vs_turbojpeg", "", kLower,
       "largest pixel-level difference from libjpeg-turbo's decode"},
      // --- a case's settings (its numeric parameters) ---
      {"gpu", "", kNeither, "the GPU's ordinal"},
      {"k", "", kNeither, "GPUs copying at once"},
      {"node", "", kNeither, "NUMA node of the host memory"},
      {"gpu_node", "", kNeither, "NUMA node of the GPU (-1: unknown)"},
      {"local", "", kNeither, "1 where memory and GPU share a NUMA node, -1 unknown"},
      {"streams", "", kNeither, "CUDA streams the copy is spread over"},
      {"threads", "", kNeither,
       "host threads doing the case's host work (filling the staging ring, normalizing, faulting "
       "pages in before they are registered)"},
      {"depth", "", kNeither, "slots in the staging ring"},
      {"batch", "", kNeither, "samples per batch"},
      {"batch_size", "", kNeither, "samples per batch"},
      {"layout", "", kNeither, "collate layout code"},
      {"packed", "", kNeither, "1 where the batch is packed into one block"},
      {"slot", "", kNeither, "1 where the batch is collated into a pinned slot"},
      {"tile", "", kNeither, "tile edge in pixels"},
      {"tile_width", "", kNeither, "tile width in pixels"},
      {"tile_height", "", kNeither, "tile height in pixels"},
      {"output_page_offset", "bytes", kNeither, "offset of the decode output from a page start"},
      {"channels", "", kNeither, "channels per pixel"},
      {"workers", "", kNeither, "loader workers"},
      {"worker_processes", "", kNeither, "1 where the workers are processes, not threads"},
      {"segments_per_batch", "", kNeither,
       "shared-memory segments a batch crosses from a worker process in (shm=fresh)"},
      {"sample_max_bytes", "bytes", kNeither,
       "the most bytes one sample's members take (the slot's room per sample)"},
      {"pin_threads", "", kNeither, "threads copying batches into pinned memory"},
      {"prefetch", "", kNeither, "batches each worker prepares ahead"},
      {"decode", "", kNeither, "where samples are decoded: 1 CPU, 2 GPU"},
      {"compute_us", "us", kNeither, "modelled GPU step time per batch"},
      {"sample_us", "us", kNeither, "modelled host work per sample"},
      {"batches_per_epoch", "", kNeither, "batches in one measured epoch"},
      {"verify_every", "", kNeither, "every how many batches the contents are checked"},
  };
  std::sort(counters.begin(), counters.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return counters;
}

// "gpu12_GB_per_s" against "gpu<N>_GB_per_s": <N> stands for one or more digits.
bool matches(std::string_view pattern, std::string_view name) {
  const std::size_t hole = pattern.find("<N>");
  if (hole == std::string_view::npos) {
    return pattern == name;
  }
  const std::string_view head = pattern.substr(0, hole);
  const std::string_view tail = pattern.substr(hole + 3);
  if (name.size() <= head.size() + tail.size() || name.substr(0, head.size()) != head ||
      name.substr(name.size() - tail.size()) != tail) {
    return false;
  }
  const std::string_view digits = name.substr(head.size(), name.size() - head.size() - tail.size());
  return std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

const std::vector<CounterDeclaration>& declared_counters() {
  static const std::vector<CounterDeclaration> counters = catalog();
  return counters;
}

const CounterDeclaration* find_declared_counter(std::string_view name) {
  for (const CounterDeclaration& counter : declared_counters()) {
    if (matches(counter.name, name)) {
      return &counter;
    }
  }
  return nullptr;
}

}  // namespace h2d
