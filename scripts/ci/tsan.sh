#!/usr/bin/env bash
# ThreadSanitizer over the data-loader pipeline's orchestration: bounded queues, slot pool and its
# fences, stage board, watchdog, the host stand-in streams, whole host pipelines (shutdown while
# blocked, stuck stages the watchdog must name, Ctrl-C), the soak/run commands end to end, the
# staging rings (host side, and reshaped on the sim), and the GPU pipeline on the simulated
# GPU, whose stream workers are threads: a loader thread that refills a slot a copy still reads,
# or a host read before its synchronize, is a race TSan sees.
# Builds only h2d_tsan_tests (these suites' files) and h2dbench (which the command tests run) in
# the `tsan` preset (sim, with Clang, like the asan preset: scripts/common.sh).
# Fails on any test failure and on any ThreadSanitizer report, in the tests or in a child
# h2dbench they start.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_find_nvcc
h2d_need_clang_sanitizer thread

cmake --preset tsan >/dev/null
cmake --build --preset tsan --target h2d_tsan_tests h2dbench

# halt_on_error: the first report fails the process (exit code 66), children included.
# tsan.supp holds the (documented) races in third-party code that are not ours to fix.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 history_size=4 suppressions=$h2d_root/scripts/ci/tsan.supp"
filter='BoundedQueue.*:SlotPool.*:StageBoard.*:Watchdog.*:HostStream.*:HostEvent.*'
filter+=':HostPipeline.*:HostPipelineWatchdog.*:SoakCommand.*:RunCommand.*'
# The GPU pipeline on the sim: loader threads and stream workers share the pinned slots. The small
# case only: under TSan each simulated kernel thread costs fiber switches TSan tracks, and the
# stage-timing tests (the watchdog's) would see a kernel that slow as stuck.
filter+=':GpuPipelineSlowLink.*'
# The staging rings: the host side's thread team (RunRing) and the bounce ring on the sim, whose
# slots its threads refill while a stream worker copies from them, also after a reshape (what the
# tuned ring does between trials). The small case only: a ring's larger copies cost minutes here.
filter+=':RunRing.*:BounceRingGpu.ReshapesWithinItsCapacityAndRefusesBeyondIt'
# Worker processes: the receiving thread, the pin copy and the step share the shared-memory slots
# (the workers themselves are single-threaded programs). Not the decode case: each worker makes the
# image set again, which costs a minute under TSan.
filter+=':ProcessPipeline.*:-ProcessPipeline.WorkerProcessesDecodeTheRunsImages'
# 64 worker processes under TSan each carry its shadow memory: the plain and ASan runs cover them.
filter+=':ProcessPipeline.SixtyFourWorkersWithPrefetchFourDeliverEveryBatchIntact'
# The soak command's random configurations on the host-only pipeline (no simulated GPU): twenty
# configurations in its 2 s, where on the sim under TSan its first one alone ran 150 s (27 batches
# of 3x128x128 tiles through simulated kernels). The GPU pipeline is the slow-link cases above.
soak=SoakCommand.RunsRandomConfigurationsCleanly # after the filter's "-": left out of the first run
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
build/tsan/h2d_tsan_tests --gtest_filter="$filter:$soak" 2>&1 | tee "$log" || status=$?
H2D_SIM_DEVICES=0 build/tsan/h2d_tsan_tests --gtest_filter="$soak" 2>&1 | tee -a "$log" || status=$?
if grep -q "WARNING: ThreadSanitizer" "$log"; then
  echo "tsan.sh: ThreadSanitizer reported a problem (see above)" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "tsan.sh: the pipeline tests failed under ThreadSanitizer (exit $status)" >&2
  exit "$status"
fi

# Canaries: races made on purpose, which TSan must report, or the clean run above proves nothing:
# a host pipeline that refills slots without waiting for their copies, and (GPU side) a host
# thread rewriting a pinned buffer while a simulated stream worker still copies from it.
for canary_test in HostPipeline.IgnoringSlotFencesIsCaught \
  SimStreams.APinnedSourceRewrittenBeforeTheCopyEndsIsWhatLands; do
  canary=0
  H2D_TSAN_CANARY=1 build/tsan/h2d_tsan_tests --gtest_filter="$canary_test" >"$log" 2>&1 || canary=$?
  if [ "$canary" -eq 0 ] || ! grep -q "WARNING: ThreadSanitizer: data race" "$log"; then
    cat "$log" >&2
    echo "tsan.sh: ThreadSanitizer missed the deliberate race of $canary_test: is it active?" >&2
    exit 1
  fi
done
echo "tsan.sh: pipeline tests clean under ThreadSanitizer (and it caught both canary races)"
