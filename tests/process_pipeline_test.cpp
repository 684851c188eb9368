// worker=process on the host stand-in: worker processes (h2d_loader_worker) deliver every batch
// intact in every pin and shm mode, the hand-off and the pin copy are measured apart, a killed
// worker fails its epoch naming it, and no shared-memory segment is left behind.

#include <gtest/gtest.h>

#include <dirent.h>
#include <signal.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/core/page_size.hpp"
#include "harness/core/sample_spec.hpp"
#include "harness/decode/run_images.hpp"
#include "harness/host/shared_segment.hpp"
#include "harness/pipeline/host_step_engine.hpp"
#include "harness/pipeline/loader_fault.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/pipeline/pipeline_case.hpp"
#include "harness/pipeline/pipeline_sweep.hpp"
#include "harness/pipeline/pipeline_verdict.hpp"
#include "harness/pipeline/slot_layout.hpp"
#include "harness/pipeline/worker_processes.hpp"
#include "tests/child_process.hpp"
#include "tests/h2dbench_process.hpp"
#include "tests/pipeline_test_support.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

using testing::describe_result;

PipelineConfig process_config(PinMode pin, ShmMode shm, LoopKind loop = LoopKind::train) {
  PipelineConfig config = testing::test_pipeline_config(pin, CopyMode::async, loop,
                                                        /*batch_size=*/4, /*tile=*/8,
                                                        /*compute_us=*/50);
  config.worker = WorkerKind::process;
  config.shm = shm;
  config.workers = 2;
  config.batches = 24;
  return config;
}

// One epoch of `config` that must complete with every batch intact; its result, for more checks.
EpochResult expect_every_batch_intact(const PipelineConfig& config) {
  HostStepEngine engine(config);
  Pipeline pipeline(config, engine);
  const EpochResult result = pipeline.run_epoch();
  EXPECT_EQ(result.end, EpochEnd::completed) << describe_result(result);
  EXPECT_EQ(result.checksum_failures + result.lost_batches, 0u) << describe_result(result);
  return result;
}

// The segment names in /dev/shm whose maker no longer runs: what a loop must never leave. (Names
// of running processes are left out: other tests make and unlink segments at the same time.)
std::set<std::string> stale_segment_names() {
  std::set<std::string> names;
  if (DIR* dir = opendir("/dev/shm")) {
    while (const dirent* entry = readdir(dir)) {
      const std::string name = entry->d_name;
      if (name.rfind("h2dbench.", 0) != 0) {
        continue;
      }
      const int owner = std::atoi(name.c_str() + std::strlen("h2dbench."));
      if (owner > 0 && kill(owner, 0) != 0 && errno == ESRCH) {
        names.insert(name);
      }
    }
    closedir(dir);
  }
  return names;
}

// The stale names now that were not there `before` (h2dbench removes earlier runs' stale names).
std::set<std::string> new_stale_names(const std::set<std::string>& before) {
  std::set<std::string> added;
  for (const std::string& name : stale_segment_names()) {
    if (before.count(name) == 0) {
      added.insert(name);
    }
  }
  return added;
}

struct Mode {
  PinMode pin;
  ShmMode shm;
  bool packed = false;  // the batch's members in one segment
};
const std::vector<Mode> kModes{
    {PinMode::none, ShmMode::fresh},        {PinMode::none, ShmMode::fresh, /*packed=*/true},
    {PinMode::pin_thread, ShmMode::fresh},  {PinMode::none, ShmMode::reused},
    {PinMode::pin_thread, ShmMode::reused}, {PinMode::shared_pinned, ShmMode::reused}};

