#include "harness/pipeline/pipeline_sweep.hpp"

#include <algorithm>
#include <functional>

#include "harness/core/case_name.hpp"
#include "harness/core/sample_axis.hpp"
#include "harness/pipeline/slot_layout.hpp"

namespace h2d {
namespace {

PipelineConfig baseline(Preset preset, LoopKind loop, bool host_only, const SampleSpec& sample) {
  PipelineConfig config;
  config.loop = loop;
  if (sample.name != "tile") {
    config.sample = sample;
  }
  if (host_only) {
    // The host stand-in shares two CI cores with everything: small tiles, short steps.
    config.workers = 2;
    config.batch_size = 16;
    config.tile = 64;
    config.sample_us = 50;
    config.compute_us = 300;
    config.batches = preset == Preset::quick ? 32 : 64;
  } else {
    config.batches = preset == Preset::quick ? 48 : 96;
  }
  return config;
}

// Adds `config` unless an identical case is already there.
void add_unique(std::vector<PipelineConfig>& configs, const PipelineConfig& config) {
  const std::string name = pipeline_case_name("x", config, true);
  const bool present = std::any_of(configs.begin(), configs.end(), [&](const PipelineConfig& c) {
    return pipeline_case_name("x", c, true) == name;
  });
  if (!present) {
    configs.push_back(config);
  }
}

template <typename T>
void sweep_axis(std::vector<PipelineConfig>& configs, const PipelineConfig& base,
                const std::vector<T>& values, const std::function<void(PipelineConfig&, T)>& set) {
  for (const T& value : values) {
    PipelineConfig config = base;
    set(config, value);
    add_unique(configs, config);
  }
}

void set_workers(PipelineConfig& config, std::size_t workers) {
  config.workers = workers;
}

// Decode cases: the baseline with real JPEG decode in the workers (256x256 tiles, the generated
// set's smaller size) by worker count, and (GPU families, `with_gpu`) the nvJPEG path.
// `base` decoding real JPEGs in its workers (256x256 tiles, the generated set's smaller size).
PipelineConfig cpu_decode(const PipelineConfig& base, Preset preset, bool host_only) {
  PipelineConfig decode = base;
  decode.decode = DecodeMode::cpu;
  decode.tile = kDecodeTile;
  decode.sample_us = 0;
  if (host_only) {
    decode.batches = preset == Preset::quick ? 24 : 48;
  }
  return decode;
}

void add_decode_cases(std::vector<PipelineConfig>& configs, const PipelineConfig& base,
                      Preset preset, bool host_only, bool with_gpu = true) {
  if (base.sample) {  // they decode the tile's JPEGs
    return;
  }
  PipelineConfig decode = cpu_decode(base, preset, host_only);
  const std::vector<std::size_t> workers = preset == Preset::quick
                                               ? std::vector<std::size_t>{base.workers}
                                           : host_only ? std::vector<std::size_t>{1, 2, 4}
                                                       : std::vector<std::size_t>{1, 2, 4, 8};
  sweep_axis<std::size_t>(configs, decode, workers, set_workers);
  if (!host_only && with_gpu) {
    decode.decode = DecodeMode::gpu;
    add_unique(configs, decode);
  }
}

// Worker processes as PyTorch's DataLoader runs them (pin, shm, copy): the DataLoader's default
// (pageable batches, blocking copy), pin_memory=True with non_blocking copies, the reused ring, and
// the shared pinned ring no PyTorch release offers.
struct ProcessCase {
  PinMode pin;
  ShmMode shm;
  CopyMode copy;
};
const std::vector<ProcessCase> kProcessCases{
    {PinMode::none, ShmMode::fresh, CopyMode::sync},
    {PinMode::pin_thread, ShmMode::fresh, CopyMode::async},
    {PinMode::none, ShmMode::reused, CopyMode::sync},
    {PinMode::pin_thread, ShmMode::reused, CopyMode::async},
    {PinMode::shared_pinned, ShmMode::reused, CopyMode::async}};

// quick: PyTorch's two settings and the shared pinned ring (predict: the default and the ring);
// default and full: every pin and shm mode, decode=cpu with pin_memory and (GPU families) the
// worker count with pin_memory.
void add_process_cases(std::vector<PipelineConfig>& configs, const PipelineConfig& base,
                       Preset preset, bool host_only) {
  PipelineConfig process = base;
  process.worker = WorkerKind::process;
  for (const ProcessCase& mode : kProcessCases) {
    const bool in_quick = mode.shm == ShmMode::fresh
                              ? (mode.pin == PinMode::none || base.loop == LoopKind::train)
                              : mode.pin == PinMode::shared_pinned;
    if (preset == Preset::quick && !in_quick) {
      continue;
    }
    PipelineConfig config = process;
    config.pin = mode.pin;
    config.shm = mode.shm;
    config.copy = mode.copy;
    add_unique(configs, config);
  }
  // With pin_memory=True: the batch's members packed into one segment (a sample's own members
  // make it a question quick asks too), and the workers decoding real JPEGs.
  PipelineConfig pinned = process;
  pinned.pin = PinMode::pin_thread;
  PipelineConfig packed = pinned;
  packed.packed_members = true;
  if (preset == Preset::quick) {
    if (base.sample && base.loop == LoopKind::train) {
      add_unique(configs, packed);
    }
    return;
  }
  if (!base.sample) {
    add_unique(configs, cpu_decode(pinned, preset, host_only));
  }
  add_unique(configs, packed);
  if (!host_only) {
    sweep_axis<std::size_t>(configs, pinned,
                            preset == Preset::full ? std::vector<std::size_t>{1, 2, 8, 16}
                                                   : std::vector<std::size_t>{2, 8},
                            set_workers);
  }
}

}  // namespace

std::vector<PipelineConfig> pipeline_sweep(Preset preset, LoopKind loop, bool host_only,
                                           const SampleSpec& sample) {
  const PipelineConfig base = baseline(preset, loop, host_only, sample);
  std::vector<PipelineConfig> configs;
  using PinCopy = std::pair<PinMode, CopyMode>;
  const auto set_pin_copy = [](PipelineConfig& c, PinCopy v) {
    c.pin = v.first;
    c.copy = v.second;
  };
  const std::vector<PinCopy> all_pin_copy{
      {PinMode::none, CopyMode::sync},        {PinMode::none, CopyMode::async},
      {PinMode::pin_thread, CopyMode::sync},  {PinMode::pin_thread, CopyMode::async},
      {PinMode::pinned_ring, CopyMode::sync}, {PinMode::pinned_ring, CopyMode::async}};
  if (preset == Preset::quick) {
    // The baseline, the loader defaults (pageable, blocking copy), the pin thread, and sync.
    std::vector<PinCopy> quick{{PinMode::pinned_ring, CopyMode::async},
                               {PinMode::none, CopyMode::sync},
                               {PinMode::pin_thread, CopyMode::async}};
    if (loop == LoopKind::train && !host_only) {
      quick.push_back({PinMode::pinned_ring, CopyMode::sync});
    }
    if (loop == LoopKind::predict) {
      quick.resize(2);
    }
    sweep_axis<PinCopy>(configs, base, quick, set_pin_copy);
    if (loop == LoopKind::train) {
      add_decode_cases(configs, base, preset, host_only);
    } else if (!host_only) {  // predict: one decode=cpu case, to keep quick short
      add_decode_cases(configs, base, preset, host_only, /*with_gpu=*/false);
    }
    if (loop == LoopKind::train || !host_only) {
      add_process_cases(configs, base, preset, host_only);
    }
    return configs;
  }
  const bool full = preset == Preset::full;
  configs.push_back(base);
  if (host_only && !full) {
    // The host stand-in has no bus (its slots are pageable whatever `pin` says, its copy is a
    // memcpy) and its compute_us and sample_us are made-up costs: what it tells about this host is
    // what worker processes' hand-off costs beside thread workers, and how fast its workers decode
    // real JPEGs. Its default holds those, in the train loop, and the predict loop's baseline; the
    // other axes are the GPU families' (and `full`'s here). With more threads than cores its epochs
    // drift 5-30% apart on 2 cores, so its cases rarely know their median within 2% in a short run
    // (2026-12-07: 0 of 30 at 0.3 s, a workers=1 case +-3.8% after 2 s): a handful, not a sweep.
    if (loop == LoopKind::train) {
      if (!base.sample) {
        add_unique(configs, cpu_decode(base, preset, host_only));
      }
      add_process_cases(configs, base, Preset::quick, host_only);  // quick's modes
    }
    return configs;
  }
  sweep_axis<PinCopy>(configs, base, all_pin_copy, set_pin_copy);
  // The pin hop as a team copy (the staging ring's) instead of one pin thread.
  PipelineConfig pin_team = base;
  pin_team.pin = PinMode::pin_thread;
  sweep_axis<std::size_t>(configs, pin_team,
                          full ? std::vector<std::size_t>{2, 4, 8} : std::vector<std::size_t>{4},
                          [](PipelineConfig& c, std::size_t v) { c.pin_threads = v; });
  sweep_axis<std::size_t>(configs, base,
                          host_only ? std::vector<std::size_t>{1, 2, 4}
                          : full    ? std::vector<std::size_t>{1, 2, 4, 8, 16}
                                    : std::vector<std::size_t>{1, 2, 4, 8},
                          set_workers);
  sweep_axis<std::size_t>(
      configs, base,
      full ? std::vector<std::size_t>{1, 2, 4, 8, 16} : std::vector<std::size_t>{1, 2, 8},
      [](PipelineConfig& c, std::size_t v) { c.prefetch = v; });
  if (!host_only) {
    sweep_axis<std::size_t>(configs, base,
                            full ? std::vector<std::size_t>{4, 8, 16, 32, 64, 128}
                                 : std::vector<std::size_t>{8, 32, 128},
                            [](PipelineConfig& c, std::size_t v) { c.batch_size = v; });
  }
  sweep_axis<double>(configs, base,
                     host_only ? std::vector<double>{0, 300, 2000}
                     : full    ? std::vector<double>{0, 200, 500, 1000, 2000, 5000, 10000}
                               : std::vector<double>{200, 1000, 5000},
                     [](PipelineConfig& c, double v) { c.compute_us = v; });
  sweep_axis<double>(configs, base,
                     host_only ? std::vector<double>{0, 50, 200}
                     : full    ? std::vector<double>{0, 20, 100, 200, 500, 1000}
                               : std::vector<double>{20, 100, 500},
                     [](PipelineConfig& c, double v) { c.sample_us = v; });
  add_decode_cases(configs, base, preset, host_only);
  add_process_cases(configs, base, preset, host_only);
  if (!host_only) {
    // The copy hop as one cudaMemcpyBatchAsync of the slot's regions, from the pinned ring and
    // behind the pin thread.
    for (PinMode pin : {PinMode::pinned_ring, PinMode::pin_thread}) {
      PipelineConfig batched = base;
      batched.pin = pin;
      batched.batched_copy = true;
      add_unique(configs, batched);
    }
  }
  if (full && !host_only) {
    // How pinning and async copies pay off when the step is short and when it is long.
    for (double compute_us : {200.0, 5000.0}) {
      PipelineConfig step = base;
      step.compute_us = compute_us;
      sweep_axis<PinCopy>(configs, step, all_pin_copy, set_pin_copy);
    }
  }
  return configs;
}

CaseName& add_pipeline_keys(CaseName& name, const PipelineConfig& config, bool with_loop) {
  if (with_loop) {
    name.add("loop", std::string(to_string(config.loop)));
  }
  if (config.sample) {
    add_sample_axis(name, *config.sample);
  }
  name.add("workers", static_cast<long long>(config.workers));
  if (config.worker == WorkerKind::process) {  // absent for threads: older reports keep their names
    name.add("worker", std::string(to_string(config.worker)))
        .add("shm", std::string(to_string(config.shm)));
    if (config.packed_members) {  // absent when each member crosses alone (PyTorch)
      name.add("members", "packed");
    }
  }
  name.add("prefetch", static_cast<long long>(config.prefetch))
      .add("pin", std::string(to_string(config.pin)));
  if (config.pin_threads != 1) {  // absent otherwise: older reports keep their names
    name.add("pin_threads", static_cast<long long>(config.pin_threads));
  }
  name.add("copy", std::string(to_string(config.copy)));
  if (config.batched_copy) {  // absent for one copy of the slot: older reports keep their names
    name.add("memcpy", "batched");
  }
  name.add("batch", static_cast<long long>(config.batch_size))
      .add("compute_us", static_cast<long long>(config.compute_us))
      .add("sample_us", static_cast<long long>(config.sample_us));
  if (config.decode != DecodeMode::none) {  // absent otherwise: older reports keep their names
    name.add("decode", std::string(to_string(config.decode)));
  }
  return name;
}

std::string pipeline_case_name(const std::string& family, const PipelineConfig& config,
                               bool with_loop) {
  CaseName name(family);
  return add_pipeline_keys(name, config, with_loop).str();
}

std::map<std::string, double> pipeline_params(const PipelineConfig& config) {
  std::map<std::string, double> params{{"workers", static_cast<double>(config.workers)},
                                       {"prefetch", static_cast<double>(config.prefetch)},
                                       {"batch", static_cast<double>(config.batch_size)},
                                       {"compute_us", config.compute_us},
                                       {"sample_us", config.sample_us},
                                       {"batches_per_epoch", static_cast<double>(config.batches)},
                                       {"verify_every", static_cast<double>(config.verify_every)}};
  if (config.decode != DecodeMode::none) {
    params["decode"] = static_cast<double>(config.decode);  // 1 cpu, 2 gpu
  }
  if (config.pin_threads != 1) {
    params["pin_threads"] = static_cast<double>(config.pin_threads);
  }
  if (config.worker == WorkerKind::process) {
    params["worker_processes"] = 1;
  }
  if (config.worker == WorkerKind::process && config.shm == ShmMode::fresh) {
    params["segments_per_batch"] =
        config.packed_members ? 1.0 : static_cast<double>(SlotLayout(config).segments());
  }
  if (config.sample) {
    params["sample_max_bytes"] = static_cast<double>(config.sample->max_bytes());
  } else {
    params["tile"] = static_cast<double>(config.tile);
    params["channels"] = static_cast<double>(config.channels);
  }
  return params;
}

}  // namespace h2d
