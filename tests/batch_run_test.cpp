// The batch families end to end through the h2dbench executable: the host families here, the GPU
// families where a GPU is usable. Each reads the report back and checks what it must show.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include "harness/batch/batch.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/cuda/batched_copy.hpp"
#include "harness/cuda/device.hpp"
#include "harness/report/report_file.hpp"
#include "harness/report/summary.hpp"
#include "tests/gpu_test_support.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

using Runs = std::map<std::string, nlohmann::json>;

// Runs `h2dbench run --preset PRESET --filter FILTER EXTRA` and returns the report.
Report run_report(const std::string& filter, const std::string& tag, const std::string& extra,
                  const std::string& preset = "quick") {
  const std::string out = ::testing::TempDir() + "h2d_batch_" + tag + ".json";
  const std::string command = h2d::testing::h2dbench() + " run --preset " + preset + " --filter '" +
                              filter + "' --out " + out + " " + extra + " > " + out + ".log 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command << " (output in " << out << ".log)";
  return read_report(out);
}

// The measurements of a quick run by case name; none may have failed. `verdict` gets the run's
// verdict, read back from its report.
Runs run_quick(const std::string& filter, const std::string& tag, RunSummary* verdict = nullptr,
               const std::string& extra = "", Report* kept = nullptr) {
  const Report report = run_report(filter, tag, extra);
  if (kept != nullptr) {
    *kept = report;
  }
  if (verdict != nullptr) {
    *verdict = summarize_report(report.document);
  }
  EXPECT_TRUE(report.document["h2dbench"]["failed_cases"].empty())
      << report.document["h2dbench"]["failed_cases"].dump();
  Runs runs;
  for (const auto& run : report.document["benchmarks"]) {
    EXPECT_FALSE(run.value("error_occurred", false)) << run.dump();
    runs[run["name"].get<std::string>()] = run;
  }
  return runs;
}

double counter(const Runs& runs, const std::string& name, const std::string& key) {
  const auto found = runs.find(name);
  if (found == runs.end()) {
    ADD_FAILURE() << "no case " << name;
    return -1;
  }
  if (!found->second.contains(key)) {
    ADD_FAILURE() << name << " has no counter " << key;
    return -1;
  }
  return found->second[key].get<double>();
}

std::string family_text(const RunSummary& verdict, const std::string& family) {
  for (const FamilySummary& f : verdict.families) {
    if (f.family == family) {
      std::string text;
      for (const auto& line : f.findings) {
        text += line + "\n";
      }
      for (const auto& line : f.warnings) {
        text += "warning: " + line + "\n";
      }
      return text;
    }
  }
  return "(no " + family + " in the verdict)";
}

TEST(BatchRun, HostFamiliesMeasureEveryCase) {
  RunSummary verdict;
  const Runs runs = run_quick("^host/(collate|normalize)/", "host", &verdict);
  // Every entry says which of its keys are the workload and which the strategy, and the verdict
  // ranks the strategies within a workload against the declared baseline.
  for (const auto& [name, run] : runs) {
    ASSERT_TRUE(run.contains("axes")) << name;
    const char* strategy_key = name.rfind("host/collate", 0) == 0 ? "into" : "threads";
    EXPECT_TRUE(run["axes"]["strategy"].contains(strategy_key)) << run.dump();
    // How well the median is known, and from how many measurements: one body call (Google
    // Benchmark's one iteration) that measured until its stopping rule said so.
    EXPECT_GE(run.value("rel_ci_pct", -1.0), 0.0) << run.dump();
    EXPECT_GE(run.value("measurements", 0.0), 3.0) << run.dump();
    EXPECT_EQ(run.value("iterations", -1.0), 1.0) << run.dump();
    EXPECT_GE(run.value("stopped_by", 0.0), 1.0) << run.dump();
  }
  const std::string collate = family_text(verdict, "host/collate");
  EXPECT_NE(collate.find("layout=tuple batch=16: "), std::string::npos) << collate;
  EXPECT_NE(collate.find("into=layout"), std::string::npos) << collate;
  EXPECT_EQ(collate.find("best layout="), std::string::npos)
      << collate;  // a workload, not a choice
  const std::size_t sizes = batch_sizes(Preset::quick).size();
  const std::size_t thread_counts = host_thread_counts(Preset::quick, usable_cores()).size();
  EXPECT_EQ(runs.size(), 3 * 3 * sizes + thread_counts * sizes);
  for (const auto& [name, run] : runs) {
    EXPECT_GT(counter(runs, name, "batch_ms"), 0) << name;
    EXPECT_GT(counter(runs, name, "samples_per_s"), 0) << name;
  }
  EXPECT_EQ(counter(runs, "host/collate/layout=list/into=layout/batch=16", "copies_per_batch"), 48);
  EXPECT_EQ(counter(runs, "host/collate/layout=list/into=packed/batch=16", "copies_per_batch"), 1);
  EXPECT_GT(counter(runs, "host/collate/layout=tuple/into=packed/batch=16", "host_copy_bytes"), 0);
  EXPECT_LT(counter(runs, "host/normalize/threads=1/batch=16", "max_abs_error"), 1e-5);
}