TEST(ProcessPipeline, EveryPinAndShmModeDeliversEveryBatchIntact) {
  const std::set<std::string> before = stale_segment_names();
  for (LoopKind loop : {LoopKind::train, LoopKind::predict}) {
    for (const Mode& mode : kModes) {
      for (CopyMode copy : {CopyMode::sync, CopyMode::async}) {
        PipelineConfig config = process_config(mode.pin, mode.shm, loop);
        config.copy = copy;
        config.packed_members = mode.packed;
        SCOPED_TRACE(describe(config));
        HostStepEngine engine(config);
        Pipeline pipeline(config, engine);
        for (int epoch = 0; epoch < 2; ++epoch) {  // the workers serve the next epoch too
          const EpochResult result = pipeline.run_epoch();
          EXPECT_EQ(result.end, EpochEnd::completed) << describe_result(result);
          EXPECT_EQ(result.completed, config.batches) << describe_result(result);
          EXPECT_EQ(result.verified, config.batches) << describe_result(result);
          EXPECT_EQ(result.checksum_failures + result.lost_batches, 0u) << describe_result(result);
          EXPECT_FALSE(result.handoff_s.empty()) << "every received batch is a hand-off";
          EXPECT_GT(result.worker_busy_s, 0) << "the workers' times cross with their batches";
        }
      }
    }
  }
  EXPECT_TRUE(new_stale_names(before).empty()) << "a segment outlived its loop";
}

// decode=cpu: each worker makes the run's image set again and decodes its samples from it; what
// arrives must be what the worker checksummed.
void expect_worker_processes_decode(const RunImages& images) {
  PipelineConfig config = process_config(PinMode::pin_thread, ShmMode::fresh);
  config.decode = DecodeMode::cpu;
  config.tile = kDecodeTile;
  config.batch_size = 2;
  config.batches = 8;
  const PipelineConfig run = with_decode_inputs(config, images);
  EXPECT_EQ(run.image_dir, images.dir());
  HostStepEngine engine(run);
  Pipeline pipeline(run, engine);
  const EpochResult result = pipeline.run_epoch();
  EXPECT_EQ(result.end, EpochEnd::completed) << describe_result(result);
  EXPECT_EQ(result.verified, run.batches);
  EXPECT_EQ(result.checksum_failures + result.lost_batches, 0u) << describe_result(result);
}

TEST(ProcessPipeline, WorkerProcessesDecodeTheRunsImages) {
  expect_worker_processes_decode(RunImages());  // the generated set
}

TEST(ProcessPipeline, WorkerProcessesLoadTheRunsImagesFolderAgain) {
  const std::filesystem::path dir = h2d_test::scratch_folder("process_pipeline_images");
  const ImageSet generated = generate_image_set();
  std::size_t written = 0;
  for (const JpegImage* image : generated.of_size(kDecodeTile, kDecodeTile)) {
    std::ofstream(dir / (std::to_string(written++) + ".jpg"), std::ios::binary)
        .write(reinterpret_cast<const char*>(image->bytes.data()),
               static_cast<std::streamsize>(image->bytes.size()));
  }
  ASSERT_GT(written, 0u);
  expect_worker_processes_decode(RunImages(dir.string()));  // --images DIR
  std::filesystem::remove_all(dir);
}

TEST(ProcessPipeline, WorkerProcessesRefuseAnImageSetTheyCannotMakeAgain) {
  PipelineConfig config = process_config(PinMode::pin_thread, ShmMode::fresh);
  config.decode = DecodeMode::cpu;
  config.tile = kDecodeTile;
  auto in_memory = std::make_shared<ImageSet>(generate_image_set());
  in_memory->generated = false;  // a set from nowhere a worker could load it
  config.images = in_memory;
  try {
    HostStepEngine engine(config);
    Pipeline pipeline(config, engine);
    pipeline.run_epoch();
    FAIL() << "a worker process cannot have decoded a set only the parent holds";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("makes it again"), std::string::npos) << error.what();
  }
}

