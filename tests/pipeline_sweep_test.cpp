#include "harness/pipeline/pipeline_sweep.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "harness/core/case_name.hpp"
#include "harness/core/sample_spec.hpp"

namespace h2d {
namespace {

std::size_t count_cases(Preset preset, bool host_only) {
  return pipeline_sweep(preset, LoopKind::train, host_only).size() +
         pipeline_sweep(preset, LoopKind::predict, host_only).size();
}

TEST(PipelineSweep, QuickIsAHandful) {
  // Train and predict together, with the decode cases (decode=cpu; decode=gpu on the GPU) and
  // the worker processes (train: PyTorch's default, pin_memory=True, the shared pinned ring;
  // predict: the default and the ring; the host stand-in's train the same three).
  EXPECT_LE(count_cases(Preset::quick, false), 14u);
  EXPECT_LE(count_cases(Preset::quick, true), 9u);
  for (bool host_only : {false, true}) {
    for (LoopKind loop : {LoopKind::train, LoopKind::predict}) {
      if (host_only && loop == LoopKind::predict) {
        continue;  // host/pipeline holds both loops: its worker processes run in train
      }
      std::size_t processes = 0;
      for (const PipelineConfig& config : pipeline_sweep(Preset::quick, loop, host_only)) {
        processes += config.worker == WorkerKind::process ? 1 : 0;
      }
      EXPECT_GE(processes, 2u) << to_string(loop) << (host_only ? " host" : " gpu");
    }
  }
  std::set<PinMode> pins;
  std::set<CopyMode> copies;
  for (const PipelineConfig& config : pipeline_sweep(Preset::quick, LoopKind::train, false)) {
    pins.insert(config.pin);
    copies.insert(config.copy);
    EXPECT_NO_THROW(validate(config));
  }
  EXPECT_EQ(pins.size(), 4u) << "quick covers every pin mode";
  EXPECT_EQ(copies.size(), 2u) << "quick covers both copy modes";
}

TEST(PipelineSweep, DefaultSweepsEveryAxisWithUniqueNames) {
  const bool host_only = false;  // the host stand-in's default: the next test
  for (LoopKind loop : {LoopKind::train, LoopKind::predict}) {
    std::set<std::string> names;
    std::set<std::size_t> workers;
    std::set<std::size_t> prefetch;
    std::set<double> compute;
    std::set<double> sample;
    std::set<std::pair<PinMode, CopyMode>> pin_copy;
    std::set<std::size_t> pin_threads;
    std::set<std::pair<PinMode, ShmMode>> process_modes;
    bool packed = false;
    const auto configs = pipeline_sweep(Preset::standard, loop, host_only);
    for (const PipelineConfig& config : configs) {
      EXPECT_NO_THROW(validate(config));
      EXPECT_EQ(config.loop, loop);
      names.insert(pipeline_case_name("pipeline/train", config, false));
      workers.insert(config.workers);
      prefetch.insert(config.prefetch);
      compute.insert(config.compute_us);
      sample.insert(config.sample_us);
      pin_copy.insert({config.pin, config.copy});
      pin_threads.insert(config.pin_threads);
      if (config.worker == WorkerKind::process) {
        process_modes.insert({config.pin, config.shm});
        const ParsedCaseName parsed =
            parse_case_name(pipeline_case_name("pipeline/train", config, false));
        EXPECT_EQ(parsed.get("worker"), "process");
        EXPECT_EQ(parsed.get("shm"), std::string(to_string(config.shm)));
        EXPECT_EQ(parsed.get("members"), config.packed_members ? "packed" : "");
        packed = packed || config.packed_members;
      }
      if (config.pin_threads != 1) {
        const std::string name = pipeline_case_name("pipeline/train", config, false);
        EXPECT_EQ(parse_case_name(name).get("pin_threads"), std::to_string(config.pin_threads));
        EXPECT_EQ(pipeline_params(config).at("pin_threads"), config.pin_threads);
      }
    }
    EXPECT_EQ(names.size(), configs.size()) << "duplicate case names";
    EXPECT_GE(workers.size(), 3u);
    EXPECT_EQ(process_modes.size(), 5u) << "none and pin_thread with both shm, shared_pinned";
    EXPECT_EQ(pin_threads, (std::set<std::size_t>{1, 4})) << "the pin hop as a team copy";
    EXPECT_GE(prefetch.size(), 3u);
    EXPECT_GE(compute.size(), 3u);
    EXPECT_GE(sample.size(), 3u);
    EXPECT_EQ(pin_copy.size(), 7u) << "the thread loop's six, and shared_pinned async";
    EXPECT_LE(configs.size(), 36u);
    EXPECT_TRUE(packed) << "a batch's members packed into one segment";
  }
  EXPECT_GE(count_cases(Preset::full, false), count_cases(Preset::standard, false));
}

// The host stand-in's default asks only what it can answer about a host (worker processes'
// hand-off beside thread workers, real JPEG decode in the workers); its epochs are too noisy on
// small machines for a sweep (pipeline_sweep.cpp). full still sweeps every axis.
TEST(PipelineSweep, TheHostStandInsDefaultIsItsHandOffAndDecodeQuestions) {
  const auto train = pipeline_sweep(Preset::standard, LoopKind::train, true);
  std::set<std::pair<PinMode, ShmMode>> process_modes;
  std::size_t threads = 0;
  std::size_t decode = 0;
  for (const PipelineConfig& config : train) {
    EXPECT_NO_THROW(validate(config));
    if (config.worker == WorkerKind::process) {
      process_modes.insert({config.pin, config.shm});
    } else if (config.decode == DecodeMode::cpu) {
      ++decode;
    } else {
      ++threads;
    }
  }
  EXPECT_EQ(threads, 1u) << "the baseline";
  EXPECT_EQ(decode, 1u);
  EXPECT_EQ(process_modes,
            (std::set<std::pair<PinMode, ShmMode>>{{PinMode::none, ShmMode::fresh},
                                                   {PinMode::pin_thread, ShmMode::fresh},
                                                   {PinMode::shared_pinned, ShmMode::reused}}))
      << "PyTorch's default, pin_memory=True, and the shared pinned ring";
  EXPECT_GT(train.front().batches,
            pipeline_sweep(Preset::quick, LoopKind::train, true).front().batches)
      << "longer epochs than quick's";
  EXPECT_EQ(pipeline_sweep(Preset::standard, LoopKind::predict, true).size(), 1u);
  EXPECT_GT(count_cases(Preset::full, true), 2 * count_cases(Preset::standard, true));
}

TEST(PipelineSweep, NamesParseBack) {
  PipelineConfig config;
  config.loop = LoopKind::predict;
  const std::string name = pipeline_case_name("host/pipeline", config, true);
  EXPECT_EQ(name,
            "host/pipeline/loop=predict/workers=4/prefetch=2/pin=pinned_ring/copy=async/"
            "batch=32/compute_us=1000/sample_us=100");
  const ParsedCaseName parsed = parse_case_name(name);
  EXPECT_EQ(parsed.family, "host/pipeline");
  EXPECT_EQ(parsed.get("pin"), "pinned_ring");
  EXPECT_TRUE(parsed.get("pin_threads").empty()) << "one pin thread keeps the older names";
  EXPECT_EQ(pipeline_params(config).at("workers"), 4);
  EXPECT_TRUE(parsed.get("worker").empty()) << "thread workers keep the older names";
  config.worker = WorkerKind::process;
  config.shm = ShmMode::reused;
  config.pin = PinMode::shared_pinned;
  EXPECT_EQ(pipeline_case_name("host/pipeline", config, true),
            "host/pipeline/loop=predict/workers=4/worker=process/shm=reused/prefetch=2/"
            "pin=shared_pinned/copy=async/batch=32/compute_us=1000/sample_us=100");
}

TEST(PipelineSweep, WorkerProcessCombinationsThatCannotRunAreRefused) {
  PipelineConfig config;
  config.shm = ShmMode::reused;
  EXPECT_THROW(validate(config), std::invalid_argument) << "shm without worker processes";
  config = PipelineConfig{};
  config.pin = PinMode::shared_pinned;
  EXPECT_THROW(validate(config), std::invalid_argument) << "shared_pinned with threads";
  config.worker = WorkerKind::process;
  EXPECT_THROW(validate(config), std::invalid_argument) << "shared_pinned with shm=fresh";
  config.shm = ShmMode::reused;
  EXPECT_NO_THROW(validate(config));
  config.pin = PinMode::pinned_ring;
  EXPECT_THROW(validate(config), std::invalid_argument) << "cudaHostAlloc'd memory in a child";
  config.pin = PinMode::none;
  config.slots = config.workers * config.prefetch;
  EXPECT_THROW(validate(config), std::invalid_argument) << "a ring no larger than what is asked";
  config.slots += 1;
  EXPECT_NO_THROW(validate(config));
  config.shm = ShmMode::fresh;
  EXPECT_THROW(validate(config), std::invalid_argument) << "fresh segments are not a ring";
  config.slots = 0;
  config.packed_members = true;
  EXPECT_NO_THROW(validate(config));
  config.shm = ShmMode::reused;
  EXPECT_THROW(validate(config), std::invalid_argument) << "a ring slot is one segment already";
}

// With a sample other than the tile every case carries it and names it; the decode cases (the
// tile's JPEGs) are left out; quick's train loop adds the packed hand-off; the tile's names do not
// change.
TEST(PipelineSweep, ASampleIsCarriedAndNamedAndLeavesTheDecodeCasesOut) {
  const SampleSpec detection = parse_sample("detection");
  for (Preset preset : {Preset::quick, Preset::standard}) {
    for (bool host_only : {false, true}) {
      bool packed = false;
      for (const PipelineConfig& config :
           pipeline_sweep(preset, LoopKind::train, host_only, detection)) {
        ASSERT_TRUE(config.sample.has_value());
        EXPECT_EQ(config.decode, DecodeMode::none);
        EXPECT_NO_THROW(validate(config));
        const std::string name = pipeline_case_name("host/pipeline", config, true);
        EXPECT_EQ(name.rfind("host/pipeline/loop=train/sample=detection/workers=", 0), 0u) << name;
        packed = packed || config.packed_members;
      }
      EXPECT_TRUE(packed) << to_string(preset) << (host_only ? " host" : " gpu");
    }
  }
  for (const PipelineConfig& config : pipeline_sweep(Preset::quick, LoopKind::train, false)) {
    EXPECT_FALSE(config.sample.has_value());
    EXPECT_EQ(pipeline_case_name("pipeline/train", config, false).find("sample="),
              std::string::npos);
  }
}

}  // namespace
}  // namespace h2d