// The detection sample through the host collate: a varying member collated padded and as a
// tensor a sample, every member of every sample verified where it was staged, the sample in the
// names, the report and the verdict.
TEST(BatchRun, TheDetectionSampleRunsThroughTheHostCollate) {
  RunSummary verdict;
  Report report;
  const Runs runs =
      run_quick("^host/collate/.*batch=16", "detection", &verdict, "--sample detection", &report);
  const std::string prefix = "host/collate/sample=detection/layout=";
  ASSERT_FALSE(runs.empty());
  for (const auto& [name, run] : runs) {
    EXPECT_EQ(name.rfind(prefix, 0), 0u) << name;
  }
  EXPECT_EQ(runs.size(), 3u * 2 * 3) << "single, tuple, list; pad and list; into 3 targets";
  // A list of tensors, one a member a sample: every member of every sample that has bytes.
  const double listed =
      counter(runs, prefix + "list/collate=list/into=layout/batch=16", "copies_per_batch");
  EXPECT_GE(listed, 16 * 3) << "image, orig_size and size always cross";
  EXPECT_LE(listed, 16 * 7);
  EXPECT_EQ(counter(runs, prefix + "list/collate=list/into=packed/batch=16", "copies_per_batch"),
            1);
  EXPECT_EQ(counter(runs, prefix + "tuple/collate=pad/into=layout/batch=16", "copies_per_batch"),
            7);
  const auto& sample = report.document["h2dbench"]["sample"];
  EXPECT_EQ(sample["name"], "detection");
  EXPECT_EQ(sample["members"].size(), 7u);
  const std::string collate = family_text(verdict, "host/collate");
  EXPECT_NE(collate.find("sample=detection layout=list batch=16: "), std::string::npos) << collate;
  bool named = false;
  for (const std::string& note : verdict.notes) {
    named = named || note.find("moved the sample detection") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

// The loader loop takes the sample too: worker processes hand a batch over as PyTorch's do, a
// shared-memory segment a member (7) and one for the loop's ids, or packed into one; every
// verified batch came back as the workers made it.
TEST(BatchRun, TheLoaderLoopHandsTheDetectionSampleOverASegmentAMember) {
  RunSummary verdict;
  const Runs runs = run_quick("^host/pipeline/loop=train/.*shm=fresh", "detection_loop", &verdict,
                              "--sample detection");
  ASSERT_EQ(runs.size(), 3u) << "pin=none, pin_thread, and pin_thread with members=packed";
  const std::string prefix =
      "host/pipeline/loop=train/sample=detection/workers=2/worker=process/shm=fresh/";
  const std::string rest = "/batch=16/compute_us=300/sample_us=50";
  EXPECT_EQ(counter(runs, prefix + "prefetch=2/pin=none/copy=sync" + rest, "segments_per_batch"),
            8);
  EXPECT_EQ(counter(runs, prefix + "members=packed/prefetch=2/pin=pin_thread/copy=async" + rest,
                    "segments_per_batch"),
            1);
  for (const auto& [name, run] : runs) {
    EXPECT_GT(counter(runs, name, "verified_batches"), 0) << name;
    EXPECT_GT(counter(runs, name, "sample_max_bytes"), 3.7e6) << name;
  }
  const std::string loop = family_text(verdict, "host/pipeline");
  EXPECT_NE(loop.find("loop=train sample=detection batch=16"), std::string::npos) << loop;
}

// h2d/preprocess takes the sample's image member, and says so where the sample has none.
TEST(BatchRun, PreprocessTakesTheSamplesImageOrSaysItHasNone) {
  const h2d::testing::ProcessResult imagenet = h2d::testing::run_process(
      h2d::testing::h2dbench() + " list --all --preset quick --sample imagenet");
  EXPECT_EQ(imagenet.exit_code, 0) << imagenet.output;
  EXPECT_NE(imagenet.output.find("h2d/preprocess/sample=imagenet/where=gpu/mem=pinned/batch=16"),
            std::string::npos)
      << imagenet.output;
  const h2d::testing::ProcessResult tokens = h2d::testing::run_process(
      h2d::testing::h2dbench() + " list --all --preset quick --sample tokens");
  EXPECT_EQ(tokens.exit_code, 0) << tokens.output;
  EXPECT_NE(tokens.output.find("h2d/preprocess (the sample tokens has no image member"),
            std::string::npos)
      << tokens.output;
  EXPECT_EQ(tokens.output.find("h2d/preprocess/"), std::string::npos) << tokens.output;
}

// A bad --sample is one line and exit 2, before anything is measured.
TEST(BatchRun, ABadSampleIsOneLineAndExitTwo) {
  for (const char* spec :
       {"image:3x0:uint8", "image:3:complex64", "a:1:int8,a:2:int8", "@/nonexistent/sample.json"}) {
    const h2d::testing::ProcessResult result = h2d::testing::run_process(
        h2d::testing::h2dbench() + " list --sample " + h2d::testing::shell_quote(spec));
    EXPECT_EQ(result.exit_code, 2) << spec;
    const std::string& text = result.output;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
    EXPECT_NE(text.find("--sample"), std::string::npos) << text;
  }
}

TEST(BatchRunGpu, FamiliesShowTheSilentNoPinAndVerify) {
  H2D_REQUIRE_GPU();
  RunSummary verdict;
  const Runs runs = run_quick("^h2d/(batch|preprocess)/", "gpu", &verdict);
  const std::string train = "h2d/batch/task=train/layout=";
  // The warning the project exists for, read from the fresh report's own axes.
  const std::string batch = family_text(verdict, "h2d/batch");
  EXPECT_NE(batch.find("warning: pin=requested asked for page-locked memory but was 0% pinned in"),
            std::string::npos)
      << batch;
  // Only the custom batch class: PyTorch pins tuples and lists member by member.
  EXPECT_NE(batch.find("(layout=custom)"), std::string::npos) << batch;
  EXPECT_EQ(counter(runs, train + "custom/pin=requested/batch=16", "pinned_fraction"), 0);
  EXPECT_EQ(counter(runs, train + "tuple/pin=requested/batch=16", "pinned_fraction"), 1);
  EXPECT_EQ(counter(runs, train + "list/pin=requested/batch=16", "pinned_fraction"), 1);
  EXPECT_EQ(counter(runs, train + "single/pin=requested/batch=16", "pinned_fraction"), 1);
  EXPECT_EQ(counter(runs, train + "tuple/pin=packed/batch=16", "pinned_fraction"), 1);
  EXPECT_EQ(counter(runs, train + "tuple/pin=requested/batch=16", "copies_per_batch"), 3);
  EXPECT_GE(counter(runs, train + "tuple/pin=requested/batch=16", "GB_per_s_rel_ci_pct"), 0)
      << "the copy rate's own interval";
  EXPECT_GT(counter(runs, train + "tuple/pin=requested/batch=16", "host_prep_ms"), 0)
      << "each member's pinned copy is host work before the copies";
  EXPECT_EQ(counter(runs, train + "tuple/pin=packed/batch=16", "copies_per_batch"), 1);
  EXPECT_GT(
      counter(runs, "h2d/batch/task=predict/layout=tuple/pin=requested/batch=16", "d2h_GB_per_s"),
      0);
  for (const char* where : {"cpu", "gpu"}) {
    const std::string name = std::string("h2d/preprocess/where=") + where + "/mem=pinned/batch=16";
    EXPECT_LE(counter(runs, name, "max_abs_error"), counter(runs, name, "error_bound"));
  }
  EXPECT_EQ(counter(runs, "h2d/preprocess/where=gpu/mem=pinned/batch=16", "bus_bytes") * 4,
            counter(runs, "h2d/preprocess/where=cpu/mem=pinned/batch=16", "bus_bytes"));
}

// The detection sample on the GPU families: every member of every sample verified on the device,
// per-member copies counted member by member, a packed batch one copy.
TEST(BatchRunGpu, TheDetectionSampleArrivesVerified) {
  H2D_REQUIRE_GPU();
  RunSummary verdict;
  const Runs runs = run_quick(
      "^h2d/batch/sample=detection/task=train/layout=(tuple|list)/.*pin=(requested|packed)/"
      "batch=16",
      "gpu_detection", &verdict, "--sample detection");
  EXPECT_EQ(runs.size(), 2u * 2 * 2) << "tuple and list, pad and list, requested and packed";
  const std::string prefix = "h2d/batch/sample=detection/task=train/layout=";
  EXPECT_GE(counter(runs, prefix + "list/collate=list/pin=requested/batch=16", "copies_per_batch"),
            16 * 3);
  EXPECT_EQ(counter(runs, prefix + "list/collate=list/pin=packed/batch=16", "copies_per_batch"), 1);
  EXPECT_EQ(counter(runs, prefix + "tuple/collate=pad/pin=requested/batch=16", "copies_per_batch"),
            7);
  const std::string batch = family_text(verdict, "h2d/batch");
  EXPECT_NE(batch.find("sample=detection task=train layout=list batch=16: "), std::string::npos)
      << batch;
}

// imagenet's 3x224x224 image normalized on either side, checked against the reference.
// copy=batched: a batch's copies in one cudaMemcpyBatchAsync call, and every member of every
// sample verified where it landed; the detection sample as pin_memory=True pins a list of it, in
// both collates (quick's batched case).
TEST(BatchRunGpu, ABatchedCopyIsOneCallAndEveryMemberArrives) {
  H2D_REQUIRE_GPU();
  if (!batched_copy_built()) {
    GTEST_SKIP() << batched_copy_missing();
  }
  const Runs runs = run_quick("/copy=batched/", "gpu_batched", nullptr, "--sample detection");
  ASSERT_EQ(runs.size(), 2u) << "layout=list pin=requested batch=16, collate pad and list";
  for (const auto& [name, run] : runs) {
    EXPECT_EQ(counter(runs, name, "calls_per_batch"), 1) << name;
    EXPECT_GE(counter(runs, name, "copies_per_batch"), 7) << name;
    EXPECT_EQ(counter(runs, name, "pinned_fraction"), 1) << name;
  }
}

// copy=kernel: one launch pulls every member of every sample out of mapped pinned memory; what
// landed is verified member by member (default's cases at batch 4).
TEST(BatchRunGpu, AGatherKernelIsOneCallAndEveryMemberArrives) {
  H2D_REQUIRE_GPU();
  const Report report = run_report("/copy=kernel/batch=4$", "gpu_kernel", "", "default");
  EXPECT_TRUE(report.document["h2dbench"]["failed_cases"].empty())
      << report.document["h2dbench"]["failed_cases"].dump();
  std::size_t cases = 0;
  for (const auto& run : report.document["benchmarks"]) {
    ++cases;
    EXPECT_EQ(run["calls_per_batch"].get<double>(), 1) << run["name"];
    EXPECT_GT(run["copies_per_batch"].get<double>(), 1) << run["name"];
  }
  EXPECT_EQ(cases, 2u) << "tuple and list, as pin_memory=True pins them";
}

TEST(BatchRunGpu, PreprocessNormalizesTheSamplesImage) {
  H2D_REQUIRE_GPU();
  const Runs runs =
      run_quick("^h2d/preprocess/.*batch=1$", "gpu_imagenet", nullptr, "--sample imagenet");
  ASSERT_EQ(runs.size(), 2u);
  for (const char* where : {"cpu", "gpu"}) {
    const std::string name =
        std::string("h2d/preprocess/sample=imagenet/where=") + where + "/mem=pinned/batch=1";
    EXPECT_LE(counter(runs, name, "max_abs_error"), counter(runs, name, "error_bound")) << name;
  }
  EXPECT_EQ(
      counter(runs, "h2d/preprocess/sample=imagenet/where=gpu/mem=pinned/batch=1", "bus_bytes"),
      3 * 224 * 224);
}

TEST(BatchRunGpu, CasesOverThePinnedCapAreSkippedWithTheReason) {
  H2D_REQUIRE_GPU();
  const std::string name = "h2d/batch/task=train/layout=tuple/pin=packed/batch=16";
  const Report report = run_report("^" + name + "$", "cap", "--pinned-limit 8MiB");
  const auto& skipped = report.document["h2dbench"]["skipped_cases"];
  ASSERT_EQ(skipped.size(), 1u) << skipped.dump();
  EXPECT_EQ(skipped[0]["name"], name);
  EXPECT_NE(skipped[0]["reason"].get<std::string>().find("pinned-memory cap"), std::string::npos);
  EXPECT_TRUE(report.document["h2dbench"]["failed_cases"].empty());
}

}  // namespace
}  // namespace h2d