TEST(ProcessPipeline, TheHandOffAndThePinCopyAreSeparateCostsAndSharedPinnedHasNoPinCopy) {
  const auto run = [](PinMode pin, ShmMode shm) {
    PipelineConfig config = process_config(pin, shm);
    config.tile = 64;  // 48 KiB samples: copies long enough to measure
    config.batch_size = 8;
    HostStepEngine engine(config);
    Pipeline pipeline(config, engine);
    const EpochResult result = pipeline.run_epoch();
    EXPECT_EQ(result.end, EpochEnd::completed) << describe_result(result);
    return result;
  };
  const EpochResult pinned_by_copy = run(PinMode::pin_thread, ShmMode::fresh);
  EXPECT_GT(pinned_by_copy.pin_busy_s, 0);
  EXPECT_GT(pinned_by_copy.handoff_busy_s, 0);
  const EpochResult shared_pinned = run(PinMode::shared_pinned, ShmMode::reused);
  EXPECT_EQ(shared_pinned.pin_busy_s, 0) << "the workers collate into the pinned ring itself";
  EXPECT_GT(shared_pinned.handoff_busy_s, 0) << "a reply still crosses the socket";
}

TEST(ProcessPipeline, AKilledWorkerFailsTheEpochNamingItAndLeavesNoSegment) {
  const std::set<std::string> before = stale_segment_names();
  for (ShmMode shm : {ShmMode::fresh, ShmMode::reused}) {
    PipelineConfig config = process_config(PinMode::none, shm);
    config.watchdog = std::chrono::duration<double>(10);
    SCOPED_TRACE(describe(config));
    HostStepEngine engine(config);
    const Pipeline* running = nullptr;
    int killed = -1;
    PipelineHooks hooks;
    hooks.before_batch = [&](PipelineStage stage, std::uint64_t batch, const Cancellation&) {
      if (stage == PipelineStage::step && batch == 5 && killed < 0) {
        killed = running->worker_pid(1);
        kill(killed, SIGKILL);
      }
    };
    Pipeline pipeline(config, engine, hooks);
    running = &pipeline;
    const auto start = std::chrono::steady_clock::now();
    const EpochResult result = pipeline.run_epoch();
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(result.end, EpochEnd::failed) << describe_result(result);
    std::string message;
    try {
      std::rethrow_exception(result.error);
    } catch (const WorkerProcessDied& error) {
      message = error.what();
    } catch (const std::exception& error) {
      ADD_FAILURE() << "not a WorkerProcessDied: " << error.what();
    }
    EXPECT_NE(message.find("worker process 1 (pid " + std::to_string(killed) +
                           ") was killed by signal 9"),
              std::string::npos)
        << message;
    EXPECT_TRUE(message.find("while it held batch") != std::string::npos ||
                message.find("when asked for batch") != std::string::npos ||
                message.find("it held no batch") != std::string::npos)
        << "the batch it held, or why none: " << message;
    EXPECT_LT(elapsed, config.watchdog.count()) << "found before the watchdog would have fired";
    EXPECT_THROW(pipeline.run_epoch(), std::logic_error)
        << "the other worker's replies to the failed epoch are still on their way";
  }
  EXPECT_TRUE(new_stale_names(before).empty()) << "a segment outlived its loop";
}

// End to end: a worker process killed in the middle of a case fails that case naming the worker,
// the other cases still run, h2dbench exits 1 and /dev/shm holds what it held before.
TEST(ProcessPipeline, AWorkerKilledMidRunFailsItsCaseAndTheRunGoesOn) {
  const std::set<std::string> before = stale_segment_names();
  const std::string out = ::testing::TempDir() + "h2d_killed_worker.json";
  std::remove(out.c_str());
  int killed = 0;
  const testing::ChildResult result = testing::signal_a_child_of_h2dbench(
      {"run", "--preset", "quick", "--filter", "^host/pipeline/.*worker=process", "--out", out,
       "--benchmark_min_time=1"},
      "h2d_loader_worker", SIGKILL, &killed);
  ASSERT_NE(killed, 0) << "no worker process appeared: " << result.output;
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("(pid " + std::to_string(killed) + ") was killed by signal 9"),
            std::string::npos)
      << result.output;
  std::ifstream in(out);
  ASSERT_TRUE(in.good()) << result.output;
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_EQ(report.at("h2dbench").at("failed_cases").size(), 1u) << report.dump(2);
  std::size_t measured = 0;
  for (const auto& entry : report.at("benchmarks")) {
    measured += entry.value("error_occurred", false) ? 0 : 1;
  }
  EXPECT_EQ(measured, 2u) << "the other two cases ran: " << report.dump(2);
  EXPECT_TRUE(new_stale_names(before).empty()) << "a segment outlived the run";
}

