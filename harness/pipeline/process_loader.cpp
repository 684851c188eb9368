#include "harness/pipeline/process_loader.hpp"

#include <fmt/format.h>

#include <cstring>
#include <utility>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_skipped.hpp"
#include "harness/pipeline/slot_layout.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

// A shared ring slot's memory as the loop holds it: mapped, and (shared_pinned) page-locked.
// Declared in that order so the lock goes before the mapping.
struct SharedSlot {
  SharedMapping mapping;
  std::shared_ptr<void> page_lock;
};

}  // namespace

std::unique_ptr<ProcessLoader> make_process_loader(const PipelineConfig& config, StepEngine& engine,
                                                   std::vector<HostBlock>& pageable,
                                                   std::vector<HostBlock>& ring) {
  NvtxRange range(NvtxCategory::setup, "start loader worker processes");
  remove_stale_segments();  // names an earlier run's killed worker could have left
  auto loader = std::make_unique<ProcessLoader>();
  const SlotLayout layout(config);
  const std::size_t slot_bytes = layout.host_bytes();
  if (!sample_crosses(config)) {
    throw CaseSkipped(fmt::format(
        "worker=process sends the sample's spec to its workers in one message of at most {} "
        "bytes; this one takes {}",
        kLoaderMaxWords * 8, config.sample->text().size()));
  }
  if (config.shm == ShmMode::fresh && !config.packed_members && layout.segments() > kLoaderMaxFds) {
    throw CaseSkipped(fmt::format(
        "worker=process shm=fresh hands a batch over in a segment per member and one for the ids "
        "({} here), sent in one message of at most {} descriptors; members=packed sends one",
        layout.segments(), kLoaderMaxFds));
  }
  // Batches asked of the workers and not yet received: PyTorch's prefetch_factor per worker.
  const std::size_t asked = config.workers * config.prefetch;
  // Slots the main side holds at most: the ready queue, the batch being submitted, the lanes.
  const std::size_t held = config.prefetch + 1 + kPipelineLanes;
  const bool pin_copy = config.pin == PinMode::pin_thread;
  if (config.shm == ShmMode::fresh) {
    const std::size_t slots = held;
    loader->shared_memory_needed = (asked + slots) * slot_bytes;
    loader->shared_memory_use =
        fmt::format("worker=process shm=fresh ({} batches asked, {} mapped, {} each)", asked, slots,
                    format_bytes(slot_bytes));
    require_shared_memory(loader->shared_memory_needed, loader->shared_memory_use);
    for (std::size_t i = 0; i < slots; ++i) {
      loader->mapping_slots.push_back(std::make_unique<AddressReservation>(slot_bytes));
      pageable.emplace_back(loader->mapping_slots.back()->data(), slot_bytes, nullptr);
    }
  } else {
    // The ring must hold every batch asked of the workers, or asking would wait for a slot that
    // only a reply not yet read could free; pinned by copy, a slot is free again after its copy.
    const std::size_t slots = config.slots > 0 ? config.slots : asked + (pin_copy ? 1 : held);
    loader->shared_memory_needed = slots * slot_bytes;
    loader->shared_memory_use =
        fmt::format("worker=process shm=reused ({} slots of {})", slots, format_bytes(slot_bytes));
    require_shared_memory(loader->shared_memory_needed, loader->shared_memory_use);
    std::vector<HostBlock>& into = config.pin == PinMode::shared_pinned ? ring : pageable;
    for (std::size_t i = 0; i < slots; ++i) {
      loader->ring.push_back(SharedSegment::create(slot_bytes));
      auto slot = std::make_shared<SharedSlot>();
      slot->mapping = SharedMapping(loader->ring.back(), /*populate=*/true);
      std::byte* data = slot->mapping.data();
      std::memset(data, 0, slot_bytes);
      if (config.pin == PinMode::shared_pinned) {
        slot->page_lock = engine.page_lock(data, slot->mapping.size());
      }
      into.emplace_back(data, slot_bytes, std::move(slot));
    }
  }
  if (pin_copy) {
    for (std::size_t i = 0; i < held; ++i) {
      ring.push_back(engine.make_pinned_slot(slot_bytes));
      std::memset(ring.back().data(), 0, slot_bytes);
    }
  }
  loader->workers = std::make_unique<WorkerProcesses>(config, loader->ring, slot_bytes);
  return loader;
}

}  // namespace h2d
