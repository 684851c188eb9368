#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/core/host_block.hpp"
#include "harness/host/shared_segment.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/step_engine.hpp"
#include "harness/pipeline/worker_processes.hpp"

namespace h2d {

// What worker=process adds to a Pipeline: the worker processes and the shared memory batches
// cross in. shm=fresh: the pageable slots are reserved address ranges, each received batch's
// segments mapped into one (the copy and the pin thread read them there). shm=reused: the slots are
// segments mapped on both sides once; with pin=shared_pinned the engine page-locks them and they
// are the pinned ring.
struct ProcessLoader {
  std::vector<std::unique_ptr<AddressReservation>> mapping_slots;  // shm=fresh, one per slot
  std::vector<SharedSegment> ring;                                 // shm=reused, one per slot
  std::unique_ptr<WorkerProcesses> workers;
  // Batches asked of the workers by an epoch that ended early and never received: their replies
  // are still on the way, so no further epoch can run on these workers.
  std::size_t unanswered = 0;
  // The /dev/shm the loader needs, and for what: checked at start, named again if it fills later.
  std::size_t shared_memory_needed = 0;
  std::string shared_memory_use;
};

// Makes the slots (into `pageable`, or `ring` for shared_pinned; pin=pin_thread's pinned ring from
// the engine too) and starts the workers. Throws SharedMemoryFull when /dev/shm cannot hold the
// segments in flight, naming what it has and what they need.
std::unique_ptr<ProcessLoader> make_process_loader(const PipelineConfig& config, StepEngine& engine,
                                                   std::vector<HostBlock>& pageable,
                                                   std::vector<HostBlock>& ring);

}  // namespace h2d