// Ctrl-C in a terminal reaches the worker processes too: they ignore it, h2dbench ends the case as
// interrupted (exit 130), not as a worker that died, and nothing is left in /dev/shm.
TEST(ProcessPipeline, CtrlCToTheWholeProcessGroupInterruptsTheRun) {
  const std::set<std::string> before = stale_segment_names();
  // --out: a run without one writes its report into results/, which holds real machines' only.
  const std::string out = ::testing::TempDir() + "h2d_interrupted_group.json";
  const testing::ChildResult result = testing::interrupt_h2dbench_group(
      {"run", "--preset", "quick", "--filter", "^host/pipeline/.*worker=process", "--out", out,
       "--benchmark_min_time=20"},
      1500);
  EXPECT_EQ(result.exit_code, 130) << result.output;
  EXPECT_NE(result.output.find("h2dbench: interrupted:"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("was killed by signal"), std::string::npos) << result.output;
  EXPECT_TRUE(new_stale_names(before).empty()) << "a segment outlived the run";
  std::remove(out.c_str());
}

// `timeout`, `kill -TERM -PGID` and Slurm's time limit send SIGTERM to the whole process group:
// the workers outlive it, h2dbench ends the case as interrupted (exit 130), no case is marked
// failed, and nothing is left in /dev/shm.
TEST(ProcessPipeline, SigtermToTheWholeProcessGroupInterruptsTheRun) {
  const std::set<std::string> before = stale_segment_names();
  const std::string out = ::testing::TempDir() + "h2d_terminated_group.json";
  std::remove(out.c_str());
  bool workers_ran = false;
  const testing::ChildResult result = testing::signal_h2dbench_group_once_running(
      {"run", "--preset", "quick", "--filter", "^host/pipeline/.*worker=process", "--out", out,
       "--benchmark_min_time=20"},
      "h2d_loader_worker", SIGTERM, /*delay_ms=*/300, &workers_ran);
  ASSERT_TRUE(workers_ran) << result.output;
  EXPECT_EQ(result.exit_code, 130) << result.output;
  EXPECT_NE(result.output.find("h2dbench: interrupted:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("SIGTERM"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("was killed by signal"), std::string::npos) << result.output;
  std::ifstream in(out);
  ASSERT_TRUE(in.good()) << result.output;
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_TRUE(report.at("h2dbench").at("failed_cases").empty()) << report.dump(2);
  EXPECT_TRUE(new_stale_names(before).empty()) << "a segment outlived the run";
  std::remove(out.c_str());
}

// One message carries 250 descriptors: a larger ring reaches the workers in parts, each slot where
// the main process has it.
TEST(ProcessPipeline, ARingOfMoreSlotsThanOneMessageCarriesDeliversEveryBatchIntact) {
  for (PinMode pin : {PinMode::none, PinMode::shared_pinned}) {
    PipelineConfig config = process_config(pin, ShmMode::reused);
    config.slots = 263;  // 64 workers x prefetch 4's default ring
    config.batches = 300;
    SCOPED_TRACE(describe(config));
    expect_every_batch_intact(config);
  }
}

// What a 64-core machine runs: 64 worker processes, prefetch 4, the ring their default (263
// slots), every batch verified.
TEST(ProcessPipeline, SixtyFourWorkersWithPrefetchFourDeliverEveryBatchIntact) {
  PipelineConfig config = process_config(PinMode::none, ShmMode::reused);
  config.workers = 64;
  config.prefetch = 4;
  config.batches = 256;
  config.verify_every = 1;
  SCOPED_TRACE(describe(config));
  const EpochResult result = expect_every_batch_intact(config);
  EXPECT_EQ(result.verified, config.batches) << describe_result(result);
}

TEST(ProcessPipeline, OneWorkerWithPrefetchOneDeliversEveryBatchIntact) {
  for (const Mode& mode : kModes) {
    PipelineConfig config = process_config(mode.pin, mode.shm);
    config.packed_members = mode.packed;
    config.workers = 1;
    config.prefetch = 1;
    SCOPED_TRACE(describe(config));
    const EpochResult result = expect_every_batch_intact(config);
    EXPECT_EQ(result.verified, config.batches / config.verify_every) << describe_result(result);
  }
}

// Lays batches out as a machine of `bytes` pages does, here and in the worker processes.
class ScopedPageSize {
 public:
  explicit ScopedPageSize(std::size_t bytes) {
    setenv(kTestPageSizeVariable, std::to_string(bytes).c_str(), 1);
  }
  ScopedPageSize(const ScopedPageSize&) = delete;
  ScopedPageSize& operator=(const ScopedPageSize&) = delete;
  ~ScopedPageSize() { unsetenv(kTestPageSizeVariable); }
};

// aarch64 kernels often run 64 KiB pages: the ids member must start on such a page to be mapped
// beside the images, whose bytes (4 x 3 x 24 x 24 floats, 27 KiB) are no multiple of it.
TEST(ProcessPipeline, SplitMembersMapOnMachinesWithLargerPages) {
  const ScopedPageSize pages(64 * 1024);
  for (const Mode& mode : kModes) {
    PipelineConfig config = process_config(mode.pin, mode.shm);
    config.packed_members = mode.packed;
    config.tile = 24;
    SCOPED_TRACE(describe(config));
    EXPECT_EQ(SlotLayout(config).ids_offset() % (64 * 1024), 0u);
    expect_every_batch_intact(config);
  }
}

TEST(ProcessPipeline, APageSizeThatIsNoMultipleOfTheMachinesIsRefusedNamingTheVariable) {
  const ScopedPageSize pages(1000);
  try {
    memory_page_size();
    FAIL() << "a 1000-byte page was taken";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(kTestPageSizeVariable), std::string::npos);
  }
}

// A worker that stops reading (SIGSTOP) while the receiver keeps asking: its socket fills with
// requests, and the send that finds it full must still end when the watchdog fires.
TEST(ProcessPipeline, AStoppedWorkerWithAFullSocketEndsTheEpochThroughTheWatchdog) {
  PipelineConfig config = process_config(PinMode::none, ShmMode::fresh);
  // The stopped worker is sent up to workers x prefetch requests, more than its socket holds
  // (about 300 small messages): the receiver's send finds it full.
  config.workers = 2;
  config.prefetch = 400;
  config.batches = 1'000'000;
  config.watchdog = std::chrono::duration<double>(2);
  HostStepEngine engine(config);
  const Pipeline* running = nullptr;
  int stopped = 0;
  PipelineHooks hooks;
  hooks.before_batch = [&](PipelineStage stage, std::uint64_t batch, const Cancellation&) {
    if (stage == PipelineStage::step && batch == 0 && stopped == 0) {
      stopped = running->worker_pid(1);
      kill(stopped, SIGSTOP);
    }
  };
  Pipeline pipeline(config, engine, hooks);
  running = &pipeline;
  auto epoch = std::async(std::launch::async, [&] { return pipeline.run_epoch(); });
  if (epoch.wait_for(std::chrono::seconds(90)) != std::future_status::ready) {
    ADD_FAILURE() << "the epoch hung past its watchdog: the receiver is stuck in a send";
    kill(stopped, SIGKILL);  // its socket closes, the send fails, the epoch ends
  }
  const EpochResult result = epoch.get();
  EXPECT_EQ(result.end, EpochEnd::stalled) << describe_result(result);
  EXPECT_NE(result.message.find("worker process 1, whose socket is full"), std::string::npos)
      << "the stall names the worker that reads no requests: " << result.message;
  EXPECT_NE(result.message.find("stuck stage: 'receiver'"), std::string::npos) << result.message;
}

// Sets the fault the worker processes started while it lives commit (they read it at start).
class ScopedLoaderFault {
 public:
  explicit ScopedLoaderFault(const char* fault) { setenv(kLoaderFaultVariable, fault, 1); }
  ScopedLoaderFault(const ScopedLoaderFault&) = delete;
  ScopedLoaderFault& operator=(const ScopedLoaderFault&) = delete;
  ~ScopedLoaderFault() { unsetenv(kLoaderFaultVariable); }
};

// Runs one epoch of `config` with workers committing `fault` and returns why it failed ("" when
// it did not).
std::string failure_with_fault(const PipelineConfig& config, const char* fault) {
  const ScopedLoaderFault committing(fault);
  HostStepEngine engine(config);
  Pipeline pipeline(config, engine);
  const EpochResult result = pipeline.run_epoch();
  if (result.end != EpochEnd::failed) {
    ADD_FAILURE() << "the epoch did not fail: " << describe_result(result);
    return "";
  }
  try {
    std::rethrow_exception(result.error);
  } catch (const std::exception& error) {
    return error.what();
  }
}

TEST(ProcessPipeline, AReplyNamingARingSlotOutOfRangeFailsTheEpochNamingTheWorker) {
  const PipelineConfig config = process_config(PinMode::none, ShmMode::reused);
  const std::string message = failure_with_fault(config, "slot_out_of_range");
  EXPECT_NE(message.find("worker process "), std::string::npos) << message;
  EXPECT_NE(message.find("in ring slot"), std::string::npos) << message;
  EXPECT_NE(message.find("a ring of"), std::string::npos) << message;
}

TEST(ProcessPipeline, ATruncatedSegmentFailsTheEpochNamingTheWorkerInsteadOfABusError) {
  for (bool packed : {false, true}) {
    PipelineConfig config = process_config(PinMode::pin_thread, ShmMode::fresh);
    config.packed_members = packed;
    config.tile = 64;  // several pages per batch: half a segment is short of whole pages
    const std::string message = failure_with_fault(config, "short_segment");
    EXPECT_NE(message.find("worker process "), std::string::npos) << message;
    EXPECT_NE(message.find("where the batch needs"), std::string::npos) << message;
  }
}

// /dev/shm filling after the start-up check (a worker's segment does not fit mid-run) skips the
// case as the start-up check does, with the same sizes.
TEST(ProcessPipeline, SharedMemoryFillingMidRunSkipsTheCaseWithBothSizes) {
  const PipelineConfig config = process_config(PinMode::none, ShmMode::fresh);
  const ScopedLoaderFault committing("shared_memory_full");
  HostStepEngine engine(config);
  Pipeline pipeline(config, engine);
  const EpochResult result = pipeline.run_epoch();
  ASSERT_EQ(result.end, EpochEnd::failed) << describe_result(result);
  try {
    std::rethrow_exception(result.error);
  } catch (const SharedMemoryFull& error) {  // a CaseSkipped: the case is skipped, the run goes on
    const std::string message = error.what();
    EXPECT_NE(message.find("worker=process shm=fresh ("), std::string::npos) << message;
    EXPECT_NE(message.find("of /dev/shm and it has"), std::string::npos) << message;
  } catch (const std::exception& error) {
    ADD_FAILURE() << "not the skip of a full /dev/shm: " << error.what();
  }
}

// A sample of several members crosses as PyTorch hands a batch over, a segment a member and one
// for the ids (or packed into one), each mapped at its member's place: a member that varies is
// padded, and every pin and shm mode delivers every batch intact.
TEST(ProcessPipeline, EveryPinAndShmModeDeliversTheMembersOfAVaryingSampleIntact) {
  const std::set<std::string> before = stale_segment_names();
  for (const Mode& mode : kModes) {
    PipelineConfig config = process_config(mode.pin, mode.shm);
    config.packed_members = mode.packed;
    config.sample = parse_sample("image:3x8x8:uint8,boxes:0..5x4:float32,labels:0..5:int64");
    SCOPED_TRACE(describe(config));
    const EpochResult result = expect_every_batch_intact(config);
    EXPECT_EQ(result.verified, config.batches);
  }
  EXPECT_TRUE(new_stale_names(before).empty()) << "a segment outlived its loop";
}

// Two members of the same size handed over in each other's place map without complaint: only the
// checksums show the batch is not what the worker made.
TEST(ProcessPipeline, MembersMappedInEachOthersPlaceFailTheirChecksums) {
  PipelineConfig config = process_config(PinMode::none, ShmMode::fresh);
  config.sample = parse_sample("first:64:int64,second:64:int64");
  const ScopedLoaderFault committing("swapped_segments");
  HostStepEngine engine(config);
  Pipeline pipeline(config, engine);
  const EpochResult result = pipeline.run_epoch();
  EXPECT_GT(result.checksum_failures, 0u) << describe_result(result);
}

TEST(ProcessPipeline, AnUnknownLoaderFaultIsRefusedNamingTheValidOnes) {
  EXPECT_EQ(parse_loader_fault(nullptr), LoaderFault::none);
  try {
    parse_loader_fault("sometimes");
    FAIL() << "an unknown fault was taken";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("slot_out_of_range"), std::string::npos);
  }
}

TEST(ProcessPipeline, ThePipelineVerdictNamesTheHandOffWhenItBinds) {
  StageUtilization load;
  load.worker_processes = true;
  load.fresh_segments = true;
  load.workers = 0.3;
  load.handoff = 0.6;
  load.pin = 0.3;
  load.bus = 0.2;
  load.step = 0.1;
  const PipelineVerdict pinned = judge_pipeline(load);
  EXPECT_EQ(pinned.bound_by, BoundBy::handoff) << pinned.reason;
  EXPECT_NE(pinned.reason.find("pin=shared_pinned"), std::string::npos) << pinned.reason;
  load.pin = 0;
  const PipelineVerdict fresh = judge_pipeline(load);
  EXPECT_EQ(fresh.bound_by, BoundBy::handoff) << fresh.reason;
  EXPECT_NE(fresh.reason.find("shm=reused"), std::string::npos) << fresh.reason;
  load.handoff = 0.1;
  EXPECT_EQ(judge_pipeline(load).bound_by, BoundBy::cpu_workers);
}

TEST(ProcessPipeline, TooLittleSharedMemorySkipsTheCaseWithBothSizes) {
  try {
    require_shared_memory(std::numeric_limits<std::size_t>::max() / 2, "a test's ring");
    FAIL() << "no machine has that much /dev/shm";
  } catch (const CaseSkipped& error) {  // SharedMemoryFull: the case is skipped, the run goes on
    const std::string message = error.what();
    EXPECT_NE(message.find("a test's ring needs"), std::string::npos) << message;
    EXPECT_NE(message.find("of /dev/shm and it has"), std::string::npos) << message;
  }
}

TEST(ProcessPipeline, TheWorkerProgramNeverLinksTheCudaRuntime) {
  // h2dbench calls cudaMemcpyAsync (the real runtime or the simulator's): the same search in the
  // worker's program must come up empty, so no child can create a CUDA context.
  EXPECT_TRUE(testing::file_contains(testing::h2dbench_path(), "cudaMemcpyAsync"));
  EXPECT_FALSE(testing::file_contains(loader_worker_program(), "cudaMemcpyAsync"));
  EXPECT_FALSE(testing::file_contains(loader_worker_program(), "cudaSetDevice"));
}

}  // namespace
}  // namespace h2d
