#include "harness/pipeline/loader_worker.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "harness/core/cancellation.hpp"
#include "harness/decode/run_images.hpp"
#include "harness/decode/tile_decoder.hpp"
#include "harness/host/shared_segment.hpp"
#include "harness/pipeline/batch_collation.hpp"
#include "harness/pipeline/loader_messages.hpp"
#include "harness/pipeline/slot_layout.hpp"

namespace h2d {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t nanoseconds(Clock::time_point at) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
}

class LoaderWorker {
 public:
  LoaderWorker(int socket, const LoaderStart& start, const std::vector<std::uint64_t>& sample,
               LoaderFault fault)
      : socket_(socket),
        config_(config_of(start, sample)),
        layout_(config_),
        slot_bytes_(start.slot_bytes),
        fault_(fault) {
    if (config_.decode == DecodeMode::cpu) {
      // The parent's set, made again: the generated tiles, or its --images folder.
      const std::string dir(start.image_dir, strnlen(start.image_dir, sizeof start.image_dir));
      decoder_.emplace(dir.empty() ? RunImages().set() : RunImages(dir).set(), config_.tile);
    }
  }

  // Maps the ring's segments `fds` (the next slots in order) and closes their descriptors.
  void add_ring_slots(const std::vector<int>& fds) {
    for (int fd : fds) {
      ring_.emplace_back(SharedSegment(fd, slot_bytes_), /*populate=*/true);
    }
  }
  std::size_t ring_slots() const { return ring_.size(); }

  int serve() {
    LoaderPacket packet;
    while (receive_packet(socket_, sizeof(BatchRequest), packet)) {
      const auto request = header_as<BatchRequest>(packet);
      BatchReply reply;
      reply.batch = request.batch;
      reply.slot = request.slot;
      std::vector<std::uint64_t> sums;
      std::vector<SharedSegment> members;
      try {
        const Clock::time_point start = Clock::now();
        members = produce(request, sums);
        reply.start_ns = nanoseconds(start);
        reply.end_ns = nanoseconds(Clock::now());
      } catch (const std::exception& error) {
        reply.failed =
            dynamic_cast<const SharedMemoryFull*>(&error) ? kReplySharedMemoryFull : kReplyError;
        std::snprintf(reply.error, sizeof reply.error, "%s", error.what());
        members.clear();
        sums.clear();
      }
      commit_fault(request, reply, members);
      reply.sums = sums.size();
      std::vector<int> fds;
      for (const SharedSegment& member : members) {
        fds.push_back(member.fd());
      }
      send_packet(socket_, &reply, sizeof reply, sums, fds);
    }
    return 0;
  }

 private:
  // The test's fault, from batch kLoaderFaultFirstBatch on, where its kind of batch has the part.
  void commit_fault(const BatchRequest& request, BatchReply& reply,
                    std::vector<SharedSegment>& members) const {
    if (request.batch < kLoaderFaultFirstBatch || reply.failed != 0) {
      return;
    }
    if (fault_ == LoaderFault::slot_out_of_range && config_.shm == ShmMode::reused) {
      reply.slot = ring_.size() + 7;
    } else if (fault_ == LoaderFault::swapped_segments && members.size() > 1) {
      std::swap(members[0], members[1]);
    } else if (fault_ == LoaderFault::short_segment && !members.empty()) {
      if (ftruncate(members[0].fd(), static_cast<off_t>(members[0].size() / 2)) != 0) {
        throw std::system_error(errno, std::generic_category(), "ftruncate (a test's fault)");
      }
    }
  }

  // The batch in shared memory: shm=fresh in new segments (each member's region, then the ids';
  // one with packed members), which are returned to be sent; shm=reused in the ring slot the
  // request names.
  std::vector<SharedSegment> produce(const BatchRequest& request,
                                     std::vector<std::uint64_t>& sums) {
    const SampleIds ids{request.first_sample, config_.batch_size};
    std::vector<SharedSegment> segments;
    std::vector<SharedMapping> mappings;
    BatchRegions regions;
    if (fault_ == LoaderFault::shared_memory_full && config_.shm == ShmMode::fresh &&
        request.batch >= kLoaderFaultFirstBatch) {
      throw SharedMemoryFull("/dev/shm is full (a test's fault)");
    }
    if (config_.shm == ShmMode::fresh && !config_.packed_members) {
      for (std::size_t segment = 0; segment < layout_.segments(); ++segment) {
        segments.push_back(SharedSegment::create(layout_.segment_bytes(segment)));
        // Not populated: the worker's collate pays the new pages' faults, as PyTorch's does.
        mappings.emplace_back(segments.back(), /*populate=*/false);
        regions.push_back(mappings.back().data());
      }
    } else {
      std::byte* slot = nullptr;
      if (config_.shm == ShmMode::fresh) {  // packed members: the whole slot in one segment
        segments.push_back(SharedSegment::create(layout_.host_bytes()));
        mappings.emplace_back(segments.back(), /*populate=*/false);
        slot = mappings.back().data();
      } else if (request.slot < ring_.size()) {
        slot = ring_[request.slot].data();
      } else {
        throw std::out_of_range(fmt::format("batch {} asked for ring slot {} of {}", request.batch,
                                            request.slot, ring_.size()));
      }
      regions = slot_regions(layout_, slot);
    }
    collate_batch(config_, layout_, ids, request.batch, regions, decoder_ ? &*decoder_ : nullptr,
                  never_);
    if (request.verify != 0) {
      sums = sample_checksums(layout_, regions);
    }
    return segments;
  }

  int socket_;
  PipelineConfig config_;
  SlotLayout layout_;
  std::size_t slot_bytes_;
  std::vector<SharedMapping> ring_;
  std::optional<TileDecoder> decoder_;
  LoaderFault fault_;
  Cancellation never_;  // a worker process is stopped by closing its socket or a signal
};

}  // namespace

int run_loader_worker(int socket, LoaderFault fault) {
  LoaderPacket packet;
  std::optional<LoaderWorker> worker;
  try {
    if (!receive_packet(socket, sizeof(LoaderStart), packet)) {
      return 0;  // the main process went away before the start
    }
    const auto start = header_as<LoaderStart>(packet);
    worker.emplace(socket, start, packet.words, fault);
    worker->add_ring_slots(packet.fds);
    while (worker->ring_slots() < start.ring_slots) {  // a ring too large for one message
      if (!receive_packet(socket, sizeof(RingPart), packet)) {
        return 0;
      }
      if (header_as<RingPart>(packet).first_slot != worker->ring_slots()) {
        throw std::runtime_error("the ring's segments arrived out of order");
      }
      worker->add_ring_slots(packet.fds);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "h2d_loader_worker: cannot start: %s\n", error.what());
    return 2;
  }
  try {
    return worker->serve();
  } catch (const std::exception& error) {
    // The socket failed: the main process is gone or stopped listening.
    std::fprintf(stderr, "h2d_loader_worker: %s\n", error.what());
    return 3;
  }
}

}  // namespace h2d
