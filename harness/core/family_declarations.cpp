// The declaration of every family: its axes with their roles, the naive baseline, what a value
// asks of the memory and the copies, where a plot puts each axis, and the number that decides.
// The families build their case names from these (CaseName refuses an undeclared key); the
// readers read them from each report's `axes` (new reports) or from here (older reports); the
// plots read plots/declared_families.json, which `h2dbench list --declarations` writes from here
// (a test keeps the two equal).

#include <algorithm>
#include <stdexcept>
#include <string>

#include "harness/core/counter_catalog.hpp"
#include "harness/core/family_axes.hpp"

namespace h2d {
namespace {

AxisDeclaration workload(std::string key, PlotPlace plot = PlotPlace::group) {
  AxisDeclaration axis;
  axis.key = std::move(key);
  axis.plot = plot;
  return axis;
}

AxisDeclaration strategy(std::string key, std::string baseline = "",
                         PlotPlace plot = PlotPlace::group) {
  AxisDeclaration axis;
  axis.key = std::move(key);
  axis.role = AxisRole::strategy;
  axis.baseline = std::move(baseline);
  axis.plot = plot;
  return axis;
}

AxisDeclaration asking_pinned(AxisDeclaration axis, std::vector<std::string> values) {
  axis.asks_pinned = std::move(values);
  return axis;
}

AxisDeclaration framework_default(AxisDeclaration axis, std::string value) {
  axis.framework_default = std::move(value);
  return axis;
}

AxisDeclaration asking_async(AxisDeclaration axis, std::vector<std::string> values) {
  axis.asks_async = std::move(values);
  return axis;
}

// A family's metric is one of the declared counters (counter_catalog): its unit and direction
// come from there, declared once.
MetricDeclaration metric(const std::string& counter) {
  const CounterDeclaration* declared = find_declared_counter(counter);
  if (declared == nullptr || !declared->better) {
    throw std::logic_error("a family's metric must be a declared counter with a direction: " +
                           counter);
  }
  return {counter, declared->unit, *declared->better};
}

// A family that runs on each selected GPU: with several, its names carry gpu=N first.
FamilyAxes on_each_gpu(FamilyAxes family) {
  family.axes.insert(family.axes.begin(), workload("gpu"));
  return family;
}

// The loader loops (pipeline/train, pipeline/predict, host/pipeline): one set of axes.
std::vector<AxisDeclaration> loop_axes() {
  return {workload("sample"),
          strategy("workers"),
          strategy("worker", "thread"),
          strategy("shm", "fresh"),
          strategy("members", "separate"),
          strategy("prefetch"),
          framework_default(asking_pinned(strategy("pin", "none"),
                                          {"pin_thread", "pinned_ring", "shared_pinned"}),
                            "pin_thread"),
          strategy("pin_threads", "1"),
          asking_async(strategy("copy", "sync"), {"async"}),
          strategy("memcpy", "slot"),
          workload("batch"),
          workload("compute_us"),
          workload("sample_us"),
          strategy("decode", "cpu")};
}

std::vector<FamilyAxes> make_declarations() {
  std::vector<AxisDeclaration> host_loop = loop_axes();
  host_loop.insert(host_loop.begin(), workload("loop", PlotPlace::panel));
  std::vector<FamilyAxes> all{
      on_each_gpu(
          {"h2d/batch",
           "image/mask/ids batches to the GPU: the copy rate of the batch's payload",
           metric("GB_per_s"),
           {workload("sample"), workload("task", PlotPlace::panel), workload("layout"),
            strategy("collate"),
            framework_default(asking_pinned(strategy("pin", "none", PlotPlace::series),
                                            {"requested", "per_member", "packed", "pinned_slots"}),
                              "requested"),
            strategy("copy", "each"), strategy("order", "stream"), workload("batch")},
           /*link_bound=*/true}),
      on_each_gpu(
          {"h2d/decode",
           "JPEG tiles decoded and normalized into a device batch, samples a second",
           metric("samples_per_s"),
           {workload("tiles", PlotPlace::panel), strategy("decode", "cpu", PlotPlace::series),
            strategy("normalize", "cpu", PlotPlace::series), workload("batch")},
           true}),
      on_each_gpu(
          {"h2d/memory",
           "one buffer copied between host and GPU: the copy rate",
           metric("GB_per_s"),
           {workload("dir"),
            asking_pinned(strategy("kind", "pageable"), {"pinned", "write_combined", "registered"}),
            asking_async(strategy("mode", "sync"), {"async"}), strategy("engine", "ce"),
            strategy("pages", "base"), workload("bytes")},
           true}),
      on_each_gpu({"h2d/pin_cost",
                   "the time to page-lock a buffer: a cost paid before any copy",
                   metric("pin_us"),
                   {strategy("op", "malloc_host"), strategy("threads"), workload("bytes")},
                   false}),
      on_each_gpu({"h2d/preprocess",
                   "a batch normalized on the CPU or the GPU and copied: samples a second",
                   metric("samples_per_s"),
                   {workload("sample"), strategy("where", "cpu"),
                    asking_pinned(strategy("mem", "pageable"), {"pinned"}), workload("batch")},
                   true}),
      on_each_gpu({"h2d/staging",
                   "a pageable buffer to the GPU through a strategy: the copy rate",
                   metric("GB_per_s"),
                   {strategy("strategy", "driver"), strategy("chunk"), strategy("depth"),
                    strategy("threads"), workload("bytes", PlotPlace::panel)},
                   true}),
      on_each_gpu(
          {"h2d/streams",
           "chunked copies (and kernels) over several streams: the copy rate",
           metric("GB_per_s"),
           {workload("work"), strategy("streams", "1", PlotPlace::series), workload("bytes")},
           true}),
      on_each_gpu({"h2d/zero_copy",
                   "a kernel reading mapped host memory against a copy: the rate",
                   metric("GB_per_s"),
                   {strategy("path", "copy"), workload("bytes")},
                   true}),
      {"host/collate",
       "samples collated into a batch's host buffers: the rate of the payload",
       metric("GB_per_s"),
       {workload("sample"), workload("layout"), strategy("collate"), strategy("into", "layout"),
        workload("batch")}},
      {"host/decode",
       "JPEG tiles decoded by libjpeg-turbo on the CPU",
       metric("tiles_per_s"),
       {workload("tiles"), strategy("speed", "accurate"), workload("out"),
        strategy("threads", "1")}},
      {"host/first_touch",
       "a copy into a fresh or a reused buffer: page faults against none",
       metric("GB_per_s"),
       {strategy("dest", "fresh"), workload("bytes")}},
      {"host/memcpy",
       "host-to-host copy on one or more threads",
       metric("GB_per_s"),
       {strategy("threads", "1"), workload("bytes")}},
      {"host/normalize",
       "uint8 images to normalized float32 on the CPU",
       metric("samples_per_s"),
       {strategy("threads", "1"), workload("batch")}},
      {"host/pipeline", "the loader loop without a GPU: samples a second", metric("samples_per_s"),
       host_loop},
      {"host/staging",
       "the staging ring's host side: pageable chunks copied into pinned slots",
       metric("GB_per_s"),
       {strategy("strategy"), strategy("chunk"), strategy("depth"), strategy("threads", "1"),
        workload("bytes")}},
      {"multi/h2d_concurrent",
       "copies to several GPUs at once: the summed rate",
       metric("GB_per_s"),
       {workload("gpus"), workload("set"), workload("dir"), workload("bytes")},
       true},
      {"multi/numa",
       "copies from memory on each NUMA node: the copy rate",
       metric("GB_per_s"),
       {workload("gpu"), workload("dir"), strategy("node"), strategy("placement"),
        workload("bytes")},
       true},
      {"multi/scatter",
       "a batch scattered over several GPUs, direct or through GPU 0",
       metric("GB_per_s"),
       {workload("gpus"), strategy("route"), workload("batch")},
       true},
      on_each_gpu({"pipeline/predict",
                   "the loader loop feeding a GPU step, outputs copied back: samples a second",
                   metric("samples_per_s"), loop_axes()}),
      on_each_gpu({"pipeline/train", "the loader loop feeding a GPU step: samples a second",
                   metric("samples_per_s"), loop_axes()}),
  };
  std::sort(all.begin(), all.end(),
            [](const FamilyAxes& a, const FamilyAxes& b) { return a.family < b.family; });
  return all;
}

}  // namespace

const std::vector<FamilyAxes>& declared_families() {
  static const std::vector<FamilyAxes> all = make_declarations();
  return all;
}

}  // namespace h2d
